/**
 * Seals OIDC client secrets at rest (kernel's `Sealed`): under the instance secret when there is
 * one, else, as the other sealed values are, under this process's key (the memory server, tests:
 * what it sealed ends with the process).
 */
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { InstanceSecret, Sealed } from "@quire/kernel"

/** The purpose of the key that seals client secrets. */
const purpose = "quire/identity/oidc-client-secret/v1"

export interface OidcSecretsShape {
  readonly seal: (plain: string) => Effect.Effect<string>
  /** The secret, or none when it was sealed under another key (the instance secret changed). */
  readonly open: (sealed: string) => Effect.Effect<Option.Option<string>>
}

export class OidcSecrets extends Context.Service<OidcSecrets, OidcSecretsShape>()("@quire/identity/OidcSecrets") {
  static readonly layer = Layer.effect(
    OidcSecrets,
    Effect.gen(function*() {
      const configured = yield* Effect.orDie(InstanceSecret.configured)
      const key = Option.isSome(configured)
        ? Sealed.deriveKey(Redacted.value(configured.value), "quire/identity", purpose)
        : yield* Sealed.keyFor(purpose)
      return OidcSecrets.of({
        seal: (plain) => Effect.sync(() => Sealed.seal(key, plain)),
        open: (sealed) => Effect.sync(() => Sealed.open(key, sealed))
      })
    })
  )
}
