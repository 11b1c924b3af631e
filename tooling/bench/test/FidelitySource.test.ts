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
import { inSource, type PageSource, traceAnchors, traceDrawnBroken, traceRawTags } from "../src/FidelitySource.ts"

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

// GitBook's visitor-authentication guide for Azure AD: its links use anchors of an older heading
// id (`azure-a-d`) that no heading of the page gives, so GitBook's own site misses them as well.
const azure = `# Azure AD

## 1. Create an app registration in Azure AD

## Math & TeX

## What's new for User(s)

## Users With Scores > X&#x20;

<details>

<summary>Set up the Azure AD integration</summary>

Text.

</details>
`
const azurePage = { id: "azure", git: { path: "azure.md" } }
const azureSource: PageSource = { work, pageAt: () => azurePage, markdown: async () => azure }
const missing = (...anchors: Array<string>) =>
  anchors.map((anchor) => ({ page: "http://site/azure", cause: "anchor missing", detail: `#${anchor}` }))

test("an anchor that splits a heading's words differently (azure-a-d for Azure AD) is broken in the source, not the renderer's", async () => {
  const traced = await traceAnchors(azureSource, missing("id-1.-create-an-app-registration-in-azure-a-d", "set-up-the-azure-a-d-integration"))
  assert.ok(traced.every((o) => o.cause.startsWith(inSource)), traced.map((o) => o.cause).join("\n"))
})

test("an anchor with a heading's or an expandable's very words is the renderer's to give", async () => {
  const traced = await traceAnchors(
    azureSource,
    missing("id-1.-create-an-app-registration-in-azure-ad", "math-and-tex", "whats-new-for-user-s", "set-up-the-azure-ad-integration", "users-with-scores-greater-than-x")
  )
  assert.deepEqual(traced.filter((o) => o.cause.startsWith(inSource)), [])
})

// Beefree's smart merge tags page writes a merge tag as text GitBook shows: `\{%customer.name%\}`.
const mergeTags = "# Smart merge tags\n\nSee _Customer Name_ instead of _\\{%customer.name%\\}_.\n\n{% hint %}\nA hint.\n{% endhint %}\n"
const mergePage = { id: "merge", git: { path: "smart-merge-tags.md" } }
const mergeSource: PageSource = { work, pageAt: () => mergePage, markdown: async () => mergeTags }
const shown = (name: string) => ({ page: "http://site/smart-merge-tags", cause: `{% ${name} %} shown as text`, detail: `{%${name}%}` })

test("a tag the source escapes as text is GitBook's text too; one more of it, or an unescaped block, is the renderer's", async () => {
  const traced = await traceRawTags(mergeSource, [shown("customer.name"), shown("customer.name"), shown("hint")])
  assert.deepEqual(traced.map((o) => o.cause.startsWith(inSource)), [true, false, false])
})
