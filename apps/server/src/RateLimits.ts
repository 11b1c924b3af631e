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
import { type Decision, RateLimiter } from "@quire/gateway"
import { hashSecret } from "@quire/identity"
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

const tooMany = (decision: Decision, message: string) => {
  const retryAfter = Math.max(1, Math.ceil(decision.resetMs / 1000))
  return HttpServerResponse.setHeaders(envelope(429, `${message}; retry in ${retryAfter} seconds`), {
    ...headersOf(decision),
    "retry-after": String(retryAfter)
  })
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
