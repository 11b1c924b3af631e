/**
 * `~insights`: where a published page's own insights script posts its events (under
 * `/~sites/<id>/` or on the site's hostname). The reader must be admitted to the site as for its
 * pages; the events are queued on the site's recorder and the answer (204) never waits on the
 * database. A site that records no views takes only page feedback, and one that asks for neither
 * takes nothing.
 */
import { Cause, Effect, Exit, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { SignInSessions } from "@quire/identity"
import { Audience, InsightsBeacon, type PublishedSite, PublishedSites, SiteInsights, VisitorToken } from "@quire/sites"
import { describeIssue, envelope, issueField } from "./ErrorEnvelope.ts"
import { hostOf } from "./PublishedSiteRoutes.ts"
import { addressOf, TrustProxy } from "./RateLimits.ts"
import * as SessionCookie from "./SessionCookie.ts"

export const insightsSuffix = "~insights"

/** The most a script's post may weigh. */
const maxBody = 32 * 1024

const decodeBody = Schema.decodeUnknownExit(InsightsBeacon.BeaconBody)

const accepted = () => HttpServerResponse.empty({ status: 204, headers: { "cache-control": "no-store" } })

/** The first language the reader's browser asks for (`en-GB`), nothing else of the header. */
const languageOf = (header: string | undefined): string | null => {
  const first = header?.split(",")[0]?.split(";")[0]?.trim()
  return first === undefined || first === "" || first === "*" || first.length > 35 ? null : first
}

/** Records the events a page of `found` (at `root`) posted. */
export const serveInsights = Effect.fnUntraced(function*(found: Option.Option<PublishedSite>, root: string) {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (Option.isNone(found)) return envelope(404, "Not found")
  const site = found.value
  const customization = site.customization
  const views = customization.insights !== undefined
  const feedback = customization.feedback?.enabled === true
  if (!views && !feedback) return envelope(404, "This site records no insights")
  const text = yield* Effect.orElseSucceed(request.text, () => "")
  if (text.length > maxBody) return envelope(413, "The events are too large")
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return envelope(400, "The body must be JSON: {\"events\": [...]}", "events")
  }
  const decoded = decodeBody(parsed)
  if (Exit.isFailure(decoded)) {
    const squashed = Cause.squash(decoded.cause)
    const message = squashed instanceof Error ? squashed.message : String(squashed)
    return envelope(400, describeIssue(message), issueField(message) ?? "events")
  }
  // Only a reader the site admits counts (its share link or visitor token, or a member). An open
  // site admits everyone: no session is looked up for its beacons.
  const open = site.site.visibility === "public" || site.site.visibility === "unlisted"
  const session = open ? Option.none() : yield* SessionCookie.current
  const member = Option.isSome(session) && (yield* (yield* SignInSessions).isMember(session.value, site.site.organizationId))
  const published = yield* PublishedSites
  const decision = yield* Audience.decide({
    member,
    site: { id: site.site.id, visibility: site.site.visibility, published: site.site.published, visitorKey: site.visitorKey },
    siteUrl: root,
    query: new URLSearchParams(),
    cookies: request.cookies,
    tokenMaxAgeSeconds: yield* Effect.orDie(VisitorToken.MaxAgeSeconds),
    checkShare: (secret) => published.checkShareSecret(site.site.id, secret)
  })
  if (decision.kind === "denied") return accepted()
  const language = languageOf(request.headers["accept-language"])
  const events = decoded.value.events.filter((event) => (InsightsBeacon.isFeedback(event) ? feedback : views))
  if (events.length > 0) {
    const insights = yield* SiteInsights
    yield* insights.recordPublished(
      { organizationId: site.site.organizationId, siteId: site.site.id },
      events.map((event) => InsightsBeacon.trackedOfBeacon(event, language)),
      { address: addressOf(request, yield* Effect.orDie(TrustProxy)), userAgent: request.headers["user-agent"] }
    )
  }
  return accepted()
})

/** `POST /~insights` on a site's own hostname (the `/~sites/<id>/` one is dispatched by SiteMcpRoute's POST route). */
export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const published = yield* PublishedSites
  const insights = yield* SiteInsights
  const sessions = yield* SignInSessions
  yield* router.add("POST", `/${insightsSuffix}`, Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const host = hostOf(request)
    if (host === undefined) return envelope(404, "Not found")
    const proto = request.headers["x-forwarded-proto"]?.split(",")[0]?.trim() === "https" ? "https" : "http"
    return yield* serveInsights(yield* published.byHostname(host), `${proto}://${host}/`)
  }).pipe(
    Effect.provideService(PublishedSites, published),
    Effect.provideService(SiteInsights, insights),
    Effect.provideService(SignInSessions, sessions)
  ))
}))
