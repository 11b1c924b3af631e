/** `quire translations`: spaces kept translated into another language, and their runs. */
import { Effect } from "effect"
import { Argument, Command } from "effect/cli"
import { Translation } from "@quire/api"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import * as Wait from "../Wait.ts"
import { organizationId } from "./OrganizationsCommands.ts"

/** A run's state in words: GitBook's `completed` with a `failure` is a run that failed. */
const statusOf = (t: { readonly status: string; readonly failure?: string | undefined }) =>
  t.status === "completed" && t.failure !== undefined ? "failed" : t.status

const translationId = Argument.String("translation-id").pipe(Argument.withDescription("The translation's id"))

const columns: ReadonlyArray<Output.Column<Translation>> = [
  { header: "id", value: (t) => t.id },
  { header: "source", value: (t) => `${t.source.space} (${t.source.language})` },
  { header: "language", value: (t) => t.language },
  { header: "status", value: (t) => statusOf(t) },
  { header: "result", value: (t) => t.result?.space ?? "" },
  { header: "runs", value: (t) => String(t.stats.runs) }
]

const showTranslation = (t: Translation) =>
  Output.details([
    ["id", t.id],
    ["source", `${t.source.space} (${t.source.language})`],
    ["language", t.language],
    ["status", statusOf(t)],
    ["failure", t.failure],
    ["result space", t.result?.space],
    ["result revision", t.result?.revision],
    ["runs", String(t.stats.runs)],
    ["pages", String(t.stats.totalPages)],
    ["words", String(t.stats.totalWords)],
    ["updated", Output.when(t.updatedAt)]
  ])

/** With `--wait`, waits for the run after `runs` earlier ones to end, then prints the translation. */
const printRun = Effect.fnUntraced(function*(
  params: { readonly organizationId: string; readonly translationId: string },
  runs: number,
  options: { readonly wait: boolean; readonly timeout: number; readonly queued: Translation | undefined }
) {
  const client = yield* QuireClient
  if (!options.wait) {
    const translation = options.queued ?? (yield* client.translations.getTranslation({ params }))
    return yield* Output.print(translation, (t) => `${showTranslation(t)}\n\nThe run is queued; quire translations status shows how it went.`)
  }
  const ended = yield* Wait.until(
    client.translations.getTranslation({ params }),
    (t) =>
      t.stats.runs <= runs || t.status === "pending" || t.status === "running"
        ? Wait.running(t.status)
        : t.failure !== undefined
        ? Wait.failed(t.failure ?? "no reason given")
        : Wait.succeeded,
    { what: `The translation run of ${params.translationId}`, timeout: options.timeout }
  )
  yield* Output.print(ended, showTranslation)
})

const create = Command.make(
  "create",
  {
    organizationId,
    spaceId: Argument.String("space-id").pipe(Argument.withDescription("The source space")),
    from: Argument.Literals("from", Translation.fields.language.literals).pipe(
      Argument.withDescription("The source space's language")
    ),
    to: Argument.Literals("to", Translation.fields.language.literals).pipe(Argument.withDescription("The language to translate into")),
    ...Wait.flags
  },
  Effect.fn("quire.translations.create")(function*({ from, organizationId, spaceId, timeout, to, wait }) {
    const client = yield* QuireClient
    const created = yield* client.translations.createTranslation({
      params: { organizationId },
      payload: { source: { space: spaceId, language: from }, language: to }
    })
    yield* printRun({ organizationId, translationId: created.id }, 0, { wait, timeout, queued: created })
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Translate a space into a new space, kept in step by runs; the first run is queued (admins)"),
  Command.withExamples([{ command: "quire translations create ORG_ID SPACE_ID en fr --wait" }])
)

const run = Command.make(
  "run",
  { organizationId, translationId, ...Wait.flags },
  Effect.fn("quire.translations.run")(function*({ organizationId, timeout, translationId, wait }) {
    const client = yield* QuireClient
    const params = { organizationId, translationId }
    const before = yield* client.translations.getTranslation({ params })
    yield* client.translations.runTranslation({ params })
    yield* printRun(params, before.stats.runs, { wait, timeout, queued: undefined })
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Run a translation now: pages changed since the last run are translated (--wait waits; admins)"),
  Command.withExamples([{ command: "quire translations run ORG_ID TRANSLATION_ID --wait --timeout 1800" }])
)

const status = Command.make(
  "status",
  { organizationId, translationId },
  Effect.fn("quire.translations.status")(function*({ organizationId, translationId }) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.translations.getTranslation({ params: { organizationId, translationId } }), showTranslation)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show a translation and its last run's state (and why it failed)")
)

const list = Command.make(
  "list",
  { organizationId, ...Pages.flags },
  Effect.fn("quire.translations.list")(function*({ limit, organizationId, pageSize }) {
    const client = yield* QuireClient
    const found = yield* Pages.collect(
      (query) => client.translations.listTranslations({ params: { organizationId }, query }),
      { limit, pageSize }
    )
    yield* Output.printList(found, columns, "No translations.")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List an organization's translations"),
  Command.withAlias("ls")
)

const remove = Command.make(
  "rm",
  { organizationId, translationId },
  Effect.fn("quire.translations.remove")(function*({ organizationId, translationId }) {
    const client = yield* QuireClient
    yield* client.translations.deleteTranslation({ params: { organizationId, translationId } })
    yield* Output.done(`Deleted translation ${translationId}; its result space is kept.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Stop translating; the translated space is kept (admins)"),
  Command.withAlias("delete")
)

/** `quire translations ...` */
export const translations = Command.make("translations").pipe(
  Command.withDescription("Keep spaces translated into other languages"),
  Command.withSubcommands([list, create, run, status, remove])
)
