import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { createMarkdownCodec } from "../../src/editor/markdown/codec.ts"
import { checkFresh } from "../../src/editor/markdown/fidelity.ts"
import { createSchema } from "../../src/editor/schema.ts"

/** Real GitBook repositories, when this machine has them (CI has not): every page must round-trip byte for byte. */
const CORPORA = [
  ["GitbookIO/public-docs", "/tmp/pd/documentation"],
  ["BeefreeSDK/beefree-sdk-docs", "/tmp/BeefreeSDK+beefree-sdk-docs"],
  ["Airstack-xyz/docs", "/tmp/Airstack-xyz+docs"]
] as const

const markdownFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === ".git") return []
    const path = join(dir, name)
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith(".md") ? [path] : []
  })

const codec = createMarkdownCodec(createSchema())

describe("real GitBook repositories round-trip", () => {
  for (const [repo, dir] of CORPORA) {
    it.skipIf(!existsSync(dir))(`${repo} (${dir}): every page is exact`, () => {
      const files = markdownFiles(dir)
      const failed: Array<string> = []
      let freshLossy = 0
      for (const file of files) {
        const text = readFileSync(file, "utf8")
        if (codec.serialize(codec.parse(text)) !== text) failed.push(file)
        if (checkFresh(codec, text).fidelity === "lossy") freshLossy++
      }
      console.log(`${repo}: ${files.length - failed.length}/${files.length} pages exact; re-serialized from scratch, ${files.length - freshLossy}/${files.length} not lossy`)
      expect(files.length).toBeGreaterThan(0)
      expect(failed).toEqual([])
      expect(freshLossy).toBe(0)
    })
    if (!existsSync(dir)) it.skip(`${repo}: corpus absent at ${dir} (only on machines that have it)`, () => {})
  }
})
