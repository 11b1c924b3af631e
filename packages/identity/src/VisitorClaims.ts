/** Signs visitor claims as compact HS256 JWTs (RFC 7519), for visitor-authenticated sites. */
import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import * as InstanceSecret from "@quire/kernel/InstanceSecret"
import { createHmac, randomBytes } from "node:crypto"

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url")

/** Signs `claims` with `secret`; `iat` and `exp` (one hour) are added. */
export const signJwt = (claims: Record<string, unknown>, secret: string, nowSeconds: number): string => {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))
  const payload = base64url(JSON.stringify({ ...claims, iat: nowSeconds, exp: nowSeconds + 3600 }))
  const signature = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url")
  return `${header}.${payload}.${signature}`
}

/** Checks a token's signature and expiry; the claims, or none. */
export const verifyJwt = (token: string, secret: string, nowSeconds: number): Option.Option<Record<string, unknown>> => {
  const [header, payload, signature] = token.split(".")
  if (header === undefined || payload === undefined || signature === undefined) return Option.none()
  const expected = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url")
  if (expected !== signature) return Option.none()
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>
  return typeof claims.exp === "number" && claims.exp > nowSeconds ? Option.some(claims) : Option.none()
}

export class VisitorClaims extends Context.Service<VisitorClaims, {
  readonly sign: (claims: Record<string, unknown>) => Effect.Effect<string>
}>()("@quire/identity/VisitorClaims") {
  /** Signing key from the instance secret (`InstanceSecret`); without one, a random key for this process. */
  static readonly layer = Layer.effect(
    VisitorClaims,
    Effect.gen(function*() {
      const configured = yield* InstanceSecret.configured
      const secret = Option.match(configured, {
        onNone: () => randomBytes(32).toString("hex"),
        onSome: (value) => Redacted.value(value)
      })
      return VisitorClaims.of({
        sign: (claims) => Effect.map(Clock.currentTimeMillis, (ms) => signJwt(claims, secret, Math.floor(ms / 1000)))
      })
    }).pipe(Effect.orDie)
  )

  static readonly layerTest = Layer.succeed(VisitorClaims, VisitorClaims.of({
    sign: (claims) => Effect.map(Clock.currentTimeMillis, (ms) => signJwt(claims, "test-secret", Math.floor(ms / 1000)))
  }))
}
