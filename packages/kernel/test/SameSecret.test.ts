/** The one constant-time comparison of secrets. */
import { assert, describe, it } from "@effect/vitest"
import { sameSecret } from "../src/SameSecret.ts"

describe("sameSecret", () => {
  it("accepts the same secret", () => {
    assert.isTrue(sameSecret("s3cr3t-token", "s3cr3t-token"))
    assert.isTrue(sameSecret("", ""))
  })

  it("refuses a secret that differs anywhere, in case or in length", () => {
    for (const other of ["s3cr3t-tokeN", "S3cr3t-token", "s3cr3t-toke", "s3cr3t-token ", ""]) {
      assert.isFalse(sameSecret("s3cr3t-token", other), other)
    }
  })

  it("compares strings of any length without throwing", () => {
    assert.isFalse(sameSecret("a".repeat(10_000), "b"))
    assert.isTrue(sameSecret("é".repeat(300), "é".repeat(300)))
  })
})
