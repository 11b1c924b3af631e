/**
 * Signs visitor claims as compact HS256 JWTs (RFC 7519), for visitor-authenticated sites: kernel
 * `SignedToken`s of the purpose `visitor-claims`, in their JWT form.
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import { SignedToken } from "@quire/kernel"

const purpose = "visitor-claims"
const Claims = Schema.Record(Schema.String, Schema.Unknown)
const lifetimeSeconds = 3600

const signWith = (key: SignedToken.Key, claims: Record<string, unknown>, nowSeconds: number): string =>
  SignedToken.sign(key, Claims, { ...claims, iat: nowSeconds }, { jwt: true, expiresAt: nowSeconds + lifetimeSeconds })

/** Signs `claims` under the key `secret` derives for visitor claims; `iat` and `exp` (one hour) are added. */
export const signJwt = (claims: Record<string, unknown>, secret: string, nowSeconds: number): string =>
  signWith(SignedToken.deriveKey(secret, purpose), claims, nowSeconds)

/** Checks a token's signature and expiry; the claims (with `exp`), or none. */
export const verifyJwt = (token: string, secret: string, nowSeconds: number): Option.Option<Record<string, unknown>> =>
  Option.flatMap(
    SignedToken.verify(SignedToken.deriveKey(secret, purpose), Claims, token, nowSeconds, { jwt: true }),
    ({ expiresAt, value }) => expiresAt === undefined ? Option.none() : Option.some({ ...value, exp: expiresAt })
  )

const make = (key: SignedToken.Key) =>
  VisitorClaims.of({ sign: (claims) => Effect.map(SignedToken.nowSeconds, (now) => signWith(key, claims, now)) })

export class VisitorClaims extends Context.Service<VisitorClaims, {
  readonly sign: (claims: Record<string, unknown>) => Effect.Effect<string>
}>()("@quire/identity/VisitorClaims") {
  /** Signing key from the instance secret (`SignedToken.keyFor`); without one, the process's. */
  static readonly layer = Layer.effect(VisitorClaims, Effect.map(SignedToken.keyFor(purpose), make))

  static readonly layerTest = Layer.sync(VisitorClaims, () => make(SignedToken.deriveKey("test-secret", purpose)))
}
