/** The differential test of EditorCodec.test.ts over the other real GitBook repositories, when this machine has them. */
import { existsSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { gitPages, MIRRORS, type Page } from "../../document/test/pages.ts"
import { compare, report } from "./support/CodecReadings.ts"

describe("the editor's codec and the server's parser read every page alike", () => {
  for (const [repo, dir] of MIRRORS.slice(1)) {
    it.skipIf(!existsSync(dir))(`${repo}, every page at HEAD`, () => {
      const pages = gitPages(dir).map(([n, t]): Page => [`${repo}:${n}`, t])
      const outcome = compare(pages)
      report(repo, outcome)
      expect(pages.length).toBeGreaterThan(100)
      expect(outcome.unexplained).toEqual([])
    })
    if (!existsSync(dir)) it.skip(`${repo}: git mirror absent at ${dir}, only the fixtures and generated pages run here`, () => {})
  }
})
