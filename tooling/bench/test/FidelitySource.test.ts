/**
 * `pnpm bench --fidelity` traces links drawn as broken to the page's markdown by their text; run
 * with `npx tsx --test test/FidelitySource.test.ts` (node:test: the bench has no vitest).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { strict as assert } from "node:assert"
import { after, test } from "node:test"
import { drawnBrokenLink } from "../src/FidelityCrawl.ts"
import { inSource, type PageSource, traceDrawnBroken } from "../src/FidelitySource.ts"

// GitBook's reference page: a link to a page that exists inside a list item after a `\` hard
// break, and further down two links of the same text that GitBook's export left as `/broken/`.
const ui = `# The GitBook UI

* **Ask or search**\\
  Powered by [GitBook Agent](../create-content/searching/gitbook-ai.md), ask questions.
* **GitBook Agent**\\
  Collaborate on changes with [GitBook Agent](/broken/pages/KHHFlE1MtpVIaZboN8b2).

Write and collaborate with [GitBook Agent](/broken/pages/KHHFlE1MtpVIaZboN8b2).
`

const work = mkdtempSync(join(tmpdir(), "fidelity-source-"))
after(() => rmSync(work, { recursive: true, force: true }))
mkdirSync(join(work, "reference"))
mkdirSync(join(work, "create-content", "searching"), { recursive: true })
writeFileSync(join(work, "reference", "gitbook-ui.md"), ui)
writeFileSync(join(work, "create-content", "searching", "gitbook-ai.md"), "# GitBook AI\n")

const page = { id: "ui", git: { path: "reference/gitbook-ui.md" } }
const source: PageSource = { work, pageAt: () => page, markdown: async () => ui }
const drawn = (n: number) => Array.from({ length: n }, () => ({ page: "http://site/reference/gitbook-ui", cause: drawnBrokenLink, detail: "GitBook Agent" }))

test("links drawn broken are the ones GitBook's export left broken before a same-text link to a page that exists", async () => {
  const traced = await traceDrawnBroken(source, drawn(2))
  assert.deepEqual(traced.map((o) => o.detail), [
    "[GitBook Agent](/broken/pages/KHHFlE1MtpVIaZboN8b2)",
    "[GitBook Agent](/broken/pages/KHHFlE1MtpVIaZboN8b2)"
  ])
  assert.ok(traced.every((o) => o.cause.startsWith(inSource)))
})

test("a same-text link to a page that exists is counted against the renderer once the source's broken ones are used up", async () => {
  const traced = await traceDrawnBroken(source, drawn(3))
  assert.equal(traced[2]!.detail, "[GitBook Agent](../create-content/searching/gitbook-ai.md)")
  assert.ok(!traced[2]!.cause.startsWith(inSource))
})
