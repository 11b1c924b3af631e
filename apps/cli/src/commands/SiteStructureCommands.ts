/** `quire sites spaces|sections|share-links`: what a site shows, in which order, and the links that open it. */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { ShareLink, SiteSection, SiteSpace } from "@quire/api"
import { CliFailure } from "../Failure.ts"
import * as Fields from "../Fields.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import { organizationId } from "./OrganizationsCommands.ts"

/** The arguments naming one site. */
export const siteArgs = {
  organizationId,
  siteId: Argument.String("site-id").pipe(Argument.withDescription("The site's id"))
} as const

const siteSpaceId = Argument.String("site-space-id").pipe(Argument.withDescription("The site space's id (quire sites spaces list)"))

const siteSpaceColumns: ReadonlyArray<Output.Column<SiteSpace>> = [
  { header: "id", value: (s) => s.id },
  { header: "title", value: (s) => s.title, shrink: "end" },
  { header: "path", value: (s) => s.path },
  { header: "space", value: (s) => s.space.id },
  { header: "section", value: (s) => s.section ?? "" },
  { header: "default", value: (s) => Output.yesNo(s.default) }
]

const showSiteSpace = (s: SiteSpace) =>
  Output.details([
    ["id", s.id],
    ["title", s.title],
    ["path", s.path],
    ["space", s.space.id],
    ["section", s.section],
    ["default", Output.yesNo(s.default)],
    ["url", s.urls.published]
  ])

const spacesList = Command.make(
  "list",
  { ...siteArgs, ...Pages.flags },
  Effect.fn("quire.sites.spaces.list")(function*({ limit, organizationId, pageSize, siteId }) {
    const client = yield* QuireClient
    const found = yield* Pages.collect(
      (query) => client.siteSpaces.listSiteSpaces({ params: { organizationId, siteId }, query }),
      { limit, pageSize }
    )
    yield* Output.printList(found, siteSpaceColumns, "The site shows no space yet (quire sites spaces add ORG_ID SITE_ID SPACE_ID).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List the spaces a site shows, section by section"),
  Command.withAlias("ls")
)

const spacesAdd = Command.make(
  "add",
  {
    ...siteArgs,
    spaceId: Argument.String("space-id").pipe(Argument.withDescription("The space to show on the site")),
    section: Flag.String("section").pipe(Flag.withDescription("The section to add it to (default: the default section)"), Flag.optional)
  },
  Effect.fn("quire.sites.spaces.add")(function*({ organizationId, section, siteId, spaceId }) {
    const client = yield* QuireClient
    const added = yield* client.siteSpaces.addSpaceToSite({
      params: { organizationId, siteId },
      payload: { spaceId, ...Fields.optional("sectionId", section) }
    })
    yield* Output.print(added, showSiteSpace)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show a space on a site, at the end of a section or of the site (admins)")
)

const spacesRemove = Command.make(
  "rm",
  { ...siteArgs, siteSpaceId },
  Effect.fn("quire.sites.spaces.remove")(function*({ organizationId, siteId, siteSpaceId }) {
    const client = yield* QuireClient
    yield* client.siteSpaces.deleteSiteSpaceById({ params: { organizationId, siteId, siteSpaceId } })
    yield* Output.done(`Site space ${siteSpaceId} removed from site ${siteId}; the space is kept.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Stop showing a space on a site; the space itself is kept (admins)")
)

const pointer = (id: string) => ({ type: "site-space" as const, siteSpace: id })

const spacesMove = Command.make(
  "mv",
  {
    ...siteArgs,
    siteSpaceId,
    before: Flag.String("before").pipe(Flag.withDescription("Put it just before this site space"), Flag.optional),
    after: Flag.String("after").pipe(Flag.withDescription("Put it just after this site space"), Flag.optional)
  },
  Effect.fn("quire.sites.spaces.move")(function*({ after, before, organizationId, siteId, siteSpaceId }) {
    if (Option.isSome(before) && Option.isSome(after)) {
      return yield* new CliFailure({ message: "Pass --before or --after, not both" })
    }
    const client = yield* QuireClient
    const moved = yield* client.siteSpaces.moveSiteSpace({
      params: { organizationId, siteId, siteSpaceId },
      payload: {
        position: { ...Fields.optional("before", Option.map(before, pointer)), ...Fields.optional("after", Option.map(after, pointer)) }
      }
    })
    yield* Output.print(moved, showSiteSpace)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Move a site space before or after a sibling (neither: to the end) (admins)"),
  Command.withExamples([{ command: "quire sites spaces mv ORG_ID SITE_ID SITE_SPACE_ID --before OTHER_SITE_SPACE_ID" }])
)

/** `quire sites spaces ...` */
export const siteSpaces = Command.make("spaces").pipe(
  Command.withDescription("The spaces a site shows"),
  Command.withSubcommands([spacesList, spacesAdd, spacesRemove, spacesMove])
)

const sectionColumns: ReadonlyArray<Output.Column<SiteSection>> = [
  { header: "id", value: (s) => s.id },
  { header: "title", value: (s) => s.title, shrink: "end" },
  { header: "path", value: (s) => s.path },
  { header: "default", value: (s) => Output.yesNo(s.default) },
  { header: "spaces", value: (s) => String(s.siteSpaces.length) }
]

const showSection = (s: SiteSection) =>
  Output.details([
    ["id", s.id],
    ["title", s.title],
    ["path", s.path],
    ["default", Output.yesNo(s.default)],
    ["spaces", s.siteSpaces.map((siteSpace) => siteSpace.space.id).join(", ")],
    ["url", s.urls.published]
  ])

const sectionsList = Command.make(
  "list",
  { ...siteArgs, ...Pages.flags },
  Effect.fn("quire.sites.sections.list")(function*({ limit, organizationId, pageSize, siteId }) {
    const client = yield* QuireClient
    const found = yield* Pages.collect(
      (query) => client.siteSections.listSiteSections({ params: { organizationId, siteId }, query }),
      { limit, pageSize }
    )
    yield* Output.printList(found, sectionColumns, "The site has no sections.")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List a site's sections (its tabs) in their order"),
  Command.withAlias("ls")
)

const sectionsAdd = Command.make(
  "add",
  {
    ...siteArgs,
    spaceId: Argument.String("space-id").pipe(Argument.withDescription("The space the section shows first")),
    title: Flag.String("title").pipe(Flag.withDescription("The section's title (default: the space's)"), Flag.optional),
    icon: Flag.String("icon").pipe(Flag.withDescription("An icon's name"), Flag.optional)
  },
  Effect.fn("quire.sites.sections.add")(function*({ icon, organizationId, siteId, spaceId, title }) {
    const client = yield* QuireClient
    const section = yield* client.siteSections.addSectionToSite({
      params: { organizationId, siteId },
      payload: { spaceId, ...Fields.optional("title", title), ...Fields.optional("icon", icon) }
    })
    yield* Output.print(section, showSection)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Add a section at the end of a site, showing a space; a site's first section is its default (admins)")
)

const sectionsRemove = Command.make(
  "rm",
  {
    ...siteArgs,
    sectionId: Argument.String("section-id").pipe(Argument.withDescription("The section's id (quire sites sections list)"))
  },
  Effect.fn("quire.sites.sections.remove")(function*({ organizationId, sectionId, siteId }) {
    const client = yield* QuireClient
    yield* client.siteSections.deleteSiteSectionById({ params: { organizationId, siteId, siteSectionId: sectionId } })
    yield* Output.done(`Section ${sectionId} removed from site ${siteId}; its spaces are kept.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Remove a section and its site spaces from a site; the spaces are kept (admins)")
)

/** `quire sites sections ...` */
export const sections = Command.make("sections").pipe(
  Command.withDescription("A site's sections (tabs), each showing spaces"),
  Command.withSubcommands([sectionsList, sectionsAdd, sectionsRemove])
)

const shareLinkColumns: ReadonlyArray<Output.Column<ShareLink>> = [
  { header: "id", value: (link) => link.id },
  { header: "name", value: (link) => link.name ?? "" },
  { header: "active", value: (link) => Output.yesNo(link.active) },
  { header: "created", value: (link) => Output.when(link.createdAt) },
  { header: "url", value: (link) => link.urls.published ?? "" }
]

const showShareLink = (link: ShareLink) =>
  Output.details([
    ["id", link.id],
    ["name", link.name],
    ["active", Output.yesNo(link.active)],
    ["url", link.urls.published]
  ])

const shareLinksList = Command.make(
  "list",
  { ...siteArgs, ...Pages.flags },
  Effect.fn("quire.sites.shareLinks.list")(function*({ limit, organizationId, pageSize, siteId }) {
    const client = yield* QuireClient
    const found = yield* Pages.collect(
      (query) => client.siteShareLinks.listSiteShareLinks({ params: { organizationId, siteId }, query }),
      { limit, pageSize }
    )
    yield* Output.printList(found, shareLinkColumns, "No share links (quire sites share-links create ORG_ID SITE_ID NAME).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List a share-link site's links, with the URLs that open it (admins)"),
  Command.withAlias("ls")
)

const shareLinksCreate = Command.make(
  "create",
  { ...siteArgs, name: Argument.String("name").pipe(Argument.withDescription("Who the link is for, at most 50 characters")) },
  Effect.fn("quire.sites.shareLinks.create")(function*({ name, organizationId, siteId }) {
    const client = yield* QuireClient
    const link = yield* client.siteShareLinks.createSiteShareLink({ params: { organizationId, siteId }, payload: { name } })
    yield* Output.print(link, showShareLink)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Create a secret link that opens a share-link site (admins)"),
  Command.withExamples([{ command: "quire sites share-links create ORG_ID SITE_ID \"Beta customers\"" }])
)

const shareLinksDeactivate = Command.make(
  "deactivate",
  { ...siteArgs, shareLinkId: Argument.String("share-link-id").pipe(Argument.withDescription("The link's id")) },
  Effect.fn("quire.sites.shareLinks.deactivate")(function*({ organizationId, shareLinkId, siteId }) {
    const client = yield* QuireClient
    const link = yield* client.siteShareLinks.updateSiteShareLinkById({
      params: { organizationId, siteId, shareLinkId },
      payload: { active: false }
    })
    yield* Output.print(link, (link) => `Share link ${link.id} deactivated: it opens nothing now.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Turn a share link off: its URL opens nothing, at once (admins)")
)

/** `quire sites share-links ...` */
export const shareLinks = Command.make("share-links").pipe(
  Command.withDescription("The secret links of a share-link site"),
  Command.withSubcommands([shareLinksList, shareLinksCreate, shareLinksDeactivate])
)
