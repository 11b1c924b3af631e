import { createHmac } from "node:crypto"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as VisitorToken from "../src/VisitorToken.ts"

const now = new Date("2026-03-01T12:00:00Z")
const seconds = (date: Date) => Math.floor(date.getTime() / 1000)
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** A token made by hand, as a site owner's backend with any JWT library would make it. */
const handMade = (header: unknown, payload: unknown, key: string | undefined): string => {
  const body = `${b64(header)}.${b64(payload)}`
  const signature = key === undefined ? "" : createHmac("sha256", key).update(body).digest("base64url")
  return `${body}.${signature}`
}

/** A correctly signed token whose payload is any text. */
const signedRaw = (header: unknown, payload: string, key: string): string => {
  const body = `${b64(header)}.${Buffer.from(payload).toString("base64url")}`
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`
}

describe("VisitorToken", () => {
  it("makes random base64url keys of 32 bytes", () => {
    const a = VisitorToken.newKey()
    const b = VisitorToken.newKey()
    assert.notStrictEqual(a, b)
    assert.match(a, /^[A-Za-z0-9_-]{43}$/)
    assert.strictEqual(Buffer.from(a, "base64url").length, 32)
  })

  it("verifies a token it signed and returns its claims", async () => {
    const key = VisitorToken.newKey()
    const token = await Effect.runPromise(VisitorToken.sign({ plan: "pro", unsigned: { language: "fr" } }, key, 3600, now))
    const result = await Effect.runPromise(VisitorToken.verify(token, key, now))
    assert.isTrue(result.ok)
    if (result.ok) {
      assert.strictEqual(result.claims["plan"], "pro")
      assert.deepStrictEqual(result.claims["unsigned"], { language: "fr" })
      assert.strictEqual(result.claims["exp"], seconds(now) + 3600)
    }
  })

  it("verifies a token signed elsewhere with the key's text as the HMAC secret, as GitBook's examples do", async () => {
    const key = "a-site-key-from-the-settings"
    const token = handMade({ alg: "HS256", typ: "JWT" }, { role: "admin", exp: seconds(now) + 60 }, key)
    assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(token, key, now)), {
      ok: true,
      claims: { role: "admin", exp: seconds(now) + 60 }
    })
  })

  it("refuses a token without exp, or whose exp is further ahead than the maximum age", async () => {
    const key = VisitorToken.newKey()
    const noExp = handMade({ alg: "HS256", typ: "JWT" }, { role: "admin", iat: seconds(now) }, key)
    assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(noExp, key, now)), { ok: false, reason: "lifetime" })
    const stringExp = handMade({ alg: "HS256", typ: "JWT" }, { role: "admin", exp: String(seconds(now) + 60) }, key)
    assert.strictEqual((await Effect.runPromise(VisitorToken.verify(stringExp, key, now))).ok, false)
    const far = await Effect.runPromise(VisitorToken.sign({}, key, VisitorToken.defaultMaxAgeSeconds + 3600, now))
    assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(far, key, now)), { ok: false, reason: "lifetime" })
    assert.isTrue((await Effect.runPromise(VisitorToken.verify(far, key, now, VisitorToken.defaultMaxAgeSeconds + 7200))).ok)
    const near = await Effect.runPromise(VisitorToken.sign({}, key, VisitorToken.defaultMaxAgeSeconds - 60, now))
    assert.isTrue((await Effect.runPromise(VisitorToken.verify(near, key, now))).ok)
    // A forged token without exp is still a forgery.
    assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(noExp, VisitorToken.newKey(), now)), { ok: false, reason: "invalid-signature" })
  })

  it("refuses an expired token, with a small tolerance for clocks", async () => {
    const key = VisitorToken.newKey()
    const token = await Effect.runPromise(VisitorToken.sign({ plan: "pro" }, key, 60, now))
    const at = (offset: number) => new Date(now.getTime() + offset * 1000)
    assert.isTrue((await Effect.runPromise(VisitorToken.verify(token, key, at(59)))).ok)
    assert.isTrue((await Effect.runPromise(VisitorToken.verify(token, key, at(60 + VisitorToken.clockToleranceSeconds - 1)))).ok)
    assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(token, key, at(60 + VisitorToken.clockToleranceSeconds + 1))), {
      ok: false,
      reason: "expired"
    })
    assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(token, key, at(86_400))), { ok: false, reason: "expired" })
  })

  it("refuses a token signed with another key, expired or not", async () => {
    const token = await Effect.runPromise(VisitorToken.sign({ plan: "pro" }, VisitorToken.newKey(), 60, now))
    const key = VisitorToken.newKey()
    assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(token, key, now)), { ok: false, reason: "invalid-signature" })
    // The signature is checked first: a forged token is not reported as merely expired.
    assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(token, key, new Date(now.getTime() + 86_400_000))), {
      ok: false,
      reason: "invalid-signature"
    })
  })

  it("refuses a token whose claims were changed after signing", async () => {
    const key = VisitorToken.newKey()
    const token = await Effect.runPromise(VisitorToken.sign({ plan: "free" }, key, 60, now))
    const [header, , signature] = token.split(".")
    const forged = `${header}.${b64({ plan: "enterprise", exp: seconds(now) + 60 })}.${signature}`
    assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(forged, key, now)), { ok: false, reason: "invalid-signature" })
  })

  it("refuses alg none and other algorithms", async () => {
    const key = VisitorToken.newKey()
    const payload = { plan: "pro", exp: seconds(now) + 60 }
    for (const token of [
      handMade({ alg: "none", typ: "JWT" }, payload, undefined),
      handMade({ alg: "none" }, payload, key),
      handMade({ alg: "HS512", typ: "JWT" }, payload, key)
    ]) {
      const result = await Effect.runPromise(VisitorToken.verify(token, key, now))
      assert.isFalse(result.ok, token)
      assert.notStrictEqual(result.ok === false && result.reason, "expired")
    }
    assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(handMade({ alg: "none" }, payload, undefined), key, now)), {
      ok: false,
      reason: "invalid-signature"
    })
  })

  it("calls anything that is not a JWT malformed", async () => {
    const key = VisitorToken.newKey()
    for (const token of [
      "",
      "not-a-token",
      "a.b.c",
      "a.b",
      signedRaw({ alg: "HS256" }, "not json", key),
      handMade({ alg: "HS256" }, "a string payload", key),
      "x".repeat(20_000)
    ]) {
      assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(token, key, now)), { ok: false, reason: "malformed" }, token.slice(0, 40))
    }
    // A garbled payload under a good signature is malformed; under a bad one, the signature fails first.
    assert.deepStrictEqual(await Effect.runPromise(VisitorToken.verify(`${b64({ alg: "HS256" })}.not-json.sig`, key, now)), {
      ok: false,
      reason: "invalid-signature"
    })
  })
})
