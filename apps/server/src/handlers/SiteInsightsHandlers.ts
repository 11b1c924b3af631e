/** Handlers of the site insights and agent feedback groups: events recorded, aggregated, segments, agent feedback. */
import { Clock, Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type SiteInsightsEvent } from "@quire/api"
import { Actor, Errors } from "@quire/kernel"
import { SiteInsights, type TrackedEvent } from "@quire/sites"
import { isAnonymous } from "../AuthenticationLive.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { addressOf, callerKey, siteLimits, siteRefused, TrustProxy } from "../RateLimits.ts"

/** How far an event's `timestamp` may be from now, as GitBook allows. */
const timestampWindowMillis = 5 * 60 * 1000

/** GitBook's event as the insights keep it: the session's identifying fields left out, the type's own fields in `data`. */
export const trackedOf = (event: SiteInsightsEvent): TrackedEvent => {
  const { type, session, location, timestamp, ...data } = event
  return {
    type,
    timestamp,
    location,
    language: session.language,
    referrer: session.referrer,
    data
  }
}

export const layer = HttpApiBuilder.group(Api, "siteInsights", Effect.fn(function*(handlers) {
  const insights = yield* SiteInsights
  const trustProxy = yield* Effect.orDie(TrustProxy)
  const limits = yield* siteLimits
  return handlers
    .handle("trackEventsInSiteById", ({ params, payload }) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        for (const [index, event] of payload.events.entries()) {
          if (event.timestamp === undefined) continue
          const at = Date.parse(event.timestamp)
          if (Number.isNaN(at) || Math.abs(at - now) > timestampWindowMillis) {
            return yield* new Errors.InvalidInput({ field: `events.${index}.timestamp`, reason: "must be a date-time within 5 minutes of now" })
          }
        }
        const request = yield* HttpServerRequest.HttpServerRequest
        // The caller spends its budget and the site's (docs/insights.md, "Limits"), whatever session it names.
        const refusal = yield* limits.spendEvents(params.siteId, callerKey(request, trustProxy), payload.events)
        if (refusal !== undefined) return siteRefused(refusal)
        // One sender per batch, as GitBook's renderer sends: its first event's session names it.
        const session = payload.events[0]?.session
        // Without a token (GitBook's renderer posts from its visitors' browsers), only a site open to everyone takes them.
        const track = isAnonymous(yield* Actor.Actor) ? insights.trackAnonymous : insights.track
        yield* track(params.organizationId, params.siteId, payload.events.map(trackedOf), {
          visitorId: session?.visitorId,
          address: session?.ip ?? addressOf(request, trustProxy),
          userAgent: session?.userAgent ?? request.headers["user-agent"]
        })
      }).pipe(DomainErrors.api))
    .handle("aggregateSiteEvents", ({ params, payload }) =>
      insights.aggregate(params.organizationId, params.siteId, payload).pipe(DomainErrors.api))
    .handle("listSiteAgentFeedback", ({ params }) =>
      insights.agentFeedback(params.organizationId, params.siteId).pipe(
        Effect.map((items) => ({ items, count: items.length })),
        DomainErrors.api
      ))
    .handle("listSiteVisitorSegments", ({ params }) =>
      insights.segments(params.organizationId, params.siteId).pipe(
        Effect.map((items) => ({ items, count: items.length })),
        DomainErrors.api
      ))
}))

export const agentFeedbackLayer = HttpApiBuilder.group(Api, "siteAgentFeedback", Effect.fn(function*(handlers) {
  const insights = yield* SiteInsights
  const trustProxy = yield* Effect.orDie(TrustProxy)
  const limits = yield* siteLimits
  return handlers.handle("submitAgentFeedbackToSite", ({ params, payload }) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const refusal = yield* limits.spend("feedback", params.siteId, callerKey(request, trustProxy))
      if (refusal !== undefined) return siteRefused(refusal)
      return yield* insights.submitAgentFeedback(params.organizationId, params.siteId, payload)
    }).pipe(DomainErrors.api))
    .handle("submitSiteAgentFeedback", ({ params, payload }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const refusal = yield* limits.spend("feedback", params.siteId, callerKey(request, trustProxy))
        if (refusal !== undefined) return siteRefused(refusal)
        // GitBook's own mapping: the same feedback as a documentation subject; a summary is 256 characters, the rest its detail.
        const summary = payload.feedback.length > 256 ? `${payload.feedback.slice(0, 255)}…` : payload.feedback
        yield* insights.submitAgentFeedback(params.organizationId, params.siteId, {
          subject: { kind: "documentation", url: payload.url },
          feedback: {
            category: "documentation",
            summary,
            ...(payload.feedback.length > 256 ? { detail: payload.feedback } : {}),
            ...(payload.goal === undefined ? {} : { goal: payload.goal })
          }
        }, { spaceId: payload.spaceId, pageId: payload.pageId, source: payload.source })
        return "submitted" as const
      }).pipe(DomainErrors.api))
}))
