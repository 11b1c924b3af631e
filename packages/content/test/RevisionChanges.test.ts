/** What a revision changed from another: pages by id (created, edited, moved, deleted), files, variables, line diffs. */
import { assert, describe, it } from "@effect/vitest"
import { type Contents, compare, emptyContents, lineDiff } from "../src/RevisionChanges.ts"
import type { FileNode, PageNode } from "../src/domain/Revision.ts"

const at = "2026-01-01T00:00:00.000Z"

const page = (id: string, fields: Partial<PageNode> = {}): PageNode => ({
  id,
  type: "document",
  title: id.toUpperCase(),
  slug: id,
  document: `hash-${id}`,
  createdAt: at,
  updatedAt: at,
  pages: [],
  ...fields
})

const file = (id: string, fields: Partial<FileNode> = {}): FileNode => ({
  id,
  name: `${id}.png`,
  contentType: "image/png",
  size: 10,
  blob: `blob-${id}`,
  ...fields
})

const contents = (pages: ReadonlyArray<PageNode>, files: ReadonlyArray<FileNode> = [], variables: Record<string, string> = {}): Contents => ({
  pages,
  files,
  variables
})

describe("RevisionChanges.compare", () => {
  it("finds nothing between equal revisions", () => {
    const tree = contents([page("a", { pages: [page("b")] })], [file("f")], { v: "1" })
    assert.deepStrictEqual(compare(tree, tree), [])
  })

  it("lists every page and file of a first revision as created, in tree order", () => {
    const changes = compare(emptyContents, contents([page("a", { pages: [page("b")] }), page("c")], [file("f")]))
    assert.deepStrictEqual(changes.map((c) => [c.type, "page" in c ? c.page.path : "file" in c ? c.file.id : ""]), [
      ["page_created", "a"],
      ["page_created", "a/b"],
      ["page_created", "c"],
      ["file_created", "f"]
    ])
  })

  it("reports a deleted page with the path it had", () => {
    const changes = compare(contents([page("a", { pages: [page("b")] })]), contents([page("a")]))
    assert.deepStrictEqual(changes, [{ type: "page_deleted", page: { id: "b", type: "document", title: "B", path: "a/b" } }])
  })

  it("names the attributes an edit changed, with their values before and after", () => {
    const changes = compare(
      contents([page("a", { description: "old" }), page("g", { type: "group", document: undefined }), page("l", { type: "link", document: undefined, target: { kind: "url", url: "https://a.example" } })]),
      contents([
        page("a", { title: "Renamed", document: "hash-a2", emoji: "1f600", description: "old" }),
        page("g", { type: "group", document: undefined, slug: "group" }),
        page("l", { type: "link", document: undefined, target: { kind: "url", url: "https://b.example" } })
      ])
    )
    assert.deepStrictEqual(changes, [
      {
        type: "page_edited",
        page: { id: "a", type: "document", title: "Renamed", path: "a" },
        pathBefore: "a",
        attributes: { title: { before: "A", after: "Renamed" }, emoji: { after: "1f600" }, document: { before: "hash-a", after: "hash-a2" } }
      },
      {
        type: "page_edited",
        page: { id: "g", type: "group", title: "G", path: "group" },
        pathBefore: "g",
        attributes: { slug: { before: "g", after: "group" } }
      },
      {
        type: "page_edited",
        page: { id: "l", type: "link", title: "L", path: "l" },
        pathBefore: "l",
        attributes: { target: { before: { kind: "url", url: "https://a.example" }, after: { kind: "url", url: "https://b.example" } } }
      }
    ])
  })

  it("does not count a change of key order or an empty layout as an edit", () => {
    const changes = compare(
      contents([page("a", { layout: { width: "wide", title: true }, variables: {} })]),
      contents([page("a", { layout: { title: true, width: "wide" } })])
    )
    assert.deepStrictEqual(changes, [])
  })

  it("reports a page under another parent as moved, with both parents, and its edit beside", () => {
    const changes = compare(
      contents([page("a", { pages: [page("b")] }), page("c")]),
      contents([page("a"), page("c", { pages: [page("b", { title: "Bee" })] })])
    )
    assert.deepStrictEqual(changes, [
      {
        type: "page_moved",
        page: { id: "b", type: "document", title: "Bee", path: "c/b" },
        parent: { before: { id: "a", type: "document", title: "A", path: "a" }, after: { id: "c", type: "document", title: "C", path: "c" } }
      },
      { type: "page_edited", page: { id: "b", type: "document", title: "Bee", path: "c/b" }, pathBefore: "a/b", attributes: { title: { before: "B", after: "Bee" } } }
    ])
  })

  it("reports only the page that changed place among its siblings, not those an insert or a delete shifted", () => {
    const before = contents([page("a"), page("b"), page("c"), page("d")])
    const moved = compare(before, contents([page("a"), page("c"), page("d"), page("b")]))
    assert.deepStrictEqual(moved.map((c) => [c.type, "page" in c ? c.page.id : ""]), [["page_moved", "b"]])
    const moveParent = moved[0]
    assert.deepStrictEqual(moveParent?.type === "page_moved" ? moveParent.parent : undefined, {})

    const shifted = compare(before, contents([page("n"), page("a"), page("c"), page("d")]))
    assert.deepStrictEqual(shifted.map((c) => [c.type, "page" in c ? c.page.id : ""]), [["page_created", "n"], ["page_deleted", "b"]])
  })

  it("reports files created, edited (which attributes) and deleted, and variables edited", () => {
    const changes = compare(
      contents([], [file("keep"), file("edit"), file("gone")], { product: "Quire", old: "x" }),
      contents([], [file("keep"), file("edit", { name: "renamed.png", blob: "blob-2", size: 20 }), file("new")], { product: "Quire 2", added: "y" })
    )
    assert.deepStrictEqual(changes.map((c) => c.type), ["file_edited", "file_created", "file_deleted", "variables_edited"])
    const edited = changes[0]
    assert.deepStrictEqual(edited?.type === "file_edited" ? [edited.before.name, edited.file.name, edited.attributes] : [], [
      "edit.png",
      "renamed.png",
      ["name", "size", "blob"]
    ])
    const variables = changes[3]
    assert.deepStrictEqual(variables?.type === "variables_edited" ? variables.variables : {}, {
      product: { before: "Quire", after: "Quire 2" },
      old: { before: "x" },
      added: { after: "y" }
    })
  })
})

describe("RevisionChanges.lineDiff", () => {
  it("is a unified diff of the markdown with the page's paths", () => {
    const diff = lineDiff("guides/setup", "guides/install", "# Setup\n\nOne\nTwo\nThree\n", "# Setup\n\nOne\n2\nThree\n")
    assert.strictEqual(
      diff,
      [
        "--- a/guides/setup.md",
        "+++ b/guides/install.md",
        "@@ -1,5 +1,5 @@",
        " # Setup",
        " ",
        " One",
        "-Two",
        "+2",
        " Three",
        ""
      ].join("\n")
    )
    assert.strictEqual(lineDiff("a", "a", "same\n", "same\n"), "")
  })
})

describe("RevisionChanges.compare on wide trees", () => {
  // Its time is measured by `pnpm bench --unit` (goal: under 2 s), not here.
  it("finds the one page moved among 20,000 siblings", () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `p${i}`)
    const before = contents(ids.map((id) => page(id)))
    const reordered = [...ids.slice(0, 100), ...ids.slice(101, 15_000), ids[100]!, ...ids.slice(15_000)]
    const changes = compare(before, contents(reordered.map((id) => page(id))))
    assert.deepStrictEqual(changes.map((c) => [c.type, "page" in c ? c.page.id : ""]), [["page_moved", "p100"]])
  })
})
