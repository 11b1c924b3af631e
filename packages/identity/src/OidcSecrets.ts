/**
 * Seals OIDC client secrets at rest (kernel's `Sealed`): under the instance secret when there is
 * one, else under the installation's stored SAML SP key (identity's own storage, shared by every
 * replica), so that a restart still opens what was sealed.
 */
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { generateKeyPairSync } from "node:crypto"
import { InstanceSecret, Sealed } from "@quire/kernel"
import { SamlSignInRepo } from "./SamlSignInRepo.ts"

export interface OidcSecretsShape {
  readonly seal: (plain: string) => Effect.Effect<string>
  /** The secret, or none when it was sealed under another key (the instance secret changed). */
  readonly open: (sealed: string) => Effect.Effect<Option.Option<string>>
}

export class OidcSecrets extends Context.Service<OidcSecrets, OidcSecretsShape>()("@quire/identity/OidcSecrets") {
  static readonly layer = Layer.effect(
    OidcSecrets,
    Effect.gen(function*() {
      const store = yield* SamlSignInRepo
      const key = yield* Effect.cached(Effect.gen(function*() {
        const configured = yield* Effect.orDie(InstanceSecret.configured)
        const secret = Option.isSome(configured)
          ? Redacted.value(configured.value)
          : yield* store.spKey(generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString())
        return Sealed.deriveKey(secret, "quire/identity", "quire/identity/oidc-client-secret/v1")
      }))
      return OidcSecrets.of({
        seal: (plain) => Effect.map(key, (k) => Sealed.seal(k, plain)),
        open: (sealed) => Effect.map(key, (k) => Sealed.open(k, sealed))
      })
    })
  )
}
