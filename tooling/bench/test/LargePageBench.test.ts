/**
 * `pnpm bench --large-page` writes pages the server accepts: the one just under the page-size
 * limit fits both the limit of UTF-8 bytes and the API's limit of characters; run with
 * `npx tsx --test test/LargePageBench.test.ts` (node:test).
 */
import { strict as assert } from "node:assert"
import { test } from "node:test"
import { defaultRevisionLimits } from "@quire/content"
import { goalMs, limitBytes, pageOf } from "../src/LargePageBench.ts"

test("the page just under the limit fits its bytes and the API's characters, and is within 64 KB of the limit", () => {
  const page = pageOf(limitBytes)
  const bytes = Buffer.byteLength(page)
  assert.ok(bytes <= defaultRevisionLimits.documentBytes, `${bytes} bytes`)
  assert.ok(bytes > defaultRevisionLimits.documentBytes - 64 * 1024, `${bytes} bytes`)
  assert.ok(page.length <= 5_000_000, `${page.length} characters`)
  assert.equal(goalMs(bytes), 1_000)
})

test("the 1.5 MB page has the paragraphs, headings and links of the issue's, and the 100 ms goal", () => {
  const page = pageOf(1_500_000)
  const bytes = Buffer.byteLength(page)
  assert.ok(bytes <= 1_500_000 && bytes > 1_490_000, `${bytes} bytes`)
  assert.ok(page.split("\n\n").length > 25_000)
  assert.equal(page.match(/\]\(https:\/\/example\.com\/\d+\)/g)?.length, page.match(/^## Section/gm)?.length)
  assert.equal(goalMs(bytes), 100)
})
