/** The archive bounds of imports: each refused with words naming it, declared sizes before a byte is inflated, actual ones as they inflate. */
import { assert, describe, it } from "@effect/vitest"
import { zipSync } from "fflate"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { ArchiveRefused, defaultArchiveLimits, readArchive, safePath, withoutCommonFolder } from "../../src/importing/Archive.ts"
import { checkUpload, uploadsTree } from "../../src/importing/FileSources.ts"

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

/**
 * A zip whose directory (central and local) says `name` holds `declared` bytes while its deflated
 * data holds `actual` zeros: the sizes that pass every declared bound, then a bomb.
 */
const lyingZip = (files: Record<string, Uint8Array>, name: string, declared: number, actual: number): Uint8Array => {
  const zip = zipSync({ ...files, [name]: new Uint8Array(actual) }, { level: 9 })
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const encoded = new TextEncoder().encode(name)
  const named = (at: number, nameAt: number) => encoded.every((byte, i) => zip[nameAt + i] === byte)
  let patched = 0
  for (let at = 0; at + 4 <= zip.byteLength; at++) {
    const signature = view.getUint32(at, true)
    if (signature === 0x04034b50 && named(at, at + 30) && view.getUint16(at + 26, true) === encoded.length) {
      view.setUint32(at + 22, declared, true)
      patched++
    }
    if (signature === 0x02014b50 && named(at, at + 46) && view.getUint16(at + 28, true) === encoded.length) {
      view.setUint32(at + 24, declared, true)
      patched++
    }
  }
  assert.strictEqual(patched, 2)
  return zip
}

const refused = async (run: () => unknown): Promise<ArchiveRefused> => {
  try {
    await run()
  } catch (error) {
    assert.instanceOf(error, ArchiveRefused)
    return error as ArchiveRefused
  }
  return assert.fail("not refused")
}

describe("a zip whose directory lies about sizes", () => {
  const actual = 4 * 1024 * 1024
  const declared = 1000
  // What can inflate past the bound before the stream stops: one step of at most 64 compressed bytes.
  const slack = 64 * 1032

  it("stops inflating an entry once it passes its declared size, and refuses the archive", async () => {
    const bomb = lyingZip({ "a.md": text("# A") }, "b.md", declared, actual)
    assert.isBelow(bomb.byteLength, 10_000)
    const error = await refused(() => readArchive(bomb))
    assert.include(error.message, "“b.md” declares 1000 bytes but inflates to more; it looks like a zip bomb")
    assert.isAbove(error.inflatedBytes, declared)
    assert.isAtMost(error.inflatedBytes, declared + "# A".length + slack)
  })

  it("refuses a Word document whose document.xml declares 1,000 bytes and inflates to megabytes, before Word reads it", async () => {
    const docx = readArchive(readFileSync(join(import.meta.dirname, "fixtures", "release-notes.docx")))
    const others = Object.fromEntries([...docx].filter(([path]) => path !== "word/document.xml"))
    const bomb = lyingZip(others, "word/document.xml", declared, actual)
    const before = [...docx].filter(([path]) => path !== "word/document.xml").reduce((sum, [, bytes]) => sum + bytes.byteLength, 0)
    for (const run of [() => checkUpload({ name: "bomb.docx", bytes: bomb }, "auto", defaultArchiveLimits), () => uploadsTree([{ name: "bomb.docx", bytes: bomb }], "auto", defaultArchiveLimits)]) {
      const error = await refused(run)
      assert.include(error.message, "“word/document.xml” declares 1000 bytes but inflates to more; it looks like a zip bomb")
      assert.isAtMost(error.inflatedBytes, before + declared + slack)
    }
  })

  it("reads an honest Word document as before", async () => {
    const tree = await uploadsTree([{ name: "release-notes.docx", bytes: readFileSync(join(import.meta.dirname, "fixtures", "release-notes.docx")) }], "auto", defaultArchiveLimits)
    assert.strictEqual(tree.pages.length, 1)
    assert.include(tree.pages[0]!.markdown ?? "", "|")
  })
})
