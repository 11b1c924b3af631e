/**
 * A link page to a heading of a page (an imported SUMMARY.md entry `[Icons](inline.md#icons)`) as the
 * API answers it: GitBook's anchor reference, through the RevisionPage schema.
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { RevisionPage } from "@quire/api"
import type { PageNode } from "@quire/content"
import * as ContentPresenters from "../src/ContentPresenters.ts"
import { PublicUrl } from "../src/PublicUrl.ts"

const at = "2026-11-01T10:00:00.000Z"
const link = (target: PageNode["target"]): PageNode => ({ id: "icons", type: "link", title: "Icons", slug: "icons", target, createdAt: at, updatedAt: at, pages: [] })
const present = (node: PageNode) =>
  Schema.encodeUnknownSync(RevisionPage)(ContentPresenters.page(PublicUrl.make("https://docs.example.com"), "space1", node, "icons", { metadata: true })) as { target?: unknown }

describe("link page targets through the API", () => {
  it("a link to a heading of a page is an anchor reference naming the page; a link to a page stays a page reference", () => {
    assert.deepStrictEqual(present(link({ kind: "page", page: "inline", anchor: "icons" })).target, { kind: "anchor", anchor: "icons", page: "inline" })
    assert.deepStrictEqual(present(link({ kind: "page", page: "inline" })).target, { kind: "page", page: "inline" })
  })
})
