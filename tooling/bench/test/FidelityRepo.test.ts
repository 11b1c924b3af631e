/**
 * `pnpm bench --fidelity` counts pages against the SUMMARY.md GitBook reads, named by the project's
 * `.gitbook.yaml`; run with `npx tsx --test test/FidelityRepo.test.ts` (node:test).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { strict as assert } from "node:assert"
import { after, test } from "node:test"
import { projectLayout, summaryEntries } from "../src/FidelityRepo.ts"

const dirs: Array<string> = []
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const layoutOf = async (yaml: string) => {
  const work = mkdtempSync(join(tmpdir(), "fidelity-repo-"))
  dirs.push(work)
  writeFileSync(join(work, ".gitbook.yaml"), yaml)
  const layout = await projectLayout({ work, projectDirectory: "" })
  return { root: layout.root.slice(work.length), summary: layout.summary.slice(work.length) }
}

test("the summary is the one structure names, not a redirect's key", async () => {
  assert.deepEqual(
    await layoutOf("root: ./docs/\n\nstructure:\n  readme: intro.md\n  summary: toc.md\n\nredirects:\n  summary: old/summary.md\n"),
    { root: "/docs/", summary: "/docs/toc.md" }
  )
})

test("a structure key GitBook does not read (Airstack's, after a zero-width space) leaves SUMMARY.md", async () => {
  assert.deepEqual(
    await layoutOf("root: ./\n\u200bstructure:\n  readme: README.md\n  summary: SUMMARY.md\u200b\nredirects:\n  a: b.md\n"),
    { root: "/", summary: "/SUMMARY.md" }
  )
})

test("SUMMARY.md entries are the files their links name, backslash escapes and URL encoding decoded", async () => {
  const work = mkdtempSync(join(tmpdir(), "fidelity-repo-"))
  dirs.push(work)
  writeFileSync(join(work, "SUMMARY.md"), "# Table of contents\n\n* [Errors](errors/README.md)\n  * [ERROR\\_001](errors/error\\_001.md)\n  * [Quick start](<getting started/quick start.md>)\n  * [Spaces](getting%20started/spaces.md \"Label\")\n")
  assert.deepEqual((await summaryEntries(join(work, "SUMMARY.md"))).map((entry) => entry.path), [
    "errors/README.md",
    "errors/error_001.md",
    "getting started/quick start.md",
    "getting started/spaces.md"
  ])
})
