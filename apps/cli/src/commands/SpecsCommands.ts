/** `quire specs`: an organization's OpenAPI specifications, from a URL or a file, and their versions. */
import { Effect, FileSystem, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { OpenAPISpec, OpenAPISpecVersion } from "@quire/api"
import { CliFailure } from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import * as Wait from "../Wait.ts"
import { organizationId } from "./OrganizationsCommands.ts"

const slug = Argument.String("slug").pipe(Argument.withDescription("The spec's slug: dash-separated words (petstore, billing-api)"))

const columns: ReadonlyArray<Output.Column<OpenAPISpec>> = [
  { header: "slug", value: (spec) => spec.slug },
  { header: "state", value: (spec) => stateOf(spec) },
  { header: "visibility", value: (spec) => spec.visibility ?? "private" },
  { header: "updated", value: (spec) => Output.when(spec.updatedAt) },
  { header: "source", value: (spec) => spec.sourceURL ?? "text", shrink: "start" }
]

/** `pending`, `progress`, `complete`, or `failed (PARSE_ERROR)` for a run that ended with an error. */
const stateOf = (spec: OpenAPISpec) =>
  spec.processingState === "complete" && spec.lastProcessErrorCode !== undefined
    ? `failed (${spec.lastProcessErrorCode})`
    : spec.processingState

/** The errors of the spec's last processing, one text. */
const errorsOf = (spec: OpenAPISpec) =>
  [spec.lastProcessErrorCode, ...(spec.lastProcessedErrors ?? []).map((error) => error.message)]
    .filter((part) => part !== undefined)
    .join(": ")

const showSpec = (spec: OpenAPISpec) =>
  Output.details([
    ["slug", spec.slug],
    ["id", spec.id],
    ["state", stateOf(spec)],
    ["errors", spec.lastProcessErrorCode === undefined ? undefined : errorsOf(spec)],
    ["source", spec.sourceURL],
    ["visibility", spec.visibility],
    ["last version", spec.lastVersion],
    ["processed", Output.when(spec.lastProcessedAt)],
    ["published", spec.urls.published],
    ["app", spec.urls.app]
  ])

/** The source flags of `add` and `update`: one of `--url` and `--file`. */
const sourceFlags = {
  url: Flag.String("url").pipe(Flag.withDescription("Where the spec is fetched from (re-polled by the server)"), Flag.optional),
  file: Flag.String("file").pipe(Flag.withDescription("A local OpenAPI document (JSON or YAML), sent as text"), Flag.optional)
} as const

const sourceOf = Effect.fnUntraced(function*(url: Option.Option<string>, file: Option.Option<string>) {
  if (Option.isSome(url) === Option.isSome(file)) {
    return yield* new CliFailure({ message: "Pass the spec's source: --url URL or --file FILE (one of them)" })
  }
  if (Option.isSome(url)) return { url: url.value }
  const fs = yield* FileSystem.FileSystem
  return { text: yield* fs.readFileString(Option.getOrThrow(file)) }
})

/** With `--wait`, waits for the spec's processing to end and prints it; else prints the answer as queued. */
const printProcessed = Effect.fnUntraced(function*(
  spec: OpenAPISpec,
  params: { readonly organizationId: string; readonly specSlug: string },
  options: { readonly wait: boolean; readonly timeout: number }
) {
  if (!options.wait) return yield* Output.print(spec, showSpec)
  const client = yield* QuireClient
  const processed = yield* Wait.until(
    client.openAPISpecs.getOpenAPISpecBySlug({ params }),
    (spec) =>
      spec.processingState !== "complete"
        ? Wait.running(spec.processingState)
        : spec.lastProcessErrorCode === undefined
        ? Wait.succeeded
        : Wait.failed(errorsOf(spec)),
    { what: `Processing of spec ${spec.slug}`, timeout: options.timeout }
  )
  yield* Output.print(processed, showSpec)
})

const add = Command.make(
  "add",
  { organizationId, slug, ...sourceFlags, ...Wait.flags },
  Effect.fn("quire.specs.add")(function*({ file, organizationId, slug, timeout, url, wait }) {
    const client = yield* QuireClient
    const source = yield* sourceOf(url, file)
    const spec = yield* client.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug, source } })
    yield* printProcessed(spec, { organizationId, specSlug: slug }, { wait, timeout })
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Add an OpenAPI spec from a URL or a file; it is processed in the background (--wait waits)"),
  Command.withExamples([
    { command: "quire specs add ORG_ID petstore --url https://example.com/openapi.yaml --wait" },
    { command: "quire specs add ORG_ID billing --file openapi.json" }
  ])
)

const update = Command.make(
  "update",
  { organizationId, slug, ...sourceFlags, ...Wait.flags },
  Effect.fn("quire.specs.update")(function*({ file, organizationId, slug, timeout, url, wait }) {
    const client = yield* QuireClient
    const source = yield* sourceOf(url, file)
    const params = { organizationId, specSlug: slug }
    const spec = yield* client.openAPISpecs.createOrUpdateOpenAPISpecBySlug({ params, payload: { source } })
    yield* printProcessed(spec, params, { wait, timeout })
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Replace a spec's source (creating the spec if absent) and process it again (--wait waits)"),
  Command.withExamples([{ command: "quire specs update ORG_ID petstore --file openapi.yaml --wait" }])
)

const list = Command.make(
  "list",
  { organizationId, ...Pages.flags },
  Effect.fn("quire.specs.list")(function*({ limit, organizationId, pageSize }) {
    const client = yield* QuireClient
    const specs = yield* Pages.collect(
      (query) => client.openAPISpecs.listOpenAPISpecs({ params: { organizationId }, query }),
      { limit, pageSize }
    )
    yield* Output.printList(specs, columns, "No OpenAPI specs (quire specs add ORG_ID SLUG --url URL).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List an organization's OpenAPI specs and their processing state"),
  Command.withAlias("ls")
)

const get = Command.make(
  "get",
  { organizationId, slug },
  Effect.fn("quire.specs.get")(function*({ organizationId, slug }) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.openAPISpecs.getOpenAPISpecBySlug({ params: { organizationId, specSlug: slug } }), showSpec)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show a spec: its source, processing state and errors, latest version")
)

const versionColumns: ReadonlyArray<Output.Column<OpenAPISpecVersion>> = [
  { header: "id", value: (version) => version.id },
  { header: "created", value: (version) => Output.when(version.createdAt) },
  { header: "url", value: (version) => version.url }
]

const versions = Command.make(
  "versions",
  { organizationId, slug, ...Pages.flags },
  Effect.fn("quire.specs.versions")(function*({ limit, organizationId, pageSize, slug }) {
    const client = yield* QuireClient
    const found = yield* Pages.collect(
      (query) => client.openAPISpecs.listOpenAPISpecVersions({ params: { organizationId, specSlug: slug }, query }),
      { limit, pageSize }
    )
    yield* Output.printList(found, versionColumns, "No versions yet: the spec has not been processed.")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List a spec's processed versions, newest first")
)

const remove = Command.make(
  "rm",
  { organizationId, slug },
  Effect.fn("quire.specs.remove")(function*({ organizationId, slug }) {
    const client = yield* QuireClient
    yield* client.openAPISpecs.deleteOpenAPISpecBySlug({ params: { organizationId, specSlug: slug } })
    yield* Output.done(`Deleted spec ${slug} and its versions.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Delete a spec and all its versions"),
  Command.withAlias("delete")
)

/** `quire specs ...` */
export const specs = Command.make("specs").pipe(
  Command.withDescription("Manage an organization's OpenAPI specifications"),
  Command.withSubcommands([list, get, add, update, versions, remove])
)
