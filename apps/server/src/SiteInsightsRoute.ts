/**
 * `~insights`: where a published page's own insights script posts its events (under
 * `/~sites/<id>/` or on the site's hostname). The reader must be admitted to the site as for its
 * pages; the events are queued on the site's recorder and the answer (204) never waits on the
 * database. A site that records no views takes only page feedback, and one that asks for neither
 * takes nothing. Events spend their sender's budget and the site's (RateLimits' site budgets):
 * past either, the post is answered 429 and nothing of it is recorded.
 *
 * A public or unlisted site admits every anonymous sender alike, so once the normal path has
 * answered one of its beacons, the next ones are answered before the application (FastPages'
 * `putPost`): the same reading of the body, the same recording, the same answers, while nothing
 * the decision was made under has changed.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Cause, Effect, Exit, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { SignInSessions } from "@quire/identity"
import {
  Audience,
  type EventOrigin,
  InsightsBeacon,
  type PublishedSite,
  PublishedSites,
  SiteChanges,
  SiteInsights,
  type TrackedEvent,
  VisitorToken
} from "@quire/sites"
import { describeIssue, envelope, issueField } from "./ErrorEnvelope.ts"
import { FastPages, keyOf } from "./FastPages.ts"
import { hostOf } from "./PublishedSiteRoutes.ts"
import { addressOf, addressOfSocket, refusalOf, type SiteRefusal, siteLimits, siteRefused, TrustProxy } from "./RateLimits.ts"
import { siteAnswerHeaders } from "./SecurityHeaders.ts"
import * as SessionCookie from "./SessionCookie.ts"

export const insightsSuffix = "~insights"

/** The most a script's post may weigh (characters). */
const maxBody = 32 * 1024

const decodeBody = Schema.decodeUnknownExit(InsightsBeacon.BeaconBody)

const noStore = { "cache-control": "no-store" }

const accepted = () => HttpServerResponse.empty({ status: 204, headers: noStore })

const languageOf = InsightsBeacon.languageOf

type Read =
  | { readonly kind: "refused"; readonly status: number; readonly message: string; readonly field?: string | undefined }
  | { readonly kind: "events"; readonly events: ReadonlyArray<TrackedEvent> }

/** A post's body as events the site takes (views, feedback, or both), or the refusal both paths answer. */
const readBody = (text: string, take: { readonly views: boolean; readonly feedback: boolean }, acceptLanguage: string | undefined): Read => {
  if (text.length > maxBody) return { kind: "refused", status: 413, message: "The events are too large" }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { kind: "refused", status: 400, message: "The body must be JSON: {\"events\": [...]}", field: "events" }
  }
  const decoded = decodeBody(parsed)
  if (Exit.isFailure(decoded)) {
    const squashed = Cause.squash(decoded.cause)
    const message = squashed instanceof Error ? squashed.message : String(squashed)
    return { kind: "refused", status: 400, message: describeIssue(message), field: issueField(message) ?? "events" }
  }
  const language = languageOf(acceptLanguage)
  return {
    kind: "events",
    events: decoded.value.events
      .filter((event) => (InsightsBeacon.isFeedback(event) ? take.feedback : take.views))
      .map((event) => InsightsBeacon.trackedOfBeacon(event, language))
  }
}

/** The bytes past which a body cannot be `maxBody` characters (UTF-8 spends at most 3 bytes on one). */
const maxBodyBytes = 3 * maxBody

/**
 * The answer to the next anonymous beacons of an open site, in Node's request event: reads the
 * body as the normal path does, records through `record`, and answers with the headers the
 * application would send (SecurityHeaders' for a site's non-API answer).
 */
const fastAnswer = (
  take: { readonly views: boolean; readonly feedback: boolean },
  record: (events: ReadonlyArray<TrackedEvent>, origin: EventOrigin) => Promise<SiteRefusal | undefined>,
  trustProxy: boolean
) =>
(request: IncomingMessage, response: ServerResponse): void => {
  const send = (status: number, body?: string, headers: Readonly<Record<string, string>> = {}) => {
    if (response.headersSent) return
    const length = body === undefined ? {} : { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }
    response.writeHead(status, { ...siteAnswerHeaders, ...headers, ...length })
    response.end(body)
  }
  const refuse = (status: number, message: string, field?: string) =>
    send(status, JSON.stringify({ error: field === undefined ? { code: status, message } : { code: status, message, field } }))
  const chunks: Array<Buffer> = []
  let bytes = 0
  request.on("data", (chunk: Buffer) => {
    bytes += chunk.length
    if (bytes <= maxBodyBytes) chunks.push(chunk)
  })
  request.on("error", () => response.destroy())
  request.on("end", () => {
    if (bytes > maxBodyBytes) return refuse(413, "The events are too large")
    const read = readBody(Buffer.concat(chunks).toString("utf8"), take, request.headers["accept-language"])
    if (read.kind === "refused") return refuse(read.status, read.message, read.field)
    if (read.events.length === 0) return send(204, undefined, noStore)
    const origin = { address: addressOfSocket(request.headers, request.socket?.remoteAddress, trustProxy), userAgent: request.headers["user-agent"] }
    record(read.events, origin).then(
      (refusal) => {
        if (refusal === undefined) return send(204, undefined, noStore)
        const { message, headers } = refusalOf(refusal.decision, refusal.message)
        send(429, JSON.stringify({ error: { code: 429, message } }), { ...noStore, ...headers })
      },
      () => refuse(500, "Internal server error")
    )
  })
}

/**
 * Records the events a page of `found` (at `root`) posted; `current` says whether what the site
 * was read under still holds (SiteChanges), for keeping the answer to the next beacons.
 */
export const serveInsights = Effect.fnUntraced(function*(found: Option.Option<PublishedSite>, root: string, current: () => boolean) {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (Option.isNone(found)) return envelope(404, "Not found")
  const site = found.value
  const customization = site.customization
  const take = InsightsBeacon.recordedBy(customization)
  if (!take.views && !take.feedback) return envelope(404, "This site records no insights")
  const text = yield* Effect.orElseSucceed(request.text, () => "")
  const read = readBody(text, take, request.headers["accept-language"])
  if (read.kind === "refused") return envelope(read.status, read.message, read.field)
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
  const insights = yield* SiteInsights
  const trustProxy = yield* Effect.orDie(TrustProxy)
  const limits = yield* siteLimits
  const where = { organizationId: site.site.organizationId, siteId: site.site.id }
  /** Records `events` from `origin` unless they are past its budget or the site's: the refusal then. */
  const record = (events: ReadonlyArray<TrackedEvent>, origin: EventOrigin) =>
    Effect.gen(function*() {
      const refusal = yield* limits.spendEvents(where.siteId, `address:${origin.address}`, events)
      if (refusal === undefined) yield* insights.recordPublished(where, events, origin)
      return refusal
    })
  if (read.events.length > 0) {
    const refusal = yield* record(read.events, { address: addressOf(request, trustProxy), userAgent: request.headers["user-agent"] })
    if (refusal !== undefined) return HttpServerResponse.setHeaders(siteRefused(refusal), noStore)
  }
  // Every anonymous sender to an open, published site is admitted alike: the next beacons need
  // neither the application nor this decision.
  if (decision.via === "open") {
    const services = yield* Effect.context<never>()
    const recordFast = (events: ReadonlyArray<TrackedEvent>, origin: EventOrigin) => Effect.runPromiseWith(services)(record(events, origin))
    const fastPages = yield* FastPages
    yield* fastPages.putPost(
      keyOf(request.headers["host"], request.headers["x-forwarded-proto"], request.url),
      { answer: fastAnswer(take, recordFast, trustProxy) },
      current
    )
  }
  return accepted()
})

/** `POST /~insights` on a site's own hostname (the `/~sites/<id>/` one is dispatched by SiteMcpRoute's POST route). */
export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const published = yield* PublishedSites
  const insights = yield* SiteInsights
  const sessions = yield* SignInSessions
  const changes = yield* SiteChanges
  const fastPages = yield* FastPages
  yield* router.add("POST", `/${insightsSuffix}`, Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const host = hostOf(request)
    if (host === undefined) return envelope(404, "Not found")
    const proto = request.headers["x-forwarded-proto"]?.split(",")[0]?.trim() === "https" ? "https" : "http"
    const stamp = changes.stamp()
    return yield* serveInsights(yield* published.byHostname(host), `${proto}://${host}/`, () => changes.stamp() === stamp)
  }).pipe(
    Effect.provideService(PublishedSites, published),
    Effect.provideService(SiteInsights, insights),
    Effect.provideService(SignInSessions, sessions),
    Effect.provideService(FastPages, fastPages)
  ))
}))
