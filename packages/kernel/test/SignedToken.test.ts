/** Signed tokens: what verifies, and that everything else is refused without throwing. */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Schema } from "effect"
import { TestClock } from "effect/testing"
import { createHmac } from "node:crypto"
import { SignedToken } from "../src/index.ts"

const Grant = Schema.Struct({ user: Schema.String, count: Schema.Finite })
const key = SignedToken.deriveKey("a secret", "grants")
const grant = { user: "u1", count: 3 }

const base64url = (text: string) => Buffer.from(text).toString("base64url")
/** A token signed under `key` by hand, as a forger holding the key of another purpose would. */
const signRaw = (bytes: Buffer, payload: string) => `${payload}.${createHmac("sha256", bytes).update(payload).digest("base64url")}`
const withEnv = (env: Record<string, string>, purpose: string) =>
  Effect.provide(SignedToken.keyFor(purpose), ConfigProvider.layer(ConfigProvider.fromEnv({ env })))
const refused = (token: string, now = 0, options: SignedToken.Options = {}) =>
  assert.isTrue(Option.isNone(SignedToken.verify(key, Grant, token, now, options)), token)

describe("SignedToken", () => {
  it("gives back exactly what was signed, with its expiry", () => {
    const token = SignedToken.sign(key, Grant, grant, { expiresAt: 100 })
    assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/)
    assert.deepStrictEqual(SignedToken.verify(key, Grant, token, 99), Option.some({ value: grant, expiresAt: 100 }))
    const forever = SignedToken.sign(key, Grant, grant)
    assert.deepStrictEqual(SignedToken.verify(key, Grant, forever, 1e12), Option.some({ value: grant, expiresAt: undefined }))
  })

  it("refuses a tampered payload", () => {
    const [, signature] = SignedToken.sign(key, Grant, grant).split(".") as [string, string]
    refused(`${base64url(JSON.stringify({ user: "admin", count: 3 }))}.${signature}`)
    const [payload] = SignedToken.sign(key, Grant, { user: "u2", count: 3 }).split(".") as [string]
    refused(`${payload}.${signature}`)
  })

  it("refuses a tampered, truncated or re-spelled signature", () => {
    const token = SignedToken.sign(key, Grant, grant)
    const [payload, signature] = token.split(".") as [string, string]
    refused(`${payload}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`)
    refused(`${payload}.${signature.slice(0, -2)}`)
    refused(`${payload}.${signature}A`)
    refused(`${payload}.`)
    // The last character carries 2 unused bits: another spelling of the same bytes is not the token.
    const last = signature.at(-1)!
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    const bytes = Buffer.from(signature, "base64url")
    const siblings = alphabet.split("").filter((c) => c !== last && Buffer.from(signature.slice(0, -1) + c, "base64url").equals(bytes))
    assert.strictEqual(siblings.length, 3)
    for (const sibling of siblings) refused(`${payload}.${signature.slice(0, -1)}${sibling}`)
  })

  it("refuses a token of another purpose or another secret", () => {
    const token = SignedToken.sign(key, Grant, grant)
    assert.isTrue(Option.isNone(SignedToken.verify(SignedToken.deriveKey("a secret", "sessions"), Grant, token, 0)))
    assert.isTrue(Option.isNone(SignedToken.verify(SignedToken.deriveKey("another secret", "grants"), Grant, token, 0)))
    // The purpose's key is not the secret itself, nor a plain HMAC of the purpose under it.
    refused(signRaw(Buffer.from("a secret"), base64url(JSON.stringify(grant))))
    refused(signRaw(createHmac("sha256", "a secret").update("grants").digest(), base64url(JSON.stringify(grant))))
  })

  it("refuses an expired token, and one whose expiry is not a number", () => {
    const token = SignedToken.sign(key, Grant, grant, { expiresAt: 100 })
    refused(token, 100)
    refused(token, 101)
    refused(signRaw(key.bytes, base64url(JSON.stringify({ ...grant, exp: "never" }))))
    refused(signRaw(key.bytes, base64url(JSON.stringify({ ...grant, exp: null }))))
  })

  it("refuses malformed JSON and payloads its schema does not decode, without throwing", () => {
    for (const payload of ["{", "[1,2]", "null", "\"text\"", "42", JSON.stringify({ user: 1, count: 3 }), JSON.stringify({ user: "u1" })]) {
      refused(signRaw(key.bytes, base64url(payload)))
    }
    refused(signRaw(key.bytes, "%%%"))
    for (const garbage of ["", ".", "..", "abc", "e30.e30", "a".repeat(20_000), `${SignedToken.sign(key, Grant, grant)}.x`]) {
      refused(garbage)
    }
    assert.isTrue(Option.isNone(SignedToken.verify(key, Grant, 42 as never, 0)))
  })

  it("makes and checks JWTs of the same key when asked, and keeps the two forms apart", () => {
    const jwt = SignedToken.sign(key, Grant, grant, { expiresAt: 100, jwt: true })
    const [header, payload] = jwt.split(".") as [string, string, string]
    assert.deepStrictEqual(JSON.parse(Buffer.from(header, "base64url").toString()), { alg: "HS256", typ: "JWT" })
    assert.deepStrictEqual(JSON.parse(Buffer.from(payload, "base64url").toString()), { ...grant, exp: 100 })
    assert.deepStrictEqual(SignedToken.verify(key, Grant, jwt, 99, { jwt: true }), Option.some({ value: grant, expiresAt: 100 }))
    refused(jwt, 99)
    refused(SignedToken.sign(key, Grant, grant), 0, { jwt: true })
    refused(`${base64url(JSON.stringify({ alg: "none" }))}.${payload}.`, 0, { jwt: true })
  })

  it.effect("issues and opens tokens by Effect's Clock", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(1_000_000)
      const token = yield* SignedToken.issue(key, Grant, grant, { expiresIn: 60 })
      assert.deepStrictEqual(yield* SignedToken.open(key, Grant, token), Option.some({ value: grant, expiresAt: 1_060 }))
      yield* TestClock.adjust("59 seconds")
      assert.isTrue(Option.isSome(yield* SignedToken.open(key, Grant, token)))
      yield* TestClock.adjust("1 second")
      assert.isTrue(Option.isNone(yield* SignedToken.open(key, Grant, token)))
    }))

  it.effect("derives the purpose's key from QUIRE_SECRET when it is set, else from one secret of the process", () =>
    Effect.gen(function*() {
      const withSecret = (secret: string) => withEnv({ QUIRE_SECRET: secret }, "grants")
      const token = SignedToken.sign(yield* withSecret("a secret"), Grant, grant)
      assert.isTrue(Option.isSome(SignedToken.verify(key, Grant, token, 0)))
      assert.isTrue(Option.isNone(SignedToken.verify(yield* withSecret("another secret"), Grant, token, 0)))
      const issued = SignedToken.sign(yield* withEnv({}, "grants"), Grant, grant)
      assert.isTrue(Option.isSome(SignedToken.verify(yield* withEnv({}, "grants"), Grant, issued, 0)))
      assert.isTrue(Option.isNone(SignedToken.verify(yield* withEnv({}, "sessions"), Grant, issued, 0)))
      assert.isTrue(Option.isNone(SignedToken.verify(key, Grant, issued, 0)))
    }))
})
