/**
 * The installation's SAML SP signing key at rest: sealed (kernel `Sealed`) under a key derived
 * from the instance secret, so that a dump alone signs no AuthnRequest as Quire. Without an
 * instance secret (the memory server, tests) it is sealed under the process's key, as the other
 * sealed values are, and a key that no longer opens (another instance secret) is replaced by a new
 * one. A key stored in clear by an older Quire is still read, and `sealLegacy` seals it
 * once, at start.
 */
import { Effect, Option } from "effect"
import { generateKeyPairSync } from "node:crypto"
import { Sealed } from "@quire/kernel"
import type { SamlSignInRepoShape } from "./SamlSignInRepo.ts"

/** The purpose of the key that seals the SP key. */
export const purpose = "quire/identity/saml-sp-key/v1"

/** A key stored in clear is a PEM; a sealed one has `Sealed`'s form. */
const isClear = (stored: string) => stored.startsWith("-----BEGIN")

/** A fresh SP private key (RSA 2048, PKCS#8 PEM). */
const generate = () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()

export interface SpKeyBox {
  readonly seal: (pem: string) => string
  /** The PEM, or none when it was sealed under another instance secret. */
  readonly open: (stored: string) => Option.Option<string>
}

/** The box under this process's instance secret. */
export const box: Effect.Effect<SpKeyBox> = Effect.map(Sealed.keyFor(purpose), (key) => ({
  seal: (pem) => Sealed.seal(key, pem),
  open: (stored) => isClear(stored) ? Option.some(stored) : Sealed.open(key, stored)
}))

/** Seals the SP key when it is stored in clear. */
export const sealLegacy = (store: SamlSignInRepoShape, keys: SpKeyBox) =>
  Effect.tap(
    store.resealSpKey((stored) => isClear(stored) ? Option.some(keys.seal(stored)) : Option.none()),
    (sealed) => sealed ? Effect.logInfo("SAML: sealed the SP key stored in clear") : Effect.void
  )

/**
 * The SP key (PEM): the stored one, else a new one (stored sealed). One sealed under another
 * instance secret is replaced, once, by a new one: the identity providers that check Quire's
 * signatures then need its metadata again.
 */
export const load = (store: SamlSignInRepoShape, keys: SpKeyBox) =>
  Effect.gen(function*() {
    const stored = yield* store.spKey(keys.seal(generate()))
    const opened = keys.open(stored)
    if (Option.isSome(opened)) return opened.value
    const fresh = generate()
    yield* store.resealSpKey((current) => Option.isSome(keys.open(current)) ? Option.none() : Option.some(keys.seal(fresh)))
    yield* Effect.logWarning("SAML: the stored SP key was sealed under another instance secret; a new one replaces it (give identity providers the new metadata)")
    return yield* Effect.flatMap(store.spKey(keys.seal(fresh)), (current) =>
      Option.match(keys.open(current), {
        onNone: () => Effect.die(new Error("The SAML SP key cannot be opened under this instance secret")),
        onSome: Effect.succeed
      }))
  })
