/** Applying batches of changes to a page tree. */
import { assert, describe, it } from "@effect/vitest"
import { documentHash, type PageNode } from "@quire/content"
import { applyChanges, type Change } from "../src/ChangeSet.ts"

const page = (id: string, slug: string, pages: ReadonlyArray<PageNode> = []): PageNode => ({
  id,
  type: "document",
  title: slug,
  slug,
  document: documentHash(slug),
  createdAt: "t0",
  updatedAt: "t0",
  pages
})

const base = { pages: [page("a", "a", [page("a1", "a1")]), page("b", "b")], files: [] }

const run = (changes: ReadonlyArray<Change>) => {
  let n = 0
  return applyChanges(base, changes, { makeId: () => `new${++n}`, now: "t1" })
}

const shape = (pages: ReadonlyArray<PageNode>): unknown => pages.map((p) => [p.id, shape(p.pages)])

describe("ChangeSet", () => {
  it("inserts with titles from the heading, refs between pages, updates, moves and deletes", () => {
    const result = run([
      { operation: "insert_page", markdown: "# Getting started\n\nSee [setup](./setup.md).", into: "a", at: 0 },
      { operation: "insert_page", markdown: "---\ntitle: Setup\n---\nSteps", ref: "setup" },
      { operation: "update_page", page: "setup", into: "new1" },
      { operation: "update_page", page: "b", title: "Bee", markdown: "new body", at: 0 },
      { operation: "delete_page", page: "a1" }
    ])
    assert.strictEqual(result.kind, "applied")
    if (result.kind !== "applied") return
    const { pages, documents } = result.value
    assert.deepStrictEqual(shape(pages), [["b", []], ["a", [["new1", [["new2", []]]]]]])
    const inserted = pages[1]!.pages[0]!
    assert.deepStrictEqual([inserted.title, inserted.slug], ["Getting started", "getting-started"])
    assert.strictEqual(documents.get(inserted.document!), "See [setup](/pages/new2).")
    assert.deepStrictEqual([pages[0]!.title, pages[0]!.slug, documents.get(pages[0]!.document!)], ["Bee", "b", "new body"])
    assert.strictEqual(inserted.pages[0]!.title, "Setup")
    assert.deepStrictEqual(result.value.outcomes.map((o) => [o.kind, o.pageId]), [
      ["created", "new1"],
      ["created", "new2"],
      ["updated", "b"],
      ["deleted", "a1"]
    ])
  })

  it("refuses a page moved into its own subtree, naming the change", () => {
    const result = run([
      { operation: "update_page", page: "b", title: "fine" },
      { operation: "update_page", page: "a", into: "a1" }
    ])
    assert.deepStrictEqual(result, { kind: "rejected", value: { index: 1, reason: "a page cannot move into itself or one of its subpages" } })
  })

  it("refuses unknown pages and positions beyond the siblings", () => {
    assert.deepStrictEqual(run([{ operation: "delete_page", page: "zz" }]), {
      kind: "rejected",
      value: { index: 0, reason: "no page \"zz\" in the change request" }
    })
    const beyond = run([{ operation: "insert_page", markdown: "x", at: 5 }])
    assert.strictEqual(beyond.kind, "rejected")
  })
})
