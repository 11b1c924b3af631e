import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { checkFresh, createMarkdownCodec, createSchema } from "../src/index.ts"
import { CORPORA, gitPages, markdownFiles, MIRRORS, type Page } from "./pages.ts"

/** Real GitBook repositories, when this machine has them (CI has not): every page must round-trip byte for byte. */
const codec = createMarkdownCodec(createSchema())

/** Exact with kept slices, and not lossy when every block is written from its attributes. */
const roundTrip = (pages: ReadonlyArray<Page>) => {
  const failed: Array<string> = []
  let freshLossy = 0
  for (const [name, text] of pages) {
    if (codec.serialize(codec.parse(text)) !== text) failed.push(name)
    if (checkFresh(codec, text).fidelity === "lossy") freshLossy++
  }
  return { failed, freshLossy }
}

describe("real GitBook repositories round-trip", () => {
  for (const [repo, dir] of CORPORA) {
    it.skipIf(!existsSync(dir))(`${repo} (${dir}): every page is exact`, () => {
      const files = markdownFiles(dir)
      const { failed, freshLossy } = roundTrip(files.map((f) => [f, readFileSync(f, "utf8")]))
      console.log(`${repo}: ${files.length - failed.length}/${files.length} pages exact; re-serialized from scratch, ${files.length - freshLossy}/${files.length} not lossy`)
      expect(files.length).toBeGreaterThan(0)
      expect(failed).toEqual([])
      expect(freshLossy).toBe(0)
    }, 300_000)
    if (!existsSync(dir)) it.skip(`${repo}: corpus absent at ${dir} (only on machines that have it)`, () => {})
  }
  for (const [repo, gitDir] of MIRRORS) {
    it.skipIf(!existsSync(gitDir))(`${repo} (git mirror, every .md at HEAD): every page is exact`, () => {
      const pages = gitPages(gitDir)
      const { failed, freshLossy } = roundTrip(pages)
      console.log(`${repo} @ HEAD: ${pages.length - failed.length}/${pages.length} pages exact; re-serialized from scratch, ${pages.length - freshLossy}/${pages.length} not lossy`)
      expect(pages.length).toBeGreaterThan(0)
      expect(failed).toEqual([])
      expect(freshLossy).toBe(0)
    }, 300_000)
    if (!existsSync(gitDir)) it.skip(`${repo}: git mirror absent at ${gitDir} (only on machines that have it)`, () => {})
  }
})
