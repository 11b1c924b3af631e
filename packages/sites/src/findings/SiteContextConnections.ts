/**
 * A site's context connections: sources of records that run here. A website (its page and the
 * pages of the same site it links to, fetched through the outbound guard) gives `document`
 * records; a GitHub repository's open issues, read through the forge's API with a token (sealed
 * under the instance secret, never read back), give `ticket` records. A sync pulls them now.
 */
import { Clock, Config, Context, Effect, Layer, Option, Schema } from "effect"
import { Actor, Errors, Ids, Pagination, Sealed } from "@quire/kernel"
import { OutboundFetch, OutboundFetchError } from "@quire/outbound"
import type { ContextConnectionFailureReason, ContextUsageSettings, StoredConnection, StoredRecord } from "../domain/Findings.ts"
import { insightsReader } from "../insights/SiteInsights.ts"
import * as SiteGuard from "../SiteGuard.ts"
import { maxRecordBody } from "./SiteFindings.ts"
import { SiteContextRepo } from "./SiteContextRepo.ts"

const tokenPurpose = "site-context-connection-tokens"
/** GitHub's API, unless a connection names another (GitHub Enterprise's, a compatible forge's). */
export const githubApi = "https://api.github.com"
/** The most pages of a website a sync reads. */
const maxWebsitePages = 20
/** What a connection's token reads as: it is kept sealed and never shown. */
export const maskedToken = "********"
const fetchLimits = { maxBytes: 2 * 1024 * 1024, timeout: "15 seconds" } as const

export type ConnectionInput =
  | { readonly connector: "builtin:website"; readonly setupSettings: { readonly url: string } }
  | { readonly connector: "builtin:github-issues"; readonly setupSettings: { readonly repository: string; readonly token: string; readonly apiUrl?: string | undefined } }

export interface ConnectionView extends Omit<StoredConnection, "setup" | "organizationId" | "siteId"> {
  readonly connector: "builtin:website" | "builtin:github-issues"
  readonly setupSettings: { readonly url?: string; readonly repository?: string; readonly token?: string; readonly apiUrl?: string }
  readonly records: number
}

type Op<A> = Effect.Effect<A, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>

export interface SiteContextConnectionsShape {
  readonly list: (organizationId: string, siteId: string, page: Pagination.PageRequest) => Op<Pagination.Page<ConnectionView>>
  readonly get: (organizationId: string, siteId: string, id: string) => Op<ConnectionView>
  readonly create: (
    organizationId: string,
    siteId: string,
    input: ConnectionInput & { readonly usageSettings?: ContextUsageSettings | undefined; readonly filter?: string | undefined }
  ) => Op<ConnectionView>
  readonly update: (
    organizationId: string,
    siteId: string,
    id: string,
    input: { readonly usageSettings?: ContextUsageSettings | undefined; readonly label?: string | undefined; readonly filter?: string | undefined }
  ) => Op<ConnectionView>
  readonly remove: (organizationId: string, siteId: string, id: string) => Op<void>
  /** Pulls the connection's records now; the connection's status says how it went. */
  readonly sync: (organizationId: string, siteId: string, id: string) => Op<ConnectionView>
  readonly test: (organizationId: string, siteId: string, id: string) => Op<{ readonly success: boolean; readonly error: string | undefined }>
  /** The schedule's: syncs, one after another, the few connections longest unsynced (at most `maxScheduledSyncs`, each at most once an interval); answers how many. */
  readonly syncDue: Effect.Effect<number>
}

/** How many connections one run of the schedule syncs, one after another. */
export const maxScheduledSyncs = 5
/** The job that syncs connections on a schedule. */
export const syncTask = "findings.syncConnections"

const Issues = Schema.Array(Schema.Struct({
  number: Schema.Finite,
  title: Schema.String,
  body: Schema.optional(Schema.NullOr(Schema.String)),
  html_url: Schema.String,
  created_at: Schema.String,
  pull_request: Schema.optional(Schema.Unknown)
}))

interface Pulled {
  readonly externalId: string
  readonly type: "ticket" | "document"
  readonly title: string
  readonly body: string
  readonly url: string
  readonly createdAt: string | undefined
}

const reasonOf = (error: OutboundFetchError): ContextConnectionFailureReason => {
  if (error.reason === "http" && / answered (401|403)$/.test(error.message)) return "authentication"
  if (error.reason === "http" && error.message.endsWith(" answered 429")) return "rate_limited"
  if (error.reason === "http" && error.message.endsWith(" answered 404")) return "misconfigured"
  if (error.reason === "blocked" || error.reason === "invalid-url") return "misconfigured"
  if (error.reason === "network" || error.reason === "timeout") return "upstream_unavailable"
  return "unknown"
}

const decodeEntities = (text: string) =>
  text.replace(/&nbsp;/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&amp;/g, "&")

/** A page's title and text, and the links it holds. */
const readHtml = (html: string, base: string) => {
  const title = decodeEntities(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.trim() ?? "")
  const text = decodeEntities(
    html.replace(/<(script|style|noscript|template)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]+>/g, " ")
  ).replace(/\s+/g, " ").trim()
  const links: Array<string> = []
  for (const match of html.matchAll(/<a\s[^>]*href\s*=\s*["']([^"'#]+)["']/gi)) {
    if (URL.canParse(match[1]!, base)) links.push(new URL(match[1]!, base).href)
  }
  return { title, text, links }
}

interface SourceDeps {
  readonly repo: SiteContextRepo["Service"]
  readonly outbound: OutboundFetch["Service"]
  readonly ids: Ids.Ids["Service"]
  readonly key: Uint8Array
  readonly nowIso: Effect.Effect<string>
}

/** Reading a connection's source, and storing what it holds as the connection's records. */
const sources = ({ ids, key, nowIso, outbound, repo }: SourceDeps) => {
  /** What the connection's source holds now. */
  const pull = (c: StoredConnection): Effect.Effect<ReadonlyArray<Pulled>, OutboundFetchError> =>
    Effect.gen(function*() {
      const setup = c.setup
      if (setup.connector === "builtin:github-issues") {
        const token = Option.getOrElse(Sealed.open(key, setup.sealedToken), () => "")
        const got = yield* outbound.get(`${setup.apiUrl ?? githubApi}/repos/${setup.repository}/issues?state=open&per_page=100`, {
          ...fetchLimits,
          headers: { authorization: `Bearer ${token}`, accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" }
        })
        const issues = yield* Effect.try({ try: () => JSON.parse(new TextDecoder().decode(got.body)) as unknown, catch: () => undefined }).pipe(
          Effect.flatMap(Schema.decodeUnknownEffect(Issues)),
          Effect.mapError(() => new OutboundFetchError({ reason: "http", message: "The forge's answer is not a list of issues" }))
        )
        return issues.filter((i) => i.pull_request === undefined).map((i): Pulled => ({
          externalId: String(i.number),
          type: "ticket",
          title: i.title.slice(0, 256),
          body: (i.body ?? "").slice(0, maxRecordBody),
          url: i.html_url,
          createdAt: Number.isNaN(Date.parse(i.created_at)) ? undefined : new Date(Date.parse(i.created_at)).toISOString()
        }))
      }
      const start = new URL(setup.url)
      const queue = [start.href]
      const seen = new Set(queue)
      const pages: Array<Pulled> = []
      while (queue.length > 0 && pages.length < maxWebsitePages) {
        const url = queue.shift()!
        // Only the first page must answer: a broken link further on is skipped.
        const got = url === start.href ? Option.some(yield* outbound.get(url, fetchLimits)) : yield* Effect.option(outbound.get(url, fetchLimits))
        if (Option.isNone(got)) continue
        const resource = got.value
        if (!resource.contentType.includes("html")) continue
        const { links, text, title } = readHtml(new TextDecoder().decode(resource.body), resource.url)
        pages.push({ externalId: url, type: "document", title: (title || url).slice(0, 256), body: text.slice(0, maxRecordBody), url, createdAt: undefined })
        for (const link of links) {
          const next = new URL(link)
          next.hash = ""
          if (next.origin === start.origin && next.pathname.startsWith(start.pathname.replace(/[^/]*$/, "")) && !seen.has(next.href)) {
            seen.add(next.href)
            queue.push(next.href)
          }
        }
      }
      return pages
    })

  const syncOne = (before: StoredConnection) =>
    Effect.gen(function*() {
      // Marked as syncing (and when), so the schedule waits from this attempt however it ends.
      const c: StoredConnection = { ...before, status: "syncing", attemptedAt: yield* nowIso }
      yield* repo.putConnection(c)
      const pulled = yield* Effect.result(pull(c))
      const now = yield* nowIso
      if (pulled._tag === "Failure") {
        const failed: StoredConnection = { ...c, status: "failed", failureMessage: pulled.failure.message, failureReason: reasonOf(pulled.failure) }
        yield* repo.putConnection(failed)
        return failed
      }
      const filter = c.filter?.trim().toLowerCase() ?? ""
      const kept = filter === "" ? pulled.success : pulled.success.filter((p) => `${p.title} ${p.body}`.toLowerCase().includes(filter))
      const known = new Map((yield* repo.records(c.siteId)).filter((r) => r.connectionId === c.id).map((r) => [r.externalId, r]))
      const rows = yield* Effect.forEach(kept, (p) =>
        Effect.map(ids.make, (newId): StoredRecord => {
          const before = known.get(p.externalId)
          const changed = before === undefined || before.title !== p.title || before.body !== p.body
          return {
            id: before?.id ?? newId,
            organizationId: c.organizationId,
            siteId: c.siteId,
            connectionId: c.id,
            connector: c.setup.connector,
            externalId: p.externalId,
            origin: c.setup.connector === "builtin:website" ? "website" : "issue",
            type: p.type,
            title: p.title,
            body: p.body,
            url: p.url,
            metadata: {},
            questionId: null,
            topics: before?.topics ?? [],
            createdAt: before?.createdAt ?? p.createdAt ?? now,
            updatedAt: now,
            processedAt: changed ? null : before?.processedAt ?? null
          }
        }))
      yield* repo.putRecords(rows)
      const synced: StoredConnection = { ...c, status: "succeeded", failureMessage: null, failureReason: null, syncedAt: now }
      yield* repo.putConnection(synced)
      return synced
    })
  return { pull, syncOne }
}

export class SiteContextConnections extends Context.Service<SiteContextConnections, SiteContextConnectionsShape>()("@quire/sites/SiteContextConnections") {
  static readonly layer = Layer.effect(
    SiteContextConnections,
    Effect.gen(function*() {
      const repo = yield* SiteContextRepo
      const outbound = yield* OutboundFetch
      const ids = yield* Ids.Ids
      const key = yield* Sealed.keyFor(tokenPurpose)
      const guard = yield* SiteGuard.make
      const readable = insightsReader(guard)
      const editable = (organizationId: string, siteId: string) => guard.editor(organizationId, siteId, "change the site's connections")
      const nowIso = Effect.map(Clock.currentTimeMillis, (n) => new Date(n).toISOString())

      const view = (c: StoredConnection) =>
        Effect.map(repo.records(c.siteId), (records): ConnectionView => {
          const { attemptedAt: _a, organizationId: _o, setup, siteId: _s, ...rest } = c
          return {
            ...rest,
            connector: setup.connector,
            setupSettings: setup.connector === "builtin:website"
              ? { url: setup.url }
              // GitBook's shape has the token; it stays sealed here, shown as a mask.
              : { repository: setup.repository, token: maskedToken, ...(setup.apiUrl === null ? {} : { apiUrl: setup.apiUrl }) },
            records: records.filter((r) => r.connectionId === c.id).length
          }
        })

      const found = (siteId: string, id: string) =>
        Effect.flatMap(repo.connection(siteId, id), Option.match({
          onNone: () => Effect.fail(new Errors.NotFound({ resource: "Context connection", id })),
          onSome: Effect.succeed
        }))

      const { pull, syncOne } = sources({ repo, outbound, ids, key, nowIso })
      const interval = yield* Config.Int("QUIRE_CONTEXT_SYNC_MINUTES").pipe(Config.withDefault(360), Effect.orDie)

      return SiteContextConnections.of({
        list: Effect.fn("SiteContextConnections.list")(function*(organizationId, siteId, request) {
          yield* readable(organizationId, siteId)
          const after = yield* Pagination.afterOf(request, ["string", "string"])
          const page = yield* Pagination.paginateArray(yield* repo.connections(siteId), (c) => [c.createdAt, c.id], { order: "asc", after, limit: Pagination.limitOf(request) })
          return { ...page, items: yield* Effect.forEach(page.items, view) }
        }),
        get: Effect.fn("SiteContextConnections.get")(function*(organizationId, siteId, id) {
          yield* readable(organizationId, siteId)
          return yield* view(yield* found(siteId, id))
        }),
        create: Effect.fn("SiteContextConnections.create")(function*(organizationId, siteId, input) {
          yield* editable(organizationId, siteId)
          if ((yield* repo.connections(siteId)).length >= 50) return yield* new Errors.InvalidInput({ field: "connector", reason: "a site has at most 50 connections" })
          const connection: StoredConnection = {
            id: yield* ids.make,
            organizationId,
            siteId,
            setup: input.connector === "builtin:website"
              ? { connector: "builtin:website", url: input.setupSettings.url }
              : {
                connector: "builtin:github-issues",
                repository: input.setupSettings.repository,
                sealedToken: Sealed.seal(key, input.setupSettings.token),
                apiUrl: input.setupSettings.apiUrl?.replace(/\/+$/, "") ?? null
              },
            label: null,
            filter: input.filter ?? null,
            usage: input.usageSettings ?? { changeRequests: true, search: false, searchBoost: "x1.0" },
            status: "pending",
            failureMessage: null,
            failureReason: null,
            syncedAt: null,
            createdAt: yield* nowIso
          }
          yield* repo.putConnection(connection)
          return yield* view(connection)
        }),
        update: Effect.fn("SiteContextConnections.update")(function*(organizationId, siteId, id, input) {
          yield* editable(organizationId, siteId)
          const before = yield* found(siteId, id)
          const after: StoredConnection = {
            ...before,
            ...(input.usageSettings === undefined ? {} : { usage: input.usageSettings }),
            ...(input.label === undefined ? {} : { label: input.label === "" ? null : input.label }),
            ...(input.filter === undefined ? {} : { filter: input.filter === "" ? null : input.filter })
          }
          yield* repo.putConnection(after)
          return yield* view(after)
        }),
        remove: Effect.fn("SiteContextConnections.remove")(function*(organizationId, siteId, id) {
          yield* editable(organizationId, siteId)
          yield* found(siteId, id)
          yield* repo.removeConnection(siteId, id)
        }),
        sync: Effect.fn("SiteContextConnections.sync")(function*(organizationId, siteId, id) {
          yield* editable(organizationId, siteId)
          const before = yield* found(siteId, id)
          return yield* view(yield* syncOne(before))
        }),
        test: Effect.fn("SiteContextConnections.test")(function*(organizationId, siteId, id) {
          yield* editable(organizationId, siteId)
          const c = yield* found(siteId, id)
          const pulled = yield* Effect.result(pull(c.setup.connector === "builtin:website" ? c : c))
          return pulled._tag === "Success" ? { success: true, error: undefined } : { success: false, error: pulled.failure.message }
        }),
        syncDue: Effect.gen(function*() {
          if (interval <= 0) return 0
          const now = yield* Clock.currentTimeMillis
          const due = yield* repo.dueConnections(new Date(now - interval * 60_000).toISOString(), maxScheduledSyncs)
          // One after another: each source is asked once, and nothing waits on a slow one but the schedule.
          yield* Effect.forEach(due, (c) =>
            Effect.flatMap(syncOne(c), (synced) =>
              synced.status === "failed" ? Effect.logWarning(`The context connection ${c.id} of site ${c.siteId} failed to sync: ${synced.failureMessage ?? ""}`) : Effect.void), { discard: true })
          return due.length
        }).pipe(Effect.withSpan("SiteContextConnections.syncDue"))
      })
    })
  )
}
