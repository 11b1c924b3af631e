/**
 * Signed tokens, the one codec of every token the instance hands out and takes back (download
 * links, list cursors, sign-in sessions and codes, visitor claims): a JSON object, base64url, and
 * an HMAC-SHA256 under a key derived per purpose from the instance secret, so that a token of one
 * purpose never passes as another. Tokens are signed, not encrypted: what they carry is visible.
 */
import { Clock, Effect, Option, Redacted, Schema } from "effect"
import { createHmac, hkdfSync, randomBytes } from "node:crypto"
import * as InstanceSecret from "./InstanceSecret.ts"
import { sameSecret } from "./SameSecret.ts"

/** A signing key, good for one purpose only. */
export interface Key {
  readonly _tag: "SignedToken.Key"
  readonly purpose: string
  readonly bytes: Buffer
}

/** The key of `purpose` under `secret`: HKDF-SHA256, so that keys of different purposes are unrelated. */
export const deriveKey = (secret: string, purpose: string): Key => ({
  _tag: "SignedToken.Key",
  purpose,
  bytes: Buffer.from(hkdfSync("sha256", secret, "quire/signed-token", purpose, 32))
})

// Without an instance secret (the memory server, tests), one random secret for the process: its
// tokens end with it. A constant, so that every user of a purpose agrees on its key.
const processSecret = randomBytes(32).toString("base64url")

/** The key of `purpose` under this process's random secret. */
export const processKey = (purpose: string): Key => deriveKey(processSecret, purpose)

/** The key of `purpose` under the instance secret (`InstanceSecret`), else under a random secret of this process. */
export const keyFor = (purpose: string): Effect.Effect<Key> =>
  Effect.map(
    Effect.orDie(InstanceSecret.configured),
    Option.match({
      onNone: () => processKey(purpose),
      onSome: (secret) => deriveKey(Redacted.value(secret), purpose)
    })
  )

/** What a token carries: a schema whose encoding is a JSON object (`exp` is the token's own). */
export type Payload<A> = Schema.Codec<A, { readonly [key: string]: unknown }>

export interface Options {
  /** When the token stops verifying, in seconds since the epoch (its `exp`); none by default. */
  readonly expiresAt?: number | undefined
  /** A compact HS256 JWT (`<header>.<payload>.<signature>`) rather than `<payload>.<signature>`. */
  readonly jwt?: boolean | undefined
}

/** A token that verified: what it carries, and its expiry when it has one. */
export interface Verified<A> {
  readonly value: A
  readonly expiresAt: number | undefined
}

const jwtHeader = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url")
const maxLength = 16_384

const mac = (key: Key, signed: string): Buffer => createHmac("sha256", key.bytes).update(signed).digest()

/** Signs `value` (encoded with `schema`) for the purpose of `key`; a value `schema` does not encode is a defect. */
export const sign = <A>(key: Key, schema: Payload<A>, value: A, options: Options = {}): string => {
  const claims = { ...Schema.encodeSync(schema)(value), ...(options.expiresAt === undefined ? {} : { exp: options.expiresAt }) }
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url")
  const signed = options.jwt === true ? `${jwtHeader}.${payload}` : payload
  return `${signed}.${mac(key, signed).toString("base64url")}`
}

const parseObject = (payload: string): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

/** The payload of a token whose signature holds under `key`, as its JSON object; never throws. */
const authentic = (key: Key, token: string, jwt: boolean): Record<string, unknown> | undefined => {
  if (typeof token !== "string" || token.length > maxLength) return undefined
  const parts = token.split(".")
  if (parts.length !== (jwt ? 3 : 2) || (jwt && parts[0] !== jwtHeader)) return undefined
  const signature = parts.pop()!
  // Against the canonical spelling of the signature: no second token for the same payload.
  if (!sameSecret(signature, mac(key, parts.join(".")).toString("base64url"))) return undefined
  return parseObject(parts[parts.length - 1]!)
}

/**
 * What a token carries, if it was signed under `key`, has not expired at `nowSeconds`, and decodes
 * with `schema`; none for anything else (forged, altered, of another purpose, expired, malformed).
 */
export const verify = <A>(key: Key, schema: Payload<A>, token: string, nowSeconds: number, options: Options = {}): Option.Option<Verified<A>> => {
  const claims = authentic(key, token, options.jwt === true)
  if (claims === undefined) return Option.none()
  const { exp, ...rest } = claims
  if (exp !== undefined && (typeof exp !== "number" || !Number.isFinite(exp) || exp <= nowSeconds)) return Option.none()
  return Option.map(
    Schema.decodeUnknownOption(schema)(rest),
    (value) => ({ value, expiresAt: exp as number | undefined })
  )
}

/** Now, in seconds since the epoch, by Effect's `Clock`. */
export const nowSeconds: Effect.Effect<number> = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

/** Signs `value`, valid for `expiresIn` seconds from now by the `Clock` (for ever without it). */
export const issue = <A>(
  key: Key,
  schema: Payload<A>,
  value: A,
  options: { readonly expiresIn?: number | undefined; readonly jwt?: boolean | undefined } = {}
): Effect.Effect<string> =>
  Effect.map(nowSeconds, (now) =>
    sign(key, schema, value, {
      jwt: options.jwt,
      expiresAt: options.expiresIn === undefined ? undefined : now + options.expiresIn
    }))

/** What a token carries, checked against the `Clock`; none for anything not signed under `key` or expired. */
export const open = <A>(key: Key, schema: Payload<A>, token: string, options: Options = {}): Effect.Effect<Option.Option<Verified<A>>> =>
  Effect.map(nowSeconds, (now) => verify(key, schema, token, now, options))
