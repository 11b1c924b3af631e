/** `quire sites`: an organization's docs sites, their publishing, visitor key and customization. */
import { Effect, FileSystem, Schema } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api, Site } from "@quire/api"
import { CliFailure } from "../Failure.ts"
import * as Fields from "../Fields.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient, QuireHttp } from "../QuireClient.ts"
import { organizationId } from "./OrganizationsCommands.ts"
import { exportSite } from "./SiteExportCommand.ts"
import { redirects } from "./SiteRedirectsCommands.ts"
import { sections, shareLinks, siteArgs, siteSpaces } from "./SiteStructureCommands.ts"

const visibilities = Site.fields.visibility.literals
const types = Site.fields.type.literals

const columns: ReadonlyArray<Output.Column<Site>> = [
  { header: "id", value: (site) => site.id },
  { header: "title", value: (site) => site.title, shrink: "end" },
  { header: "visibility", value: (site) => site.visibility },
  { header: "published", value: (site) => Output.yesNo(site.published) },
  { header: "spaces", value: (site) => String(site.siteSpaces) },
  { header: "url", value: (site) => site.urls.published ?? "" }
]

const showSite = (site: Site) =>
  Output.details([
    ["id", site.id],
    ["title", site.title],
    ["type", site.type],
    ["visibility", site.visibility],
    ["published", Output.yesNo(site.published)],
    ["site spaces", String(site.siteSpaces)],
    ["hostname", site.hostname],
    ["basename", site.basename],
    ["created", Output.when(site.createdAt)],
    ["url", site.urls.published],
    ["app", site.urls.app]
  ])

const list = Command.make(
  "list",
  {
    organizationId,
    space: Flag.String("space").pipe(Flag.withDescription("Only sites that publish this space"), Flag.optional),
    title: Flag.String("title").pipe(Flag.withDescription("Only sites whose title contains this"), Flag.optional),
    published: Flag.Boolean("published").pipe(Flag.withDescription("Only published sites"), Flag.withDefault(false)),
    ...Pages.flags
  },
  Effect.fn("quire.sites.list")(function*({ limit, organizationId, pageSize, published, space, title }) {
    const client = yield* QuireClient
    const filters = { ...Fields.optional("space", space), ...Fields.optional("title", title), ...(published ? { published } : {}) }
    const sites = yield* Pages.collect(
      (page) => client.sites.listSites({ params: { organizationId }, query: { ...filters, ...page } }),
      { limit, pageSize }
    )
    yield* Output.printList(sites, columns, "No sites (quire sites create ORG_ID TITLE).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List an organization's docs sites"),
  Command.withAlias("ls")
)

const create = Command.make(
  "create",
  {
    organizationId,
    title: Argument.String("title").pipe(Argument.withDescription("The site's title")),
    visibility: Flag.Literals("visibility", visibilities).pipe(
      Flag.withDescription("Who may read it once published (default: public)"),
      Flag.optional
    ),
    type: Flag.Literals("type", types).pipe(Flag.withDescription("The site's plan (default: basic)"), Flag.optional),
    spaces: Flag.String("space").pipe(Flag.withDescription("A space to publish on it (repeatable)"), Flag.atLeast(0)),
    emptySpace: Flag.Boolean("empty-space").pipe(
      Flag.withDescription("Create a new space titled after the site as its first site space"),
      Flag.withDefault(false)
    )
  },
  Effect.fn("quire.sites.create")(function*({ emptySpace, organizationId, spaces, title, type, visibility }) {
    const client = yield* QuireClient
    const site = yield* client.sites.createSite({
      params: { organizationId },
      payload: {
        title,
        ...Fields.optional("visibility", visibility),
        ...Fields.optional("type", type),
        ...Fields.nonEmpty("spaces", spaces),
        ...(emptySpace ? { emptySpace } : {})
      }
    })
    yield* Output.print(site, showSite)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Create an unpublished docs site (admins)"),
  Command.withExamples([{ command: "quire sites create ORG_ID \"Help Center\" --space SPACE_ID --visibility share-link" }])
)

/** A command on one site that prints the site the API answers. */
const onSite = (
  name: string,
  description: string,
  call: (client: HttpApiClient.ForApi<typeof Api>, params: { organizationId: string; siteId: string }) => Effect.Effect<Site, unknown>
) =>
  Command.make(
    name,
    siteArgs,
    Effect.fn(`quire.sites.${name}`)(function*(params) {
      const client = yield* QuireClient
      yield* Output.print(yield* call(client, params), showSite)
    })
  ).pipe(Command.provide(QuireClient.layer), Command.withDescription(description))

const get = onSite("get", "Show a site: its visibility, publishing state and URL", (client, params) => client.sites.getSiteById({ params }))
const publish = onSite(
  "publish",
  "Publish a site: readable at its URL by the audience of its visibility (admins)",
  (client, params) => client.sites.publishSite({ params })
)
const unpublish = onSite(
  "unpublish",
  "Take a site offline: its URLs answer 404 (admins)",
  (client, params) => client.sites.unpublishSite({ params })
)

const remove = Command.make(
  "rm",
  siteArgs,
  Effect.fn("quire.sites.remove")(function*(params) {
    const client = yield* QuireClient
    yield* client.sites.deleteSiteById({ params })
    yield* Output.done(`Deleted site ${params.siteId}; its spaces are kept.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Delete a site with its sections and share links; its spaces are kept (admins)"),
  Command.withAlias("delete")
)

const open = Command.make(
  "open",
  siteArgs,
  Effect.fn("quire.sites.open")(function*(params) {
    const client = yield* QuireClient
    const site = yield* client.sites.getSiteById({ params })
    if (site.urls.published === undefined) {
      return yield* new CliFailure({
        message: !site.published
          ? `Site ${site.id} is not published (quire sites publish ${params.organizationId} ${site.id})`
          : `Site ${site.id} is read through share links (quire sites share-links list ${params.organizationId} ${site.id})`
      })
    }
    yield* Output.print(site, (site) => site.urls.published ?? "")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Print a published site's URL"),
  Command.withExamples([{ command: "xdg-open \"$(quire sites open ORG_ID SITE_ID)\"", description: "Open it in a browser" }])
)

const JsonFile = Schema.fromJsonString(Schema.Record(Schema.String, Schema.Unknown))

const customize = Command.make(
  "customize",
  {
    ...siteArgs,
    file: Argument.String("file").pipe(
      Argument.withDescription("A JSON file of GitBook's site customization settings (it replaces the current ones)")
    )
  },
  Effect.fn("quire.sites.customize")(function*({ file, organizationId, siteId }) {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(file)
    const settings = yield* Schema.decodeUnknownEffect(JsonFile)(text).pipe(
      Effect.mapError(() => new CliFailure({ message: `${file} is not a JSON object` }))
    )
    // Sent as read, not through the typed client's encoder: the server's 400 names the field it refuses.
    const { baseUrl, httpClient } = yield* QuireHttp
    const url = HttpApiClient.urlBuilder(Api, { baseUrl }).sites.updateSiteCustomizationById({
      params: { organizationId, siteId }
    })
    const response = yield* httpClient.execute(HttpClientRequest.bodyJsonUnsafe(HttpClientRequest.put(url), settings))
    const customization = yield* HttpApiClient.decodeResponse(Api, { group: "sites", endpoint: "updateSiteCustomizationById" })(response)
    yield* Output.print(customization, () => `Customized site ${siteId} from ${file}.`)
  })
).pipe(
  Command.provide(QuireHttp.layer),
  Command.withDescription("Replace a site's customization (title, colors, header, footer) with a JSON file (admins)"),
  Command.withExamples([{ command: "quire sites customize ORG_ID SITE_ID site.json", description: "An invalid field: exit 1 naming it" }])
)

const showAuth = (auth: { readonly privateKey: string; readonly fallbackURL?: string }) =>
  Output.details([["private key", auth.privateKey], ["fallback url", auth.fallbackURL]])

const authShow = Command.make(
  "show",
  siteArgs,
  Effect.fn("quire.sites.auth.show")(function*(params) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.sites.getSitePublishingAuthById({ params }), showAuth)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show the key visitors' tokens are signed with (visitor-auth sites; admins)")
)

const authRotate = Command.make(
  "rotate",
  siteArgs,
  Effect.fn("quire.sites.auth.rotate")(function*(params) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.sites.regenerateSitePublishingAuthById({ params }), showAuth)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Replace the visitor key: tokens signed with the former one stop working at once (admins)")
)

const auth = Command.make("auth").pipe(
  Command.withDescription("A site's visitor authentication key"),
  Command.withSubcommands([authShow, authRotate])
)

/** `quire sites ...` */
export const sites = Command.make("sites").pipe(
  Command.withDescription("Manage docs sites: publishing, site spaces, sections, share links, visitor key, customization"),
  Command.withSubcommands([list, create, get, publish, unpublish, remove, open, customize, siteSpaces, sections, shareLinks, redirects, exportSite, auth])
)
