/** The archive bounds of imports: each refused before a byte is inflated, with words naming it. */
import { assert, describe, it } from "@effect/vitest"
import { zipSync } from "fflate"
import { ArchiveRefused, defaultArchiveLimits, readArchive, safePath, withoutCommonFolder } from "../../src/importing/Archive.ts"

const text = (value: string) => new TextEncoder().encode(value)
const refusal = (run: () => unknown): string => {
  try {
    run()
  } catch (error) {
    assert.instanceOf(error, ArchiveRefused)
    return (error as Error).message
  }
  return assert.fail("not refused")
}

describe("readArchive", () => {
  it("reads files, leaving out folders and macOS clutter", () => {
    const files = readArchive(zipSync({ "docs/a.md": text("# A"), "docs/img/": new Uint8Array(0), "__MACOSX/docs/._a.md": text("x"), "docs/.DS_Store": text("x") }))
    assert.deepStrictEqual([...files.keys()], ["docs/a.md"])
    assert.deepStrictEqual([...withoutCommonFolder(files).keys()], ["a.md"])
  })

  it("refuses each bound: size, file count, expanded size, expansion ratio", () => {
    const limits = { maxArchiveBytes: 10_000, maxFiles: 3, maxExpandedBytes: 50_000, maxRatio: 20 }
    assert.include(refusal(() => readArchive(new Uint8Array(20_000), limits)), "takes at most")
    assert.include(refusal(() => readArchive(zipSync({ a: text("1"), b: text("2"), c: text("3"), d: text("4") }), limits)), "more than 3 files")
    const noise = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7919 + (i >> 3) * 104729) % 251)
    assert.include(refusal(() => readArchive(zipSync({ a: noise(30_000), b: noise(30_000) }, { level: 0 }), { ...limits, maxArchiveBytes: 1_000_000 })), "expands to more than")
    assert.include(refusal(() => readArchive(zipSync({ a: new Uint8Array(40_000).fill(1) }, { level: 9 }), limits)), "zip bomb")
    assert.include(refusal(() => readArchive(text("not a zip"), defaultArchiveLimits)), "not a zip")
  })

  it("refuses paths that lead outside the archive", () => {
    assert.include(refusal(() => readArchive(zipSync({ "../evil.md": text("x") }))), "outside the archive")
    assert.include(refusal(() => safePath("a/../../b")), "outside the archive")
    assert.include(refusal(() => safePath("..\\..\\windows\\x")), "outside the archive")
    assert.include(refusal(() => safePath("/etc/passwd")), "absolute path")
    assert.include(refusal(() => safePath("C:/x")), "absolute path")
    assert.strictEqual(safePath("./a//b/./c.md"), "a/b/c.md")
  })
})
