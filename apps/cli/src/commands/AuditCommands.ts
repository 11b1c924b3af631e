/**
 * `quire audit`: the audit log, an organization's (`--org`, GitBook's `listOrganizationAuditEvents`,
 * its admins) or the whole instance's (`/admin/audit-events`, instance administrators): a table,
 * or every page streamed as JSON lines (`--jsonl`, `quire audit export --out FILE`), one event a line.
 */
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { HttpClientRequest, type HttpClientResponse } from "effect/http"
import { closeSync, openSync, renameSync, rmSync, writeSync } from "node:fs"
import { CliFailure } from "../Failure.ts"
import * as Output from "../Output.ts"
import { QuireHttp } from "../QuireClient.ts"

interface AuditEvent {
  readonly id: string
  readonly occurredAt: string
  readonly action: string
  readonly actor: { readonly type: string; readonly id: string; readonly label?: string }
  readonly target: { readonly type: string; readonly id: string; readonly label?: string }
  readonly source: string
  readonly client?: { readonly address?: string; readonly userAgent?: string }
}

interface EventPage {
  readonly items: ReadonlyArray<AuditEvent>
  readonly next?: { readonly page: string }
}

const optionalText = (name: string, description: string) => Flag.String(name).pipe(Flag.withDescription(description), Flag.optional)

/** The filters, as `listOrganizationAuditEvents` takes them. */
const filters = {
  org: optionalText("org", "The organization whose log to read (its admins); without it, the whole instance's (instance administrators)"),
  action: optionalText("action", "Only this action (e.g. member.role-changed; `quire audit actions` lists them)"),
  actor: optionalText("actor", "Only events caused by this user id"),
  target: optionalText("target", "Only events on this target id (a user, team, space, site…)"),
  from: optionalText("from", "Only events at or after this date-time (ISO 8601 with an offset, e.g. 2026-01-31T00:00:00Z)"),
  to: optionalText("to", "Only events at or before this date-time")
} as const

type Filters = { readonly [K in keyof typeof filters]: Option.Option<string> }

/** The answer's JSON when it is 200; the server's error message (or its status) as the failure otherwise. */
const bodyOf = Effect.fnUntraced(function*(request: HttpClientRequest.HttpClientRequest) {
  const { baseUrl, httpClient } = yield* QuireHttp
  const response: HttpClientResponse.HttpClientResponse = yield* httpClient.execute(request).pipe(
    Effect.mapError((error) => new CliFailure({ message: `Cannot reach the server at ${baseUrl}: ${error.message}` }))
  )
  const body: unknown = yield* Effect.orElseSucceed(response.json, () => undefined)
  if (response.status !== 200) {
    const message = (body as { readonly error?: { readonly message?: unknown } } | undefined)?.error?.message
    return yield* new CliFailure({ message: typeof message === "string" ? message : `The server answered ${response.status}` })
  }
  return body
})

/** One page of the log the filters name. */
const fetchPage = (options: Filters, page: string | undefined, limit: number) =>
  Effect.gen(function*() {
    const { baseUrl } = yield* QuireHttp
    const params: Record<string, string> = { limit: String(limit) }
    for (const key of ["action", "actor", "target", "from", "to"] as const) {
      if (Option.isSome(options[key])) params[key] = options[key].value
    }
    if (page !== undefined) params["page"] = page
    const path = Option.match(options.org, {
      onNone: () => "/admin/audit-events",
      onSome: (org) => `/v1/orgs/${encodeURIComponent(org)}/audit-events`
    })
    return (yield* bodyOf(HttpClientRequest.get(`${baseUrl}${path}`, { urlParams: params }))) as EventPage
  })

/** Hands every event of the log, oldest page last, to `each` a page at a time, as the server answers; answers how many. */
const everyEvent = <E, R>(options: Filters, limit: Option.Option<number>, each: (events: ReadonlyArray<AuditEvent>) => Effect.Effect<void, E, R>) =>
  Effect.gen(function*() {
    let page: string | undefined
    let seen = 0
    while (true) {
      const wanted = Option.match(limit, { onNone: () => 100, onSome: (n) => Math.min(100, n - seen) })
      const answer = yield* fetchPage(options, page, wanted)
      yield* each(answer.items)
      seen += answer.items.length
      page = answer.next?.page
      if (page === undefined || answer.items.length === 0 || (Option.isSome(limit) && seen >= limit.value)) return seen
    }
  })

const limit = Flag.Int("limit").pipe(
  Flag.withDescription("At most this many events (default: 20 in a table, all with --jsonl)"),
  Flag.filter((n) => n >= 1, (n) => `--limit must be at least 1, got ${n}`),
  Flag.optional
)

const describeActor = (e: AuditEvent) => e.actor.label ?? e.actor.id
const describeTarget = (e: AuditEvent) => `${e.target.type} ${e.target.label ?? e.target.id}`

const list = Command.make(
  "list",
  {
    ...filters,
    limit,
    jsonl: Flag.Boolean("jsonl").pipe(Flag.withDescription("Every event (all pages, streamed) as JSON lines, one object a line"), Flag.withDefault(false))
  },
  Effect.fn("quire.audit.list")(function*(options) {
    if (options.jsonl) {
      yield* everyEvent(options, options.limit, (events) => Effect.forEach(events, (e) => Console.log(JSON.stringify(e)), { discard: true }))
      return
    }
    const wanted = Option.getOrElse(options.limit, () => 20)
    const items: Array<AuditEvent> = []
    yield* everyEvent(options, Option.some(wanted), (events) => Effect.sync(() => void items.push(...events)))
    yield* Output.printList({ items }, [
      { header: "WHEN", value: (e) => Output.when(e.occurredAt) },
      { header: "ACTION", value: (e) => e.action },
      { header: "ACTOR", value: describeActor, shrink: "end" },
      { header: "TARGET", value: describeTarget, shrink: "end" },
      { header: "FROM", value: (e) => e.client?.address ?? e.source }
    ], "No audit events.")
  })
).pipe(
  Command.provide(QuireHttp.layer),
  Command.withDescription("List audit events, newest first: an organization's (--org, its admins) or the instance's (instance administrators)"),
  Command.withExamples([
    { command: "quire audit list --org ORG_ID --action member.role-changed", description: "Role changes in an organization" },
    { command: "quire audit list --org ORG_ID --jsonl > audit.jsonl", description: "The whole log as JSON lines" }
  ])
)

const exportLog = Command.make(
  "export",
  { ...filters, out: Flag.String("out").pipe(Flag.withDescription("The file to write: JSON lines, one event a line (written as FILE.partial, then renamed)")) },
  Effect.fn("quire.audit.export")(function*(options) {
    const partial = `${options.out}.partial`
    const fd = yield* Effect.try({
      try: () => openSync(partial, "w"),
      catch: (error) => new CliFailure({ message: `Cannot write ${partial}: ${(error as Error).message}` })
    })
    const count = yield* everyEvent(options, Option.none(), (events) =>
      Effect.sync(() => {
        if (events.length > 0) writeSync(fd, events.map((e) => `${JSON.stringify(e)}\n`).join(""))
      })).pipe(
        Effect.ensuring(Effect.sync(() => closeSync(fd))),
        Effect.tapError(() => Effect.sync(() => rmSync(partial, { force: true })))
      )
    renameSync(partial, options.out)
    yield* Output.done(`Exported ${count} audit event${count === 1 ? "" : "s"} to ${options.out}.`, { file: options.out, count })
  })
).pipe(
  Command.provide(QuireHttp.layer),
  Command.withDescription("Write every audit event matching the filters (all pages) to a JSON lines file"),
  Command.withExamples([{ command: "quire audit export --org ORG_ID --from 2026-01-01T00:00:00Z --out audit.jsonl" }])
)

const actions = Command.make(
  "actions",
  { org: filters.org },
  Effect.fn("quire.audit.actions")(function*({ org }) {
    const { baseUrl } = yield* QuireHttp
    const path = Option.match(org, { onNone: () => "/admin/audit-event-actions", onSome: (id) => `/v1/orgs/${encodeURIComponent(id)}/audit-event-actions` })
    const body = (yield* bodyOf(HttpClientRequest.get(`${baseUrl}${path}`))) as { readonly items: ReadonlyArray<{ readonly id: string; readonly label: string }> }
    yield* Output.printList(body, [{ header: "ACTION", value: (a) => a.id }, { header: "LABEL", value: (a) => a.label, shrink: "end" }], "No actions.")
  })
).pipe(Command.provide(QuireHttp.layer), Command.withDescription("The actions the audit log records, with their labels"))

/** `quire audit ...` */
export const audit = Command.make("audit").pipe(
  Command.withDescription("Read the audit log: who changed who can do what, when, from where"),
  Command.withSubcommands([list, exportLog, actions])
)
