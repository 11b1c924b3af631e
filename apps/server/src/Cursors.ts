/**
 * The key that signs list cursors (kernel `Pagination`): derived from `QUIRE_SECRET`, so cursors
 * outlive the process and work on every replica; without that setting, random per process.
 */
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { Pagination } from "@quire/kernel"

export const layer = Layer.effectDiscard(
  Effect.gen(function*() {
    const configured = yield* Config.option(Config.Redacted("QUIRE_SECRET"))
    if (Option.isSome(configured)) Pagination.useSecret(Redacted.value(configured.value))
  }).pipe(Effect.orDie)
)
