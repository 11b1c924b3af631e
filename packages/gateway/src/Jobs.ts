/** Background jobs of the gateway package. */
import { Effect, Schema } from "effect"
import { define } from "@quire/queue"
import { Idempotency } from "./Idempotency.ts"
import { RateLimiter } from "./RateLimiter.ts"

/** Hourly: idempotency records older than 24 hours and budgets of ended windows are deleted. */
export const purgeExpired = define("gateway.purgeExpired", {
  payload: Schema.Struct({}),
  schedule: { every: "1 hour" },
  handler: () =>
    Effect.gen(function*() {
      const records = yield* Effect.flatMap(Effect.service(Idempotency), (idempotency) => idempotency.purgeExpired)
      const budgets = yield* Effect.flatMap(Effect.service(RateLimiter), (limiter) => limiter.purgeExpired)
      if (records + budgets > 0) yield* Effect.logInfo(`Purged ${records} idempotency records and ${budgets} rate-limit budgets`)
    })
})

export const jobs = [purgeExpired] as const
