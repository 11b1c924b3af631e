/**
 * Visitor tokens of `visitor-auth` sites: JWTs signed with HS256 by the site owner's backend
 * with the site's key (used as the UTF-8 bytes of its text, as GitBook's examples sign with
 * `jsonwebtoken`), verified here with jose; their payload is the visitor's claims.
 */
import { randomBytes } from "node:crypto"
import { Clock, Config, Duration, Effect } from "effect"
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
 * leaked token must not open a site for ever. `now` is the `Clock`'s unless given.
 */
export const verify = (
  token: string,
  key: string,
  now?: Date,
  maxAgeSeconds: number = defaultMaxAgeSeconds
): Effect.Effect<VerifyResult> => {
  if (typeof token !== "string" || token.length === 0 || token.length > 16_384) {
    return Effect.succeed({ ok: false, reason: "malformed" })
  }
  return Effect.flatMap(now === undefined ? Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms)) : Effect.succeed(now), (at) =>
    Effect.tryPromise({
      try: () => jose.jwtVerify(token, keyBytes(key), { algorithms: [algorithm], clockTolerance: clockToleranceSeconds, currentDate: at }),
      catch: (error): VerifyResult =>
        error instanceof jose.errors.JWTExpired
          ? { ok: false, reason: "expired" }
          : error instanceof jose.errors.JWSSignatureVerificationFailed || error instanceof jose.errors.JOSEAlgNotAllowed
          ? { ok: false, reason: "invalid-signature" }
          : { ok: false, reason: "malformed" }
    }).pipe(
      Effect.match({
        onFailure: (refused) => refused,
        onSuccess: ({ payload }): VerifyResult => {
          const nowSeconds = Math.floor(at.getTime() / 1000)
          return typeof payload.exp !== "number" || payload.exp > nowSeconds + maxAgeSeconds + clockToleranceSeconds
            ? { ok: false, reason: "lifetime" }
            : { ok: true, claims: { ...payload } }
        }
      })
    ))
}

/**
 * Signs claims as a visitor token for a site's key, for tests and tools. `expiresIn` is seconds
 * after `now` (the `Clock`'s unless given), or a jose time span (`"1h"`) after the current time.
 */
export const sign = (
  claims: Readonly<Record<string, unknown>>,
  key: string,
  expiresIn: number | string,
  now?: Date
): Effect.Effect<string> =>
  Effect.flatMap(now === undefined ? Clock.currentTimeMillis : Effect.succeed(now.getTime()), (ms) => {
    const issuedAt = Math.floor(ms / 1000)
    return Effect.promise(() =>
      new jose.SignJWT({ ...claims })
        .setProtectedHeader({ alg: algorithm, typ: "JWT" })
        .setIssuedAt(issuedAt)
        .setExpirationTime(typeof expiresIn === "number" ? issuedAt + expiresIn : expiresIn)
        .sign(keyBytes(key))
    )
  })
