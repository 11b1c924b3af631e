/**
 * Secrets kept at rest (an OIDC client secret, a repository URL with credentials): AES-256-GCM
 * under a 32-byte key that HKDF-SHA256 derives from an instance secret for one purpose, so that
 * what is sealed for one use never opens for another. `v1.<iv>.<ciphertext and tag>`, base64url.
 * Bearer values (session ids, invite secrets) are kept as `bearerHash`es and looked up by it.
 */
import { Effect, Option, Redacted } from "effect"
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto"
import * as InstanceSecret from "./InstanceSecret.ts"
import * as SignedToken from "./SignedToken.ts"

const version = "v1"

/** The 32-byte key of `secret` for `purpose` (HKDF-SHA256 with `salt`). */
export const deriveKey = (secret: string, salt: string, purpose: string): Uint8Array =>
  new Uint8Array(hkdfSync("sha256", secret, salt, purpose, 32))

/** `v1.<iv>.<ciphertext and tag>` of `plain` under `key`. */
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

/**
 * The key of `purpose` under the instance secret (`InstanceSecret.configured`), else under this
 * process's random secret (the memory server, tests: what it sealed ends with the process).
 */
export const keyFor = (purpose: string): Effect.Effect<Uint8Array> =>
  Effect.map(
    Effect.orDie(InstanceSecret.configured),
    Option.match({
      onNone: () => new Uint8Array(SignedToken.processKey(`sealed:${purpose}`).bytes),
      onSome: (secret) => deriveKey(Redacted.value(secret), "quire/sealed", purpose)
    })
  )

/**
 * What is stored of a bearer value (a session id, an invite link's secret): its SHA-256, hex. The
 * value itself is shown once, to whoever it is made for; a lookup hashes what it is given. The
 * values are random (128 bits or more), so a hash without salt or stretching is enough.
 */
export const bearerHash = (value: string): string => createHash("sha256").update(value, "utf8").digest("hex")
