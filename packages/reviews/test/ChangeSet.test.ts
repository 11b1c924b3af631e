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

  it("keeps a markdown page's frontmatter: icon, cover, layout on the page, other keys with it, the body without it", () => {
    const markdown = "---\nicon: rocket\ncover: https://example.com/c.png\ncoverY: 12\ncoverHeight: 300\nlayout:\n  width: wide\n  outline:\n    visible: false\ntags: [a, b]\n---\n\n# Launch\n\nBody."
    const result = run([{ operation: "insert_page", markdown, ref: "l" }, { operation: "update_page", page: "b", icon: "gear" }])
    assert.strictEqual(result.kind, "applied")
    if (result.kind !== "applied") return
    const inserted = result.value.pages.find((p) => p.id === "new1")!
    assert.deepStrictEqual(
      [inserted.title, inserted.icon, inserted.cover, inserted.layout, inserted.frontmatter, result.value.documents.get(inserted.document!)],
      ["Launch", "rocket", { ref: { kind: "url", url: "https://example.com/c.png" }, yPos: 12, height: 300 }, { width: "wide", outline: false }, { tags: ["a", "b"] }, "Body."]
    )
    assert.strictEqual(result.value.pages.find((p) => p.id === "b")!.icon, "gear")
    const titled = run([{ operation: "insert_page", title: "Other", markdown: "---\nicon: book\n---\n# Launch\n\nBody." }])
    assert.strictEqual(titled.kind, "applied")
    if (titled.kind !== "applied") return
    const other = titled.value.pages.find((p) => p.id === "new1")!
    // An explicit title keeps the markdown's own heading, never its frontmatter.
    assert.deepStrictEqual([other.title, other.icon, titled.value.documents.get(other.document!)], ["Other", "book", "# Launch\n\nBody."])
    const cleared = applyChanges({ pages: result.value.pages, files: [] }, [{ operation: "update_page", page: "new1", markdown: "---\nicon: ''\n---\nNew body." }], { makeId: () => "x", now: "t2" })
    assert.strictEqual(cleared.kind, "applied")
    if (cleared.kind !== "applied") return
    const after = cleared.value.pages.find((p) => p.id === "new1")!
    assert.deepStrictEqual([after.icon, after.cover?.yPos, after.frontmatter], [undefined, 12, undefined])
  })

  it("refuses frontmatter whose values are not GitBook's, naming the key", () => {
    const result = run([{ operation: "insert_page", markdown: "---\nlayout:\n  width: huge\n---\nBody" }])
    assert.strictEqual(result.kind, "rejected")
    if (result.kind !== "rejected") return
    assert.match(result.value.reason, /layout\.width "huge" is not default or wide/)
  })

  it("keeps every page and list of pages no change touched as the same object, so later stages skip them by identity", () => {
    const tree = { pages: [page("a", "a", [page("a1", "a1", [page("a11", "a11")]), page("a2", "a2")]), page("b", "b", [page("b1", "b1")])], files: [] }
    const apply = (changes: ReadonlyArray<Change>) => {
      const result = applyChanges(tree, changes, { makeId: () => "new", now: "t1" })
      assert.strictEqual(result.kind, "applied")
      return result.kind === "applied" ? result.value : undefined!
    }
    const [a, b] = tree.pages as [PageNode, PageNode]
    const edited = apply([{ operation: "update_page", page: "a11", markdown: "Edited" }])
    // The path to the page is new; everything beside it is the base's.
    assert.notStrictEqual(edited.pages, tree.pages)
    assert.notStrictEqual(edited.pages[0], a)
    assert.notStrictEqual(edited.pages[0]!.pages[0]!.pages[0], a.pages[0]!.pages[0])
    assert.strictEqual(edited.pages[0]!.pages[1], a.pages[1])
    assert.strictEqual(edited.pages[1], b)
    assert.strictEqual(edited.files, tree.files)
    const inserted = apply([{ operation: "insert_page", markdown: "New", into: "b1" }])
    assert.strictEqual(inserted.pages[0], a)
    assert.deepStrictEqual(shape(inserted.pages[1]!.pages), [["b1", [["new", []]]]])
    const deleted = apply([{ operation: "delete_page", page: "a1" }])
    assert.strictEqual(deleted.pages[0]!.pages[0], a.pages[1])
    assert.strictEqual(deleted.pages[1], b)
    assert.deepStrictEqual(deleted.outcomes.map((o) => [o.kind, o.pageId]), [["deleted", "a1"], ["deleted", "a11"]])
    // A batch that changes nothing gives the base tree back.
    const looked = apply([{ operation: "insert_page", markdown: "x", ref: "r" }, { operation: "delete_page", page: "r" }])
    assert.strictEqual(looked.pages, tree.pages)
  })
})
