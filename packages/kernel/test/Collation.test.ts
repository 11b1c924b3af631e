import { assert, describe, it } from "@effect/vitest"
import { compareCodePoints } from "../src/Collation.ts"

/** JavaScript's own string order: UTF-16 code units. */
const utf16 = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** PostgreSQL's COLLATE "C" compares UTF-8 bytes. */
const byUtf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"))

describe("compareCodePoints", () => {
  it("puts a BMP character above the surrogates before an astral one, unlike UTF-16 order", () => {
    assert.isBelow(utf16("😀", "Ａ"), 0)
    assert.isBelow(compareCodePoints("Ａ", "😀"), 0)
    assert.isAbove(compareCodePoints("😀", "Ａ"), 0)
    assert.deepStrictEqual(["😀", "Ａ", "z", "", "Ａ😀", "Ａ", "a😀b", "a\uffffb"].toSorted(compareCodePoints), ["", "a\uffffb", "a😀b", "z", "Ａ", "Ａ", "Ａ😀", "😀"])
    assert.strictEqual(compareCodePoints("same", "same"), 0)
  })

  it("orders as UTF-8 bytes do, over strings mixing ASCII, BMP and astral characters", () => {
    const alphabet = ["a", "Z", "é", "\u{d7ff}", "\u{e000}", "Ａ", "\u{ffff}", "😀", "\u{10000}", "\u{10ffff}"]
    const strings: Array<string> = []
    for (const x of alphabet) for (const y of ["", ...alphabet]) strings.push(x + y)
    assert.deepStrictEqual(strings.toSorted(compareCodePoints), strings.toSorted(byUtf8))
    for (const a of strings) assert.isTrue(strings.every((b) => Math.sign(compareCodePoints(a, b)) === Math.sign(byUtf8(a, b))), a)
  })
})
