/**
 * Secrets kept at rest (an OIDC client secret, a repository URL with credentials): AES-256-GCM
 * under a 32-byte key that HKDF-SHA256 derives from an instance secret for one purpose, so that
 * what is sealed for one use never opens for another. `v1.<iv>.<ciphertext and tag>`, base64url.
 */
import { Option } from "effect"
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto"

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
