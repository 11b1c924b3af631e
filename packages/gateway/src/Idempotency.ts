/**
 * Idempotent writes: the first answer to a request with an `Idempotency-Key` is replayed to the
 * same caller sending the same key and request for 24 hours; another request under the same key
 * is a mismatch, and a duplicate that arrives while the first still runs is told so (it does not
 * run). A record left running by a lost process is taken over after 10 minutes.
 */
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { type Claim, IdempotencyRepo, type StoredResponse } from "./IdempotencyRepo.ts"

/** How long a first answer is replayed. */
export const retention = Duration.hours(24)

/** How long a first request may run before its record is taken to be lost. */
export const staleAfter = Duration.minutes(10)

/** The longest key accepted, in characters. */
export const maxKeyLength = 255

export class Idempotency extends Context.Service<Idempotency, {
  /** Claims `key` for `caller`'s request with `fingerprint` (a digest of the request). */
  readonly claim: (caller: string, key: string, fingerprint: string) => Effect.Effect<Claim>
  /** Records the first answer. */
  readonly complete: (caller: string, key: string, fingerprint: string, response: StoredResponse) => Effect.Effect<void>
  /** Frees the key: the first request ended without an answer worth replaying. */
  readonly abandon: (caller: string, key: string, fingerprint: string) => Effect.Effect<void>
  /** Deletes records past their retention; answers how many. */
  readonly purgeExpired: Effect.Effect<number>
}>()("@quire/gateway/Idempotency") {
  /** Over whichever IdempotencyRepo is provided. */
  static readonly layer = Layer.effect(
    Idempotency,
    Effect.gen(function*() {
      const repo = yield* IdempotencyRepo
      return Idempotency.of({
        claim: (caller, key, fingerprint) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            repo.claim(caller, key, fingerprint, {
              now,
              expiredBefore: now - Duration.toMillis(retention),
              staleBefore: now - Duration.toMillis(staleAfter)
            })),
        complete: repo.complete,
        abandon: repo.abandon,
        purgeExpired: Effect.flatMap(Clock.currentTimeMillis, (now) => repo.purge(now - Duration.toMillis(retention)))
      })
    })
  )
}
