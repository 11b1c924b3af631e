/**
 * Encryption of what Git sync keeps secret (repository URLs with credentials, webhook secrets):
 * AES-256-GCM under a key derived by HKDF-SHA256 from `QUIRE_SECRET`, or, without it, from a
 * random key generated once and kept in gitsync's own table (see docs/gitsync.md, "Secrets").
 */
import { Config, Context, Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { Sealed } from "@quire/kernel"
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
   * The key from `QUIRE_SECRET`; without it, a random key generated on first use and stored by
   * GitSyncRepo (so every process of a deployment, and every restart, shares it).
   */
  static readonly layer = Layer.effect(
    SecretBox,
    Effect.gen(function*() {
      const configured = yield* Config.option(Config.Redacted("QUIRE_SECRET")).pipe(Effect.orDie)
      if (Option.isSome(configured) && Redacted.value(configured.value) !== "") {
        return SecretBox.make(deriveKey(Redacted.value(configured.value)))
      }
      const repo = yield* GitSyncRepo
      const stored = yield* repo.instanceKey(randomBytes(32).toString("base64url"))
      return SecretBox.make(deriveKey(stored))
    })
  )

  /** A box over a fixed secret, for tests. */
  static readonly layerSecret = (secret: string) => Layer.succeed(SecretBox, SecretBox.make(deriveKey(secret)))
}
