/**
 * Visitor tokens of `visitor-auth` sites: JWTs signed with HS256 by the site owner's backend
 * with the site's key (used as the UTF-8 bytes of its text, as GitBook's examples sign with
 * `jsonwebtoken`), verified here with jose; their payload is the visitor's claims.
 */
import { randomBytes } from "node:crypto"
import { Config, Duration } from "effect"
import * as jose from "jose"

/** How far the token's clock may be from ours when checking `exp`, `nbf` and `iat`, in seconds. */
export const clockToleranceSeconds = 30

/** The longest a visitor token may last from now, by default (`QUIRE_VISITOR_TOKEN_MAX_AGE`): 30 days, in seconds. */
export const defaultMaxAgeSeconds = 30 * 24 * 3600

/** `QUIRE_VISITOR_TOKEN_MAX_AGE` (`30 days`, `12 hours`): how far ahead a visitor token's `exp` may be, in seconds. */
export const MaxAgeSeconds = Config.Duration("QUIRE_VISITOR_TOKEN_MAX_AGE").pipe(
  Config.map((age) => Math.floor(Duration.toMillis(age) / 1000)),
  Config.withDefault(defaultMaxAgeSeconds)
)

const algorithm = "HS256"

const keyBytes = (key: string): Uint8Array => new TextEncoder().encode(key)

/** A new random site key: 32 bytes, base64url. */
export const newKey = (): string => randomBytes(32).toString("base64url")

export type VerifyResult =
  | { readonly ok: true; readonly claims: Record<string, unknown> }
  | { readonly ok: false; readonly reason: "expired" | "invalid-signature" | "malformed" | "lifetime" }

/**
 * Verifies a visitor token: HS256 only (`alg: none` or any other algorithm is refused as an
 * invalid signature), `exp` and `nbf` honoured within the clock tolerance; the signature is
 * checked before the expiry, so a forged token is never reported as merely expired. A token
 * without `exp`, or whose `exp` is more than `maxAgeSeconds` ahead, is refused (`lifetime`): a
 * leaked token must not open a site for ever.
 */
export const verify = async (
  token: string,
  key: string,
  now?: Date,
  maxAgeSeconds: number = defaultMaxAgeSeconds
): Promise<VerifyResult> => {
  if (typeof token !== "string" || token.length === 0 || token.length > 16_384) {
    return { ok: false, reason: "malformed" }
  }
  try {
    const { payload } = await jose.jwtVerify(token, keyBytes(key), {
      algorithms: [algorithm],
      clockTolerance: clockToleranceSeconds,
      ...(now === undefined ? {} : { currentDate: now })
    })
    const nowSeconds = Math.floor((now ?? new Date()).getTime() / 1000)
    if (typeof payload.exp !== "number" || payload.exp > nowSeconds + maxAgeSeconds + clockToleranceSeconds) {
      return { ok: false, reason: "lifetime" }
    }
    return { ok: true, claims: { ...payload } }
  } catch (error) {
    if (error instanceof jose.errors.JWTExpired) return { ok: false, reason: "expired" }
    if (error instanceof jose.errors.JWSSignatureVerificationFailed || error instanceof jose.errors.JOSEAlgNotAllowed) {
      return { ok: false, reason: "invalid-signature" }
    }
    return { ok: false, reason: "malformed" }
  }
}

/**
 * Signs claims as a visitor token for a site's key, for tests and tools. `expiresIn` is seconds
 * after `now`, or a jose time span (`"1h"`) after the current time.
 */
export const sign = (
  claims: Readonly<Record<string, unknown>>,
  key: string,
  expiresIn: number | string,
  now: Date = new Date()
): Promise<string> => {
  const issuedAt = Math.floor(now.getTime() / 1000)
  return new jose.SignJWT({ ...claims })
    .setProtectedHeader({ alg: algorithm, typ: "JWT" })
    .setIssuedAt(issuedAt)
    .setExpirationTime(typeof expiresIn === "number" ? issuedAt + expiresIn : expiresIn)
    .sign(keyBytes(key))
}
