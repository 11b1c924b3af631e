/**
 * The secret that keys the instance's signatures (download links, cursors, sign-in sessions,
 * visitor claims): `QUIRE_SECRET`, else the one the server keeps in its data directory
 * (`StoredSecret`, provided by `@quire/platform`'s `SecretFile`), else none: each user of it then
 * draws a random key for the process.
 */
import { Config, Context, Effect, Option } from "effect"
import type { Redacted } from "effect"

/** The secret stored with the instance, when the process has one; none by default (tests, memory). */
export const StoredSecret = Context.Reference<Option.Option<Redacted.Redacted<string>>>(
  "@quire/kernel/InstanceSecret/StoredSecret",
  { defaultValue: Option.none }
)

/** `QUIRE_SECRET` if set, else the stored secret, else none. */
export const configured: Effect.Effect<Option.Option<Redacted.Redacted<string>>, Config.ConfigError> = Effect.gen(function*() {
  const fromEnvironment = yield* Config.option(Config.Redacted("QUIRE_SECRET"))
  return Option.isSome(fromEnvironment) ? fromEnvironment : yield* StoredSecret
})
