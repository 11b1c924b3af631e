/** What a write shares with its parent: the pages and files it kept, as the parent's own objects, whatever its builder copied. */
import { assert, describe, it } from "@effect/vitest"
import type { FileNode, PageNode } from "../src/domain/Revision.ts"
import { sameShapeChanges, shareFiles, sharePages, treeChanges } from "../src/domain/TreeDiff.ts"

const stamp = "2024-01-01T00:00:00.000Z"
const page = (id: string, pages: ReadonlyArray<PageNode> = [], extra: Partial<PageNode> = {}): PageNode => ({
  id, type: "group", title: id.toUpperCase(), slug: id, createdAt: stamp, updatedAt: stamp, ...extra, pages
})
const file = (id: string, size: number): FileNode => ({ id, name: `${id}.png`, contentType: "image/png", size, dimensions: { width: 1, height: 2 }, blob: id.repeat(8) })
const tree = (): ReadonlyArray<PageNode> => [
  page("a", [page("a1", [page("a1x"), page("a1y", [], { frontmatter: { tags: ["x", "y"] } })]), page("a2")]),
  page("b", [page("b1"), page("b2")]),
  page("c")
]

describe("sharing a write's tree with its parent", () => {
  it("gives back the parent itself when a builder copied every node and changed nothing", () => {
    const parent = tree()
    assert.strictEqual(sharePages(parent, structuredClone(parent)), parent)
    // An absent optional field is the same as one set to undefined.
    const copied = structuredClone(parent).map((p, i) => i === 2 ? { ...p, emoji: undefined } : p)
    assert.strictEqual(sharePages(parent, copied), parent)
  })

  it("keeps the parent's subtrees beside an edit, and the edited path new and equal to what was built", () => {
    const parent = tree()
    const built = structuredClone(parent).map((p) => p.id === "a" ? { ...p, pages: p.pages.map((c) => c.id === "a1" ? { ...c, pages: [c.pages[0]!, { ...c.pages[1]!, title: "Edited" }] } : c) } : p)
    const shared = sharePages(parent, built)
    assert.deepStrictEqual(shared, built)
    assert.strictEqual(shared[1], parent[1])
    assert.strictEqual(shared[2], parent[2])
    assert.notStrictEqual(shared[0], parent[0])
    assert.strictEqual(shared[0]!.pages[1], parent[0]!.pages[1])
    assert.strictEqual(shared[0]!.pages[0]!.pages[0], parent[0]!.pages[0]!.pages[0])
    assert.deepStrictEqual(sameShapeChanges(parent, shared)?.map((c) => c.after.id), ["a1y"])
  })

  it("shares pages that moved among their siblings, and leaves new, moved-away and changed ones as built", () => {
    const parent = tree()
    const built = [page("c"), page("b", [page("b2"), page("new"), page("b1", [], { frontmatter: { tags: ["y", "x"] } })]), structuredClone(parent[0]!)]
    const shared = sharePages(parent, built)
    assert.deepStrictEqual(shared, built)
    assert.strictEqual(shared[0], parent[2])
    assert.strictEqual(shared[2], parent[0])
    assert.strictEqual(shared[1]!.pages[0], parent[1]!.pages[1])
    assert.strictEqual(shared[1]!.pages[1], built[1]!.pages[1])
    assert.notStrictEqual(shared[1]!.pages[2], parent[1]!.pages[0])
  })

  it("shares the files a write kept, and the list itself when nothing changed", () => {
    const parent = [file("f1", 1), file("f2", 2)]
    assert.strictEqual(shareFiles(parent, structuredClone(parent)), parent)
    const shared = shareFiles(parent, [{ ...file("f2", 3) }, file("f1", 1), file("f3", 3)])
    assert.deepStrictEqual(shared.map((f) => f.size), [3, 1, 3])
    assert.strictEqual(shared[1], parent[0])
    assert.notStrictEqual(shared[0], parent[1])
  })
})

const ids = (entries: ReadonlyArray<{ readonly page: PageNode }> | undefined) => entries?.map(({ page }) => page.id)

describe("what a write changed, found along what it touched", () => {
  it("names the pages inserted, removed and edited without looking into the subtrees the write kept", () => {
    const parent = tree()
    // A kept subtree that would throw if the diff read it: it is skipped by identity.
    const untouchable = new Proxy(parent[1]!, { get: (target, key) => key === "pages" || key === "id" ? Reflect.get(target, key) : assert.fail(`read ${String(key)}`) })
    const before = [parent[0]!, untouchable, parent[2]!]
    const a = parent[0]!
    const after = [
      page("new", [page("new1")]),
      { ...a, pages: [{ ...a.pages[0]!, title: "Edited" }] },
      untouchable,
      parent[2]!
    ]
    const changes = treeChanges(before, after)
    assert.deepStrictEqual(ids(changes?.added), ["new", "new1"])
    assert.deepStrictEqual(changes?.added.map(({ path }) => path), ["new", "new/new1"])
    assert.deepStrictEqual(ids(changes?.removed), ["a2"])
    assert.deepStrictEqual(changes?.changed.map(({ after: page, path }) => [page.id, path]), [["a1", "a/a1"]])
    assert.deepStrictEqual(changes?.lists, [after])
    assert.deepStrictEqual(changes?.leaves, [])
  })

  it("gives up on a page that moved, among its siblings or to another parent", () => {
    const parent = tree()
    const [a, b, c] = parent as [PageNode, PageNode, PageNode]
    assert.strictEqual(treeChanges(parent, [b, a, c]), undefined)
    assert.strictEqual(treeChanges(parent, [{ ...a, pages: [a.pages[0]!] }, b, { ...c, pages: [a.pages[1]!] }]), undefined)
    // A first subpage or a last one gone is named: the page's file moves into or out of a folder.
    assert.deepStrictEqual(treeChanges(parent, [a, b, { ...c, pages: [page("c1")] }])?.leaves.map((p) => p.id), ["c"])
    assert.deepStrictEqual(treeChanges(parent, parent), { changed: [], added: [], removed: [], leaves: [], lists: [] })
  })
})

describe("what sharing counts as equal", () => {
  // Records of plain values are compared without JSON; the answer must be JSON's.
  class Git {
    constructor(readonly oid: string, readonly path: string) {}
  }
  const values: ReadonlyArray<unknown> = [
    { oid: "1", path: "a.md" }, { path: "a.md", oid: "1" }, { oid: "1", path: "a.md", extra: undefined }, { oid: "1" }, { oid: "2", path: "a.md" },
    { oid: 1, path: "a.md" }, { oid: -0, path: "a.md" }, { oid: 0, path: "a.md" }, { oid: Number.NaN, path: "a.md" }, { oid: null, path: "a.md" },
    { oid: "1", path: { nested: true } }, { oid: "1", path: ["a.md"] }, ["1", "a.md"], new Git("1", "a.md"), { oid: "1", path: "a.md", toJSON: () => "x" },
    Object.assign(Object.create(null), { oid: "1", path: "a.md" }), { 1: "x", 0: "y" }, { 0: "y", 1: "x" }, { oid: true, path: "a.md" }
  ]

  it("shares a page whose record field is what JSON writes the parent's as, and only then", () => {
    for (const [i, before] of values.entries()) {
      for (const [j, after] of values.entries()) {
        const parent = [page("p", [], { git: before as PageNode["git"] })]
        const built = [page("p", [], { git: after as PageNode["git"] })]
        const same = JSON.stringify(before) === JSON.stringify(after)
        assert.strictEqual(sharePages(parent, built) === parent, same, `${i} ${JSON.stringify(before)} / ${j} ${JSON.stringify(after)}`)
      }
    }
  })
})
