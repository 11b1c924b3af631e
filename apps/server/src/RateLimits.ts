/**
 * Rate limits on the API (`/v1/...`): each request costs its caller's budget, the caller being
 * its bearer token or, without one, its address. Every answer carries GitBook's
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds); past the
 * budget the answer is 429 with `Retry-After` (seconds) and the error envelope.
 */
import { Effect, Option } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"
import { RateLimiter } from "@quire/gateway"
import { envelope } from "./ErrorEnvelope.ts"

/** The budget a request draws on: its token's (hashed: keys are stored) or its address's. */
export const callerKey = (request: HttpServerRequest.HttpServerRequest): string => {
  const authorization = request.headers["authorization"]
  const token = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
  if (token !== undefined) return `token:${createHash("sha256").update(token).digest("base64url")}`
  return `address:${Option.getOrElse(request.remoteAddress, () => "unknown")}`
}

/** A global router middleware: API requests past their caller's budget are answered 429. */
export const layer = HttpRouter.middleware(
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    return (httpEffect) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (!limiter.enabled || !request.url.startsWith("/v1/")) return yield* httpEffect
        const decision = yield* limiter.consume(callerKey(request))
        const headers = {
          "x-ratelimit-limit": String(decision.limit),
          "x-ratelimit-remaining": String(decision.remaining),
          "x-ratelimit-reset": String(Math.ceil((Date.now() + decision.resetMs) / 1000))
        }
        // A pre-response handler sees the final answer, the error envelope's included.
        yield* HttpEffect.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))
        if (!decision.allowed) {
          const retryAfter = Math.max(1, Math.ceil(decision.resetMs / 1000))
          return HttpServerResponse.setHeader(
            envelope(429, `Too many requests: at most ${decision.limit} in this window; retry in ${retryAfter} seconds`),
            "retry-after",
            String(retryAfter)
          )
        }
        return yield* httpEffect
      })
  }),
  { global: true }
)
