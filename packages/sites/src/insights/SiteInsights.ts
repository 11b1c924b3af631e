/**
 * A site's insights: events taken from the published site and GitBook's API, with the visitor as a
 * hash salted per day (no cookie, address or user agent kept), queued on the recorder; GitBook's
 * aggregation and visitor segments for members; agent feedback.
 */
import { createHash, randomBytes } from "node:crypto"
import { Clock, Config, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Roles, Sealed } from "@quire/kernel"
import type { AgentFeedbackInput, AgentFeedbackItem, InsightsQuery, InsightsResult, VisitorSegment } from "../domain/InsightsQuery.ts"
import type { DisplayContext, SiteEvent, SiteEventType } from "../domain/SiteEvent.ts"
import { PublishedSites } from "../PublishedSites.ts"
import * as SiteGuard from "../SiteGuard.ts"
import { SiteReaders } from "../SiteReaders.ts"
import { aggregate, invalidField } from "./Aggregate.ts"
import { isFeedback, recordedBy } from "./Recorded.ts"
import { SiteEventRecorder } from "./SiteEventRecorder.ts"
import { SiteEventsRepo } from "./SiteEventsRepo.ts"

/** An event as it arrives, before the visitor is hashed: `data` holds its type's own fields. */
export interface TrackedEvent {
  readonly type: SiteEventType
  readonly timestamp?: string | undefined
  readonly location: {
    readonly url: string
    readonly displayContext?: DisplayContext | undefined
    readonly siteSection?: string | null | undefined
    readonly siteSpace?: string | null | undefined
    readonly siteShareKey?: string | null | undefined
    readonly space?: string | null | undefined
    readonly page?: string | null | undefined
  }
  readonly language?: string | null | undefined
  readonly referrer?: string | null | undefined
  readonly data: Readonly<Record<string, unknown>>
}

/** Who sent events, only ever hashed: an id the sender gives (GitBook's `visitorId`) or the address and user agent. */
export interface EventOrigin {
  readonly visitorId?: string | undefined
  readonly address?: string | undefined
  readonly userAgent?: string | undefined
}

/** How many days a site's events are kept: `QUIRE_INSIGHTS_RETENTION_DAYS`, a year unless set; 0 keeps them for ever. */
export const InsightsRetentionDays = Config.Int("QUIRE_INSIGHTS_RETENTION_DAYS").pipe(Config.withDefault(365))

/** How far back the events a query reads go, and how many it reads at most. */
export const maxEventsRead = 200_000

const dayMillis = 24 * 60 * 60 * 1000
const presets: Readonly<Record<string, number>> = {
  last24Hours: dayMillis,
  last7Days: 7 * dayMillis,
  last30Days: 30 * dayMillis,
  last3Months: 92 * dayMillis,
  lastYear: 366 * dayMillis
}

const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname
  } catch {
    return url.split(/[?#]/)[0] ?? url
  }
}

/** The dates a query's range names. */
const rangeOf = (query: InsightsQuery, now: number) =>
  Effect.gen(function*() {
    if (typeof query.range === "string") return { from: new Date(now - presets[query.range]!), to: new Date(now + 1) }
    const from = Date.parse(query.range.from)
    const to = Date.parse(query.range.to)
    if (Number.isNaN(from)) return yield* new Errors.InvalidInput({ field: "range.from", reason: "must be a date-time" })
    if (Number.isNaN(to)) return yield* new Errors.InvalidInput({ field: "range.to", reason: "must be a date-time" })
    if (to < from) return yield* new Errors.InvalidInput({ field: "range.to", reason: "must not be before range.from" })
    return { from: new Date(from), to: new Date(to) }
  })

/** A member with a role reads a site's insights (its events, its questions); the site's reader token and guests do not. */
export const insightsReader = (guard: SiteGuard.Guard) => (organizationId: string, siteId: string) =>
  Effect.flatMap(guard.site(organizationId, siteId), (access) =>
    Roles.atLeast(access.role, "read")
      ? Effect.succeed(access)
      : Effect.fail(new Errors.Forbidden({ reason: "You need a role in the organization to read a site's insights" })))

const sha = (...parts: ReadonlyArray<string>) => createHash("sha256").update(parts.join("\u0000")).digest("base64url").slice(0, 22)

export interface SiteInsightsShape {
  /** Events sent through GitBook's API by a member or the site's reader token. */
  readonly track: (
    organizationId: string,
    siteId: string,
    events: ReadonlyArray<TrackedEvent>,
    origin: EventOrigin
  ) => Effect.Effect<void, Errors.NotFound, Actor.Actor>
  /**
   * Events sent through GitBook's API without a token, as GitBook's renderer posts them from its
   * visitors' browsers: taken for a published site open to everyone (public or unlisted), and only
   * what it records of an anonymous reader (`InsightsBeacon.recordedBy`), as its own `~insights`
   * takes them. NotFound for any other site: one that admits only some readers takes theirs through
   * their reader token.
   */
  readonly trackAnonymous: (
    organizationId: string,
    siteId: string,
    events: ReadonlyArray<TrackedEvent>,
    origin: EventOrigin
  ) => Effect.Effect<void, Errors.NotFound>
  /** Events of the published site's own script; the serving route has admitted the reader. */
  readonly recordPublished: (site: { readonly organizationId: string; readonly siteId: string }, events: ReadonlyArray<TrackedEvent>, origin: EventOrigin) => Effect.Effect<void>
  /** GitBook's `aggregateSiteEvents`, for members of the site's organization. */
  readonly aggregate: (organizationId: string, siteId: string, query: InsightsQuery) => Effect.Effect<InsightsResult, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  /** GitBook's `listSiteVisitorSegments`: Quire keeps no claims, so one segment, everyone, over the last 30 days. */
  readonly segments: (organizationId: string, siteId: string) => Effect.Effect<ReadonlyArray<VisitorSegment>, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /** GitBook's `submitAgentFeedbackToSite`, by a member or the site's reader token. */
  readonly submitAgentFeedback: (organizationId: string, siteId: string, input: AgentFeedbackInput, about?: FeedbackPage) => Effect.Effect<{ readonly id: string; readonly result: string }, Errors.NotFound, Actor.Actor>
  /** The agents' feedback of the last 30 days, newest first (100 at most), for members with a role. */
  readonly agentFeedback: (organizationId: string, siteId: string) => Effect.Effect<ReadonlyArray<AgentFeedbackItem>, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /** Forgets every site's events older than the retention setting (`QUIRE_INSIGHTS_RETENTION_DAYS`; none when 0); answers how many. */
  readonly purgeExpired: Effect.Effect<number>
  /** Agent feedback from the published site's MCP server (its route admitted the agent). */
  readonly agentFeedbackFromSite: (site: { readonly organizationId: string; readonly siteId: string; readonly url: string }, input: AgentFeedbackInput) => Effect.Effect<{ readonly id: string; readonly result: string }>
}

/** The page an agent's feedback is about (GitBook's older `submitSiteAgentFeedback`), and where the agent ran. */
export interface FeedbackPage {
  readonly spaceId: string
  readonly pageId: string
  readonly source?: "mcp" | "assistant" | undefined
}

const feedbackAnswer = "Thank you: the site's editors will read this feedback on the site's insights."

export class SiteInsights extends Context.Service<SiteInsights, SiteInsightsShape>()("@quire/sites/SiteInsights") {
  static readonly layer = Layer.effect(
    SiteInsights,
    Effect.gen(function*() {
      const repo = yield* SiteEventsRepo
      const recorder = yield* SiteEventRecorder
      const readers = yield* SiteReaders
      const published = yield* PublishedSites
      const ids = yield* Ids.Ids
      const guard = yield* SiteGuard.make
      let salt: { readonly day: string; readonly value: string } | undefined

      /** Today's salt, read from the store once a day (servers share it through the store). */
      const saltOf = (now: number) =>
        Effect.gen(function*() {
          const day = new Date(now).toISOString().slice(0, 10)
          if (salt?.day === day) return salt.value
          const value = yield* repo.saltOf(day, randomBytes(24).toString("base64url"))
          salt = { day, value }
          return value
        })

      const toStored = (site: { readonly organizationId: string; readonly siteId: string }, events: ReadonlyArray<TrackedEvent>, origin: EventOrigin) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const daySalt = yield* saltOf(now)
          const who = origin.visitorId !== undefined && origin.visitorId !== ""
            ? `id:${origin.visitorId}`
            : `net:${origin.address ?? ""}\u0000${origin.userAgent ?? ""}`
          const visitor = sha(daySalt, site.siteId, who)
          return yield* Effect.forEach(events, (event) =>
            Effect.map(ids.make, (id): SiteEvent => {
              const parsed = event.timestamp === undefined ? Number.NaN : Date.parse(event.timestamp)
              const at = Number.isNaN(parsed) ? now : parsed
              return {
                id,
                organizationId: site.organizationId,
                siteId: site.siteId,
                type: event.type,
                at: new Date(at),
                visitor,
                session: sha(daySalt, visitor, String(Math.floor(at / (30 * 60 * 1000)))),
                url: event.location.url,
                urlPath: pathOf(event.location.url),
                displayContext: event.location.displayContext ?? "site",
                siteSection: event.location.siteSection ?? null,
                siteSpace: event.location.siteSpace ?? null,
                // A share key opens the site: kept as the link's stored id (its hash), as share links keep it,
                // so that whoever reads insights learns which link was used, never the key itself.
                siteShareKey: event.location.siteShareKey == null ? null : Sealed.bearerHash(event.location.siteShareKey),
                spaceId: event.location.space ?? null,
                pageId: event.location.page ?? null,
                referrer: event.referrer ?? null,
                language: event.language ?? null,
                data: event.data
              }
            }))
        })

      const recordPublished = (site: { readonly organizationId: string; readonly siteId: string }, events: ReadonlyArray<TrackedEvent>, origin: EventOrigin) =>
        Effect.flatMap(toStored(site, events, origin), recorder.record)

      const readable = insightsReader(guard)

      const storeFeedback = (site: { readonly organizationId: string; readonly siteId: string; readonly url: string }, input: AgentFeedbackInput, about?: FeedbackPage) =>
        Effect.gen(function*() {
          const [event] = yield* toStored(site, [{
            type: "agent_feedback",
            location: {
              url: input.subject.kind === "documentation" ? input.subject.url : site.url,
              // The site's assistant answers on the site; an agent otherwise comes through the MCP server or the API.
              displayContext: about?.source === "assistant" ? "site" : "mcp",
              ...(about === undefined ? {} : { space: about.spaceId, page: about.pageId })
            },
            data: { ...input }
          }], { visitorId: input.reportedBy?.userAgent ?? "agent" })
          yield* repo.append([event!])
          return { id: event!.id, result: feedbackAnswer }
        })

      const purgeExpired = Effect.gen(function*() {
        const days = yield* Effect.orDie(InsightsRetentionDays)
        if (days <= 0) return 0
        // What waits in the buffer is written first, so its old events go too.
        yield* recorder.flush
        return yield* repo.purgeBefore(new Date((yield* Clock.currentTimeMillis) - days * dayMillis))
      })

      const agentFeedback = Effect.fn("SiteInsights.agentFeedback")(function*(organizationId: string, siteId: string) {
        yield* readable(organizationId, siteId)
        const now = yield* Clock.currentTimeMillis
        yield* recorder.flush
        const events = yield* repo.inRange(siteId, new Date(now - presets["last30Days"]!), new Date(now + 1), maxEventsRead)
        return events
          .filter((event) => event.type === "agent_feedback")
          .toSorted((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1))
          .slice(0, 100)
          .map((event): AgentFeedbackItem => ({ ...(event.data as unknown as AgentFeedbackInput), id: event.id, createdAt: event.at.toISOString() }))
      })

      return SiteInsights.of({
        agentFeedback,
        purgeExpired,
        track: (organizationId, siteId, events, origin) =>
          Effect.andThen(readers.reach(organizationId, siteId), recordPublished({ organizationId, siteId }, events, origin)),
        trackAnonymous: Effect.fn("SiteInsights.trackAnonymous")(function*(organizationId, siteId, events, origin) {
          const found = yield* published.byId(siteId)
          const site = Option.getOrUndefined(found)
          const open = site?.site.visibility === "public" || site?.site.visibility === "unlisted"
          if (site === undefined || site.site.organizationId !== organizationId || !open) {
            return yield* new Errors.NotFound({ resource: "Site", id: siteId })
          }
          const take = recordedBy(site.customization)
          const taken = events.filter((event) => (isFeedback(event) ? take.feedback : take.views))
          if (taken.length > 0) yield* recordPublished({ organizationId, siteId }, taken, origin)
        }),
        recordPublished,
        aggregate: Effect.fn("SiteInsights.aggregate")(function*(organizationId, siteId, query) {
          yield* readable(organizationId, siteId)
          const invalid = invalidField(query)
          if (invalid !== undefined) return yield* new Errors.InvalidInput(invalid)
          const { from, to } = yield* rangeOf(query, yield* Clock.currentTimeMillis)
          // What is still queued counts too: a reader's view shows up at once.
          yield* recorder.flush
          return aggregate(yield* repo.inRange(siteId, from, to, maxEventsRead), query)
        }),
        segments: Effect.fn("SiteInsights.segments")(function*(organizationId, siteId) {
          yield* readable(organizationId, siteId)
          const now = yield* Clock.currentTimeMillis
          yield* recorder.flush
          const events = yield* repo.inRange(siteId, new Date(now - presets["last30Days"]!), new Date(now + 1), maxEventsRead)
          if (events.length === 0) return []
          return [{
            title: "All visitors",
            claims: {},
            events: events.length,
            visitors: new Set(events.map((e) => e.visitor)).size,
            sessions: new Set(events.map((e) => e.session)).size
          }]
        }),
        submitAgentFeedback: Effect.fn("SiteInsights.submitAgentFeedback")(function*(organizationId, siteId, input, about) {
          yield* readers.reach(organizationId, siteId)
          return yield* storeFeedback({ organizationId, siteId, url: "" }, input, about)
        }),
        agentFeedbackFromSite: storeFeedback
      })
    })
  )
}
