import { execFileSync } from "node:child_process"
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

/** The same repositories as bare git mirrors: every .md file at HEAD. */
const MIRRORS = [
  ["GitbookIO/public-docs", "/work/.mirror/GitbookIO+public-docs/repo"],
  ["BeefreeSDK/beefree-sdk-docs", "/work/.mirror/BeefreeSDK+beefree-sdk-docs/repo"],
  ["Airstack-xyz/docs", "/work/.mirror/Airstack-xyz+docs/repo"]
] as const

const gitPages = (gitDir: string): Array<[string, string]> => {
  const git = (...args: Array<string>): Buffer => execFileSync("git", ["--git-dir", gitDir, ...args], { maxBuffer: 1 << 30 })
  const entries = git("ls-tree", "-r", "-z", "HEAD")
    .toString("utf8")
    .split("\0")
    .filter((e) => e.endsWith(".md") && e.includes(" blob "))
    .map((e) => {
      const [meta, path] = e.split("\t") as [string, string]
      return [path, meta.split(" ")[2]!] as const
    })
  return entries.map(([path, sha]) => [path, git("cat-file", "blob", sha).toString("utf8")])
}

/** Exact with kept slices, and not lossy when every block is written from its attributes. */
const roundTrip = (pages: ReadonlyArray<[string, string]>) => {
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
    })
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
    })
    if (!existsSync(gitDir)) it.skip(`${repo}: git mirror absent at ${gitDir} (only on machines that have it)`, () => {})
  }
})
