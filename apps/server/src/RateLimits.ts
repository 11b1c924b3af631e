/**
 * Rate limits on the API (`/v1/...`): each request costs its caller's budget, the caller being
 * its bearer token or, without one, its address. Every answer carries GitBook's
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds); past the
 * budget the answer is 429 with `Retry-After` (seconds) and the error envelope. A token that is
 * refused (401) also spends its address's budget of refused tokens, and an address that has spent
 * it is refused every bearer request for the rest of the window: made-up tokens are not a way
 * around the address's budget.
 */
import { Config, Context, Effect, Option } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type Budget, type Decision, RateLimiter } from "@quire/gateway"
import { hashSecret } from "@quire/identity"
import { InsightsBeacon } from "@quire/sites"
import { envelope } from "./ErrorEnvelope.ts"

const bearerToken = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  request.headers["authorization"]?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]

/**
 * `QUIRE_TRUST_PROXY`: the server is reached through one reverse proxy, whose `X-Forwarded-For`
 * names the client (its last entry, the one the proxy appended: earlier ones are the client's say).
 */
export const TrustProxy = Config.Boolean("QUIRE_TRUST_PROXY").pipe(Config.withDefault(false))

/** The client's address from Node's request: the connection's, or the one the trusted proxy saw. */
export const addressOfSocket = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  remoteAddress: string | undefined,
  trustProxy: boolean
): string => {
  const header = headers["x-forwarded-for"]
  const forwarded = trustProxy && typeof header === "string" ? header.split(",").at(-1)?.trim() : undefined
  return forwarded !== undefined && forwarded !== "" ? forwarded : remoteAddress ?? "unknown"
}

/** The client's address: the connection's, or the one the trusted proxy saw. */
export const addressOf = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string =>
  addressOfSocket(request.headers, Option.getOrUndefined(request.remoteAddress), trustProxy)

/**
 * The budget a request draws on: its token's (hashed as authentication hashes it: keys are
 * stored) or its address's.
 */
export const callerKey = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  const token = bearerToken(request)
  if (token !== undefined) return `token:${hashSecret(token)}`
  return `address:${addressOf(request, trustProxy)}`
}

const headersOf = (decision: Decision) => ({
  "x-ratelimit-limit": String(decision.limit),
  "x-ratelimit-remaining": String(decision.remaining),
  "x-ratelimit-reset": String(Math.ceil((Date.now() + decision.resetMs) / 1000))
})

/** The message and headers of a 429 for `decision`. */
export const refusalOf = (decision: Decision, message: string) => {
  const retryAfter = Math.max(1, Math.ceil(decision.resetMs / 1000))
  return { message: `${message}; retry in ${retryAfter} seconds`, headers: { ...headersOf(decision), "retry-after": String(retryAfter) } }
}

const tooMany = (decision: Decision, message: string) => {
  const refusal = refusalOf(decision, message)
  return HttpServerResponse.setHeaders(envelope(429, refusal.message), refusal.headers)
}

/** A global router middleware: API requests past their caller's budget are answered 429. */
export const layer = HttpRouter.middleware(
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const trustProxy = yield* Effect.orDie(TrustProxy)
    return (httpEffect) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        if (!limiter.enabled || !request.url.startsWith("/v1/")) return httpEffect
        const caller = callerKey(request, trustProxy)
        const refusedTokens = caller.startsWith("token:") ? `refused-tokens:${addressOf(request, trustProxy)}` : undefined
        const admit = Effect.flatMap(limiter.consume(caller), (decision) => {
          // A pre-response handler sees the final answer, the error envelope's included.
          HttpEffect.appendPreResponseHandlerUnsafe(fiber.context, (_, response) =>
            Effect.as(
              refusedTokens !== undefined && response.status === 401 ? limiter.consume(refusedTokens) : Effect.void,
              HttpServerResponse.setHeaders(response, headersOf(decision))
            ))
          return decision.allowed ? httpEffect : Effect.succeed(tooMany(decision, `Too many requests: at most ${decision.limit} in this window`))
        })
        if (refusedTokens === undefined) return admit
        return Effect.flatMap(limiter.peek(refusedTokens), (state) =>
          state.allowed ? admit : Effect.succeed(tooMany(state, "Too many requests with tokens that are not valid from this address")))
      })
  }),
  { global: true }
)

/**
 * Budgets of a published site's readers (docs/sites.md, "Limits"), each counted per visitor (its
 * address, or its token on the API) and per site, every `QUIRE_SITE_LIMIT_WINDOW` seconds: Ask's
 * questions (`~ask`, the site MCP's `askQuestion`, `streamAskInSite`), insights events, and
 * feedback (readers' page ratings and agents' `sendFeedback`). 0 turns a budget off.
 */
export const SiteLimitSettings = Config.all({
  windowSeconds: Config.Int("QUIRE_SITE_LIMIT_WINDOW").pipe(Config.withDefault(60)),
  askPerVisitor: Config.Int("QUIRE_ASK_LIMIT").pipe(Config.withDefault(10)),
  askPerSite: Config.Int("QUIRE_ASK_SITE_LIMIT").pipe(Config.withDefault(100)),
  eventsPerVisitor: Config.Int("QUIRE_INSIGHTS_LIMIT").pipe(Config.withDefault(300)),
  eventsPerSite: Config.Int("QUIRE_INSIGHTS_SITE_LIMIT").pipe(Config.withDefault(30_000)),
  feedbackPerVisitor: Config.Int("QUIRE_FEEDBACK_LIMIT").pipe(Config.withDefault(10)),
  feedbackPerSite: Config.Int("QUIRE_FEEDBACK_SITE_LIMIT").pipe(Config.withDefault(1_000))
})

/** What a site's readers spend: a question, insights events, feedback. */
export type SiteSpending = "ask" | "events" | "feedback"

/** A refusal for spending past a budget: what the 429 says, and the decision its headers tell. */
export interface SiteRefusal {
  readonly decision: Decision
  readonly message: string
}

/**
 * The visitor an in-process request is made for (the site MCP reads the site through its own
 * routes): its address, so that its questions draw on the agent's budget, not on one of the server's.
 */
export const DispatchedVisitor = Context.Reference<string | undefined>("@quire/server/RateLimits/DispatchedVisitor", {
  defaultValue: () => undefined
})

/** The visitor of a site's request: the one an in-process request is made for, or the client's address. */
export const siteVisitorOf = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean) =>
  Effect.map(Effect.service(DispatchedVisitor), (dispatched) => dispatched ?? `address:${addressOf(request, trustProxy)}`)

/**
 * Spends a site's budgets over the server's one RateLimiter: `spend(kind, siteId, visitor, cost)`
 * answers the refusal when the visitor's budget or the site's is spent, or nothing.
 */
export const siteLimits = Effect.gen(function*() {
  const limiter = yield* RateLimiter
  const settings = yield* Effect.orDie(SiteLimitSettings)
  const budget = (name: string, limit: number): Budget => ({ name, limit, windowSeconds: settings.windowSeconds })
  const budgets: Record<SiteSpending, { readonly visitor: Budget; readonly site: Budget; readonly what: string }> = {
    ask: { visitor: budget("site-ask", settings.askPerVisitor), site: budget("site-ask-all", settings.askPerSite), what: "questions" },
    events: { visitor: budget("site-events", settings.eventsPerVisitor), site: budget("site-events-all", settings.eventsPerSite), what: "insights events" },
    feedback: { visitor: budget("site-feedback", settings.feedbackPerVisitor), site: budget("site-feedback-all", settings.feedbackPerSite), what: "feedback" }
  }
  const spend = (kind: SiteSpending, siteId: string, visitor: string, cost = 1): Effect.Effect<SiteRefusal | undefined> =>
    Effect.gen(function*() {
      if (cost <= 0) return undefined
      const { visitor: own, site, what } = budgets[kind]
      // The visitor's first: one visitor past its budget does not spend the site's for everyone.
      const mine = yield* limiter.consume(`${siteId}|${visitor}`, own, cost)
      if (!mine.allowed) return { decision: mine, message: `Too many ${what} from you on this site: at most ${mine.limit} in ${settings.windowSeconds} seconds` }
      const all = yield* limiter.consume(siteId, site, cost)
      if (!all.allowed) return { decision: all, message: `Too many ${what} on this site: at most ${all.limit} in ${settings.windowSeconds} seconds` }
      return undefined
    })
  /** Spends a batch of insights events: its feedback from the feedback budgets, the rest from the events'. */
  const spendEvents = (siteId: string, visitor: string, events: ReadonlyArray<{ readonly type: string }>) =>
    Effect.gen(function*() {
      const feedback = events.filter(InsightsBeacon.isFeedback).length
      return (yield* spend("feedback", siteId, visitor, feedback)) ?? (yield* spend("events", siteId, visitor, events.length - feedback))
    })
  return { spend, spendEvents }
})

/** The 429 of a refusal, with the error envelope, `Retry-After` and the budget's headers. */
export const siteRefused = (refusal: SiteRefusal) => tooMany(refusal.decision, refusal.message)
