/**
 * The key that signs list cursors (kernel `Pagination`): derived from the instance secret, so cursors
 * outlive the process and work on every replica; without that setting, random per process.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import * as InstanceSecret from "@quire/kernel/InstanceSecret"
import { Pagination } from "@quire/kernel"

export const layer = Layer.effectDiscard(
  Effect.gen(function*() {
    const configured = yield* InstanceSecret.configured
    if (Option.isSome(configured)) Pagination.useSecret(Redacted.value(configured.value))
  }).pipe(Effect.orDie)
)
