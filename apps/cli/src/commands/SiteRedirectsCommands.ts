/** `quire sites redirects`: the paths a published site answers with a redirect. */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { SiteRedirect } from "@quire/api"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import { siteArgs } from "./SiteStructureCommands.ts"

/** Where a redirect leads, in a word or a URL. */
const destinationText = (r: SiteRedirect): string => {
  const d = r.destination
  switch (d.kind) {
    case "external":
      return d.url
    case "site-section":
      return `section ${d.siteSectionId}`
    case "site-space":
      return `site space ${d.siteSpaceId}`
    case "site-page":
      return `page ${d.pageId} of site space ${d.siteSpaceId}`
  }
}

const columns: ReadonlyArray<Output.Column<SiteRedirect>> = [
  { header: "id", value: (r) => r.id },
  { header: "source", value: (r) => r.source, shrink: "end" },
  { header: "to", value: destinationText, shrink: "end" },
  { header: "permanent", value: (r) => Output.yesNo(r.permanent) },
  { header: "draft", value: (r) => Output.yesNo(r.draft) }
]

const show = (r: SiteRedirect) =>
  Output.details([
    ["id", r.id],
    ["source", r.source],
    ["to", destinationText(r)],
    ["permanent", Output.yesNo(r.permanent)],
    ["draft", Output.yesNo(r.draft)]
  ])

const list = Command.make(
  "list",
  { ...siteArgs, ...Pages.flags, drafts: Flag.Boolean("drafts").pipe(Flag.withDescription("List the drafts instead of the live redirects"), Flag.withDefault(false)) },
  Effect.fn("quire.sites.redirects.list")(function*({ drafts, limit, organizationId, pageSize, siteId }) {
    const client = yield* QuireClient
    const found = yield* Pages.collect(
      (query) => client.siteRedirects.listSiteRedirects({ params: { organizationId, siteId }, query: { ...query, draft: drafts, orderBy: "source" } }),
      { limit, pageSize }
    )
    yield* Output.printList(found, columns, "No redirects (quire sites redirects add ORG_ID SITE_ID SOURCE TO).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List a site's redirects by source"),
  Command.withAlias("ls")
)

const add = Command.make(
  "add",
  {
    ...siteArgs,
    source: Argument.String("source").pipe(Argument.withDescription("The path to redirect, starting with / (a trailing * matches every path it starts)")),
    to: Argument.String("to").pipe(Argument.withDescription("An http(s) URL, or with --space a page's path in that space")),
    space: Flag.String("space").pipe(Flag.withDescription("The space (shown by the site) whose page `to` names"), Flag.optional),
    permanent: Flag.Boolean("permanent").pipe(Flag.withDescription("A permanent redirect (308 to public traffic)"), Flag.withDefault(false)),
    draft: Flag.Boolean("draft").pipe(Flag.withDescription("Keep it as a draft: published sites do not answer it"), Flag.withDefault(false))
  },
  Effect.fn("quire.sites.redirects.add")(function*({ draft, organizationId, permanent, siteId, source, space, to }) {
    const client = yield* QuireClient
    const destination = Option.match(space, {
      onNone: () => ({ kind: "external" as const, url: to }),
      onSome: (spaceId) => ({ kind: "path" as const, spaceId, path: to })
    })
    const redirect = yield* client.siteRedirects.createSiteRedirect({
      params: { organizationId, siteId },
      payload: { source, destination, permanent, draft }
    })
    yield* Output.print(redirect, show)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Redirect a path of a site to a URL or to a page (admins)"),
  Command.withExamples([
    { command: "quire sites redirects add ORG_ID SITE_ID /old-install install --space SPACE_ID --permanent" },
    { command: "quire sites redirects add ORG_ID SITE_ID \"/blog/*\" https://blog.example.com" }
  ])
)

const remove = Command.make(
  "rm",
  { ...siteArgs, redirectId: Argument.String("redirect-id").pipe(Argument.withDescription("The redirect's id (quire sites redirects list)")) },
  Effect.fn("quire.sites.redirects.remove")(function*({ organizationId, redirectId, siteId }) {
    const client = yield* QuireClient
    yield* client.siteRedirects.deleteSiteRedirectById({ params: { organizationId, siteId, siteRedirectId: redirectId } })
    yield* Output.done(`Redirect ${redirectId} removed from site ${siteId}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Remove a redirect; its path is the site's 404 again unless a page has it (admins)")
)

/** `quire sites redirects ...` */
export const redirects = Command.make("redirects").pipe(
  Command.withDescription("The paths a published site answers with a redirect"),
  Command.withSubcommands([list, add, remove])
)
