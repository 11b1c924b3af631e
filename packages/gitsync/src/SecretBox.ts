/**
 * Encryption of what Git sync keeps secret (repository URLs with credentials, webhook secrets):
 * AES-256-GCM under a key derived by HKDF-SHA256 from the instance secret (`QUIRE_SECRET`, else
 * `$QUIRE_DATA_DIR/secret`), which no dump or backup holds (see docs/gitsync.md, "Secrets").
 */
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { InstanceSecret, Sealed } from "@quire/kernel"
import { GitSyncRepo } from "./GitSyncRepo.ts"

/** The 32-byte key of `secret` (HKDF-SHA256, salt and info naming Git sync's use). */
export const deriveKey = (secret: string): Uint8Array => Sealed.deriveKey(secret, "quire/gitsync", "quire/gitsync/secret-box/v1")

/** `v1.<iv>.<ciphertext and tag>` (base64url) of `plain` under `key`. */
export const seal = Sealed.seal

/** The text `sealed` holds, or none when it was sealed under another key or was altered. */
export const open = Sealed.open

export interface SecretBoxShape {
  readonly seal: (plain: string) => string
  readonly open: (sealed: string) => Option.Option<string>
}

/** Seals and opens Git sync's secrets with the instance's key. */
export class SecretBox extends Context.Service<SecretBox, SecretBoxShape>()("@quire/gitsync/SecretBox") {
  /** A box over `key` (32 bytes). */
  static readonly make = (key: Uint8Array): SecretBoxShape => ({ seal: (plain) => seal(key, plain), open: (sealed) => open(key, sealed) })

  /**
   * The key derived from the instance secret. An older Quire kept a random key in the
   * database (`gitsync_instance_key`) unless `QUIRE_SECRET` was set: when that key is still there,
   * every secret it sealed is sealed again under the instance secret's key and the stored key is
   * deleted, in one transaction, so that a dump no longer opens them. A process without any
   * instance secret (the memory server, a test) keeps using the database's key.
   */
  static readonly layer = Layer.effect(
    SecretBox,
    Effect.gen(function*() {
      const repo = yield* GitSyncRepo
      const configured = Option.filter(yield* Effect.orDie(InstanceSecret.configured), (secret) => Redacted.value(secret) !== "")
      if (Option.isNone(configured)) return SecretBox.make(deriveKey(yield* repo.instanceKey(randomBytes(32).toString("base64url"))))
      const key = deriveKey(Redacted.value(configured.value))
      const legacy = yield* repo.legacyKey
      if (Option.isSome(legacy)) {
        const old = deriveKey(legacy.value)
        // What the old key does not open (sealed under the instance secret already) is left as it is.
        const resealed = yield* repo.resealAll(legacy.value, (sealed) => Option.map(open(old, sealed), (plain) => seal(key, plain)))
        yield* Effect.logInfo(`Git sync: sealed the secrets of ${resealed} spaces again under the instance secret and deleted the database's key`)
      }
      return SecretBox.make(key)
    })
  )

  /** A box over a fixed secret, for tests. */
  static readonly layerSecret = (secret: string) => Layer.succeed(SecretBox, SecretBox.make(deriveKey(secret)))
}
