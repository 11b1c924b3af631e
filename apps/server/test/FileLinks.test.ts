/** Signed download links: what a token grants, for how long, and that nothing else passes. */
import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import { deriveKey, expiryOf, type FileLink, sign, verify } from "../src/FileLinks.ts"

const key = deriveKey("a secret")
const link: FileLink = {
  spaceId: "space1",
  fileId: "file1",
  blob: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  contentType: "image/png",
  name: "résumé.png",
  expires: 10_000
}

describe("file links", () => {
  it("grant exactly what was signed until they expire", () => {
    const token = sign(key, link)
    assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    assert.deepStrictEqual(verify(key, token, 9_999), Option.some(link))
    assert.isTrue(Option.isNone(verify(key, token, 10_000)))
  })

  it("refuse altered payloads and signatures, other keys and garbage", () => {
    const token = sign(key, link)
    const [payload, signature] = token.split(".") as [string, string]
    const other = sign(key, { ...link, blob: "0".repeat(64) }).split(".")[0]!
    assert.isTrue(Option.isNone(verify(key, `${other}.${signature}`, 0)))
    assert.isTrue(Option.isNone(verify(key, `${payload}.${signature.slice(0, -2)}`, 0)))
    assert.isTrue(Option.isNone(verify(deriveKey("another secret"), token, 0)))
    for (const garbage of ["", ".", "abc", `${payload}`, `${token}.x`, "e30.e30"]) {
      assert.isTrue(Option.isNone(verify(key, garbage, 0)), garbage)
    }
  })

  it("expire at the end of the next full hour, so a link stays the same for an hour", () => {
    assert.strictEqual(expiryOf(0), 7200)
    assert.strictEqual(expiryOf(3599), 7200)
    assert.strictEqual(expiryOf(3600), 10_800)
  })
})
