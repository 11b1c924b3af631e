/**
 * Encryption of what Git sync keeps secret (repository URLs with credentials, webhook secrets):
 * AES-256-GCM under a key derived by HKDF-SHA256 from `QUIRE_SECRET`, or, without it, from a
 * random key generated once and kept in gitsync's own table (see docs/gitsync.md, "Secrets").
 */
import { Config, Context, Effect, Layer, Option, Redacted } from "effect"
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto"
import { GitSyncRepo } from "./GitSyncRepo.ts"

const version = "v1"

/** The 32-byte key of `secret` (HKDF-SHA256, salt and info naming Git sync's use). */
export const deriveKey = (secret: string): Uint8Array =>
  new Uint8Array(hkdfSync("sha256", secret, "quire/gitsync", "quire/gitsync/secret-box/v1", 32))

/** `v1.<iv>.<ciphertext and tag>` (base64url) of `plain` under `key`. */
export const seal = (key: Uint8Array, plain: string): string => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()])
  return `${version}.${iv.toString("base64url")}.${body.toString("base64url")}`
}

/** The text `sealed` holds, or none when it was sealed under another key or was altered. */
export const open = (key: Uint8Array, sealed: string): Option.Option<string> => {
  const [v, iv, body] = sealed.split(".")
  if (v !== version || iv === undefined || body === undefined) return Option.none()
  try {
    const bytes = Buffer.from(body, "base64url")
    if (bytes.byteLength < 16) return Option.none()
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
    decipher.setAuthTag(bytes.subarray(bytes.byteLength - 16))
    return Option.some(Buffer.concat([decipher.update(bytes.subarray(0, bytes.byteLength - 16)), decipher.final()]).toString("utf8"))
  } catch {
    return Option.none()
  }
}

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
