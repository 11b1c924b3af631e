/** Three-way merges of page trees, files and markdown. */
import { assert, describe, it } from "@effect/vitest"
import { documentHash, type FileNode, type PageNode } from "@quire/content"
import { Workloads } from "@quire/testkit"
import { conflictKey, type MergeConflict, type MergeSide, mergeText, type Resolution, resolutionLines, threeWayMerge } from "../src/ThreeWayMerge.ts"

const documents = new Map<string, string>()
const doc = (markdown: string) => {
  const hash = documentHash(markdown)
  documents.set(hash, markdown)
  return hash
}

const page = (id: string, pages: ReadonlyArray<PageNode> = [], extra: Partial<PageNode> = {}): PageNode => ({
  id,
  type: "document",
  title: id.toUpperCase(),
  slug: id,
  document: doc(`# ${id}\n\nfirst\n\nsecond\n\nthird`),
  createdAt: "t0",
  updatedAt: "t0",
  pages,
  ...extra
})

const file = (id: string, extra: Partial<FileNode> = {}): FileNode => ({ id, name: `${id}.png`, contentType: "image/png", size: 1, blob: id, ...extra })

const side = (pages: ReadonlyArray<PageNode>, files: ReadonlyArray<FileNode> = []): MergeSide => ({ pages, files })

const base = side([page("a", [page("a1"), page("a2")]), page("b"), page("c")], [file("f")])

const merge = (ours: MergeSide, theirs: MergeSide, from: MergeSide = base) => threeWayMerge({ base: from, ours, theirs, documents })

const shape = (pages: ReadonlyArray<PageNode>): unknown => pages.map((p) => (p.pages.length === 0 ? p.id : [p.id, shape(p.pages)]))

const merged = (result: ReturnType<typeof merge>) => {
  if (result.kind !== "merged") assert.fail(`expected a clean merge, got ${JSON.stringify(result.conflicts)}`)
  return result
}
const conflicts = (result: ReturnType<typeof merge>) => {
  if (result.kind !== "conflicts") return assert.fail("expected conflicts")
  return result.conflicts
}

const find = (pages: ReadonlyArray<PageNode>, id: string): PageNode | undefined => {
  for (const p of pages) {
    if (p.id === id) return p
    const inner = find(p.pages, id)
    if (inner !== undefined) return inner
  }
  return undefined
}

const markdownOf = (result: ReturnType<typeof merged>, id: string) => {
  const hash = find(result.pages, id)!.document!
  return result.newDocuments.get(hash) ?? documents.get(hash)
}

/** `base` with page `id` replaced by `f(page)`. */
const edit = (pages: ReadonlyArray<PageNode>, id: string, f: (p: PageNode) => PageNode | undefined): ReadonlyArray<PageNode> =>
  pages.flatMap((p) => {
    const inner = { ...p, pages: edit(p.pages, id, f) }
    if (p.id !== id) return [inner]
    const next = f(inner)
    return next === undefined ? [] : [next]
  })

const text = (first: string, third: string) => `# b\n\n${first}\n\nsecond\n\n${third}`

const withText = (id: string, markdown: string) => (p: PageNode) => ({ ...p, document: doc(markdown), updatedAt: "t1" })

describe("ThreeWayMerge", () => {
  it("takes the only changed side, and keeps unchanged content as is", () => {
    const theirs = side(edit(base.pages, "b", (p) => ({ ...p, title: "Bee" })), base.files)
    const result = merged(merge(base, theirs))
    assert.strictEqual(find(result.pages, "b")!.title, "Bee")
    assert.deepStrictEqual(shape(result.pages), shape(base.pages))
    assert.strictEqual(result.newDocuments.size, 0)
  })

  it("keeps inserts of both sides, each where its side put it", () => {
    const ours = side([...base.pages, page("o1")], base.files)
    const theirs = side(edit(base.pages, "a", (p) => ({ ...p, pages: [page("t1"), ...p.pages] })), base.files)
    assert.deepStrictEqual(shape(merged(merge(ours, theirs)).pages), [["a", ["t1", "a1", "a2"]], "b", "c", "o1"])
  })

  it("applies a delete when the other side did not touch the page", () => {
    const ours = side(edit(base.pages, "b", () => undefined), base.files)
    const theirs = side(edit(base.pages, "c", (p) => ({ ...p, title: "See" })), base.files)
    const result = merged(merge(ours, theirs))
    assert.deepStrictEqual(shape(result.pages), [["a", ["a1", "a2"]], "c"])
    assert.strictEqual(find(result.pages, "c")!.title, "See")
  })

  it("deletes a page with its subpages when nobody touched them", () => {
    const theirs = side(edit(base.pages, "a", () => undefined), base.files)
    assert.deepStrictEqual(shape(merged(merge(base, theirs)).pages), ["b", "c"])
  })

  it("reports a delete on one side of a page edited on the other", () => {
    const ours = side(edit(base.pages, "b", (p) => ({ ...p, emoji: "🐝" })), base.files)
    const theirs = side(edit(base.pages, "b", () => undefined), base.files)
    const found = conflicts(merge(ours, theirs))
    assert.deepStrictEqual(found.map((c) => [c.pageId, c.kind, c.path, c.ours, c.theirs]), [["b", "delete-edit", "b", "edited", "null"]])
  })

  it("reports a delete of a parent whose subpage the other side edited", () => {
    const ours = side(edit(base.pages, "a", () => undefined), base.files)
    const theirs = side(edit(base.pages, "a2", withText("a2", "new")), base.files)
    assert.deepStrictEqual(conflicts(merge(ours, theirs)).map((c) => [c.pageId, c.kind]), [["a2", "delete-edit"]])
  })

  it("reports an insert under a page deleted on the other side", () => {
    const ours = side(edit(base.pages, "b", () => undefined), base.files)
    const theirs = side(edit(base.pages, "b", (p) => ({ ...p, pages: [page("new")] })), base.files)
    const found = conflicts(merge(ours, theirs))
    assert.deepStrictEqual(found.map((c) => [c.pageId, c.kind, c.field, c.theirs]), [["b", "delete-edit", "pages", "new"]])
  })

  it("deletes on both sides are one delete", () => {
    const ours = side(edit(base.pages, "c", () => undefined), base.files)
    assert.deepStrictEqual(shape(merged(merge(ours, ours)).pages), [["a", ["a1", "a2"]], "b"])
  })

  it("merges metadata field by field: different fields, or the same change, are clean", () => {
    const ours = side(edit(base.pages, "b", (p) => ({ ...p, title: "Bee", hidden: true })), base.files)
    const theirs = side(edit(base.pages, "b", (p) => ({ ...p, emoji: "🐝", hidden: true, description: "A page" })), base.files)
    const b = find(merged(merge(ours, theirs)).pages, "b")!
    assert.deepStrictEqual([b.title, b.emoji, b.hidden, b.description], ["Bee", "🐝", true, "A page"])
  })

  it("reports different changes to one metadata field with both values", () => {
    const ours = side(edit(base.pages, "b", (p) => ({ ...p, title: "Bee", slug: "bee" })), base.files)
    const theirs = side(edit(base.pages, "b", (p) => ({ ...p, title: "Bea", slug: "bee" })), base.files)
    const found = conflicts(merge(ours, theirs))
    assert.deepStrictEqual(found.map((c) => [c.pageId, c.kind, c.field, c.ours, c.theirs]), [["b", "metadata", "title", "\"Bee\"", "\"Bea\""]])
  })

  it("reports a field removed on one side and changed on the other", () => {
    const from = side(edit(base.pages, "c", (p) => ({ ...p, icon: "star" })), base.files)
    const ours = side(edit(from.pages, "c", (p) => ({ ...p, icon: undefined })), base.files)
    const theirs = side(edit(from.pages, "c", (p) => ({ ...p, icon: "moon" })), base.files)
    assert.deepStrictEqual(conflicts(merge(ours, theirs, from)).map((c) => [c.kind, c.field, c.ours, c.theirs]), [["metadata", "icon", "null", "\"moon\""]])
  })

  it("merges a move on one side with an edit on the other", () => {
    const ours = side(edit(base.pages, "a2", withText("a2", "# a2\n\nchanged")), base.files)
    const moved = edit(base.pages, "a2", () => undefined)
    const theirs = side([...moved, find(base.pages, "a2")!], base.files)
    const result = merged(merge(ours, theirs))
    assert.deepStrictEqual(shape(result.pages), [["a", ["a1"]], "b", "c", "a2"])
    assert.strictEqual(markdownOf(result, "a2"), "# a2\n\nchanged")
  })

  it("reports a page moved to different parents on each side", () => {
    const c = find(base.pages, "c")!
    const withoutC = edit(base.pages, "c", () => undefined)
    const ours = side(edit(withoutC, "a", (p) => ({ ...p, pages: [...p.pages, c] })), base.files)
    const theirs = side(edit(withoutC, "b", (p) => ({ ...p, pages: [c] })), base.files)
    assert.deepStrictEqual(conflicts(merge(ours, theirs)).map((c) => [c.pageId, c.kind, c.field, c.ours, c.theirs]), [
      ["c", "structure", "parent", "\"a\"", "\"b\""]
    ])
  })

  it("reports moves that would make a page its own ancestor", () => {
    const [a, b] = [find(base.pages, "a")!, find(base.pages, "b")!]
    const ours = side([{ ...a, pages: [...a.pages, b] }, find(base.pages, "c")!], base.files)
    const theirs = side([{ ...b, pages: [a] }, find(base.pages, "c")!], base.files)
    const found = conflicts(merge(ours, theirs))
    assert.isTrue(found.every((c) => c.kind === "structure" && c.field === "parent"))
    assert.deepStrictEqual(found.map((c) => c.pageId).toSorted(), ["a", "b"])
  })

  it("follows the side that reordered siblings, keeping the other side's inserts", () => {
    const [a, b, c] = base.pages as [PageNode, PageNode, PageNode]
    const ours = side([a, b, c, page("o1")], base.files)
    const theirs = side([c, a, b], base.files)
    assert.deepStrictEqual(shape(merged(merge(ours, theirs)).pages), ["c", ["a", ["a1", "a2"]], "b", "o1"])
  })

  it("keeps ours' order when both reordered, plus theirs' inserted pages before their successor", () => {
    const [a, b, c] = base.pages as [PageNode, PageNode, PageNode]
    const ours = side([b, a, c], base.files)
    const theirs = side([c, page("t1"), b, a], base.files)
    assert.deepStrictEqual(shape(merged(merge(ours, theirs)).pages), ["t1", "b", ["a", ["a1", "a2"]], "c"])
  })

  it("reports two pages given the same slug under one parent", () => {
    const ours = side([...base.pages, page("o1", [], { slug: "intro" })], base.files)
    const theirs = side([...base.pages, page("t1", [], { slug: "intro" })], base.files)
    assert.deepStrictEqual(conflicts(merge(ours, theirs)).map((c) => [c.kind, c.field]), [["structure", "slug"]])
  })

  it("merges non-overlapping line edits of one page", () => {
    const from = side(edit(base.pages, "b", withText("b", text("first", "third"))), base.files)
    const ours = side(edit(from.pages, "b", withText("b", text("FIRST", "third"))), base.files)
    const theirs = side(edit(from.pages, "b", withText("b", text("first", "THIRD"))), base.files)
    const result = merged(merge(ours, theirs, from))
    assert.strictEqual(markdownOf(result, "b"), text("FIRST", "THIRD"))
    assert.strictEqual(result.newDocuments.size, 1)
    assert.strictEqual(find(result.pages, "b")!.document, documentHash(text("FIRST", "THIRD")))
  })

  it("the same edit on both sides is clean", () => {
    const ours = side(edit(base.pages, "b", withText("b", "same")), base.files)
    const result = merged(merge(ours, ours))
    assert.strictEqual(markdownOf(result, "b"), "same")
  })

  it("reports overlapping different line edits with their hunks", () => {
    const ours = side(edit(base.pages, "a1", withText("a1", "# a1\n\nfirst\n\nsecond (main)\n\nthird")), base.files)
    const theirs = side(edit(base.pages, "a1", withText("a1", "# a1\n\nfirst\n\nsecond (cr)\n\nthird")), base.files)
    const found = conflicts(merge(ours, theirs))
    assert.deepStrictEqual(found.map((c) => [c.pageId, c.path, c.kind]), [["a1", "a/a1", "content"]])
    assert.deepStrictEqual(found[0]!.hunks, [{ base: "second", ours: "second (main)", theirs: "second (cr)" }])
  })

  it("reports every conflict of a merge, not just the first", () => {
    const ours = side(edit(edit(base.pages, "b", (p) => ({ ...p, title: "O" })), "c", withText("c", "o")), base.files)
    const theirs = side(edit(edit(base.pages, "b", (p) => ({ ...p, title: "T" })), "c", withText("c", "t")), base.files)
    assert.deepStrictEqual(conflicts(merge(ours, theirs)).map((c) => [c.pageId, c.kind]), [["b", "metadata"], ["c", "content"]])
  })

  it("merges files by id: inserts, deletes and metadata; reports conflicting edits", () => {
    const ours = side(base.pages, [file("f", { name: "logo.png" }), file("g")])
    const theirs = side(base.pages, [file("f"), file("h")])
    const result = merged(merge(ours, theirs))
    assert.deepStrictEqual(result.files.map((f) => [f.id, f.name]), [["f", "logo.png"], ["g", "g.png"], ["h", "h.png"]])
    const deleted = side(base.pages, [])
    assert.deepStrictEqual(conflicts(merge(ours, deleted)).map((c) => [c.fileId, c.kind]), [["f", "delete-edit"]])
    const renamed = side(base.pages, [file("f", { name: "other.png" })])
    assert.deepStrictEqual(conflicts(merge(ours, renamed)).map((c) => [c.fileId, c.kind, c.field]), [["f", "metadata", "name"]])
    assert.deepStrictEqual(merged(merge(side(base.pages, []), side(base.pages, [file("f")]))).files, [])
  })

  it("mergeText: clean when edits are apart, hunks when they overlap", () => {
    assert.deepStrictEqual(mergeText("a\nb\nc\nd\ne", "A\nb\nc\nd\ne", "a\nb\nc\nd\nE"), { ok: true, text: "A\nb\nc\nd\nE" })
    const overlapping = mergeText("a\nb", "a\nb\nours", "a\nb\ntheirs")
    assert.deepStrictEqual(overlapping.ok ? overlapping : overlapping.hunks, [{ base: "", ours: "ours", theirs: "theirs" }])
  })

  // Their times are measured by `pnpm bench --unit` (goals: under 10 s and 1 s), not here.
  it("mergeText: a long page merges, and one of thousands of repeated lines is one conflict", () => {
    // 5,000 paragraphs (and as many identical blank lines) edited near each end: this took minutes.
    const base = Workloads.longPage()
    const ours = base.replace("Paragraph 10:", "Paragraph ten:")
    const theirs = base.replace("Paragraph 4990:", "Paragraph near the end:")
    const merged = mergeText(base, ours, theirs)
    assert.deepStrictEqual(merged, { ok: true, text: ours.replace("Paragraph 4990:", "Paragraph near the end:") })

    const repeated = Array.from({ length: 5_000 }, () => "Same line.").join("\n")
    const refused = mergeText(repeated, `Ours.\n${repeated}`, `${repeated}\nTheirs.`)
    assert.deepStrictEqual(refused.ok ? refused : refused.hunks, [{ base: repeated, ours: `Ours.\n${repeated}`, theirs: `${repeated}\nTheirs.` }])
  })
})

/** The merge again, with each conflict (by id) settled as `choose` says. */
const resolved = (ours: MergeSide, theirs: MergeSide, choose: (c: MergeConflict) => Resolution, from: MergeSide = base) => {
  const found = conflicts(merge(ours, theirs, from))
  const resolutions = new Map(found.map((c) => [conflictKey(c), choose(c)]))
  return threeWayMerge({ base: from, ours, theirs, documents, resolutions })
}

describe("ThreeWayMerge with resolutions", () => {
  const from = side(edit(base.pages, "b", withText("b", "one\ntwo\nthree\nfour\nfive\nsix\nseven")), base.files)
  const ours = side(edit(from.pages, "b", withText("b", "one (main)\ntwo\nthree\nfour\nfive (main)\nsix\nseven")), base.files)
  const theirs = side(edit(from.pages, "b", withText("b", "one (cr)\ntwo\nthree (cr)\nfour\nfive (cr)\nsix\nseven")), base.files)

  it("numbers conflicts c1, c2, … and reports one content conflict per overlapping hunk", () => {
    const found = conflicts(merge(ours, theirs, from))
    assert.deepStrictEqual(found.map((c) => [c.id, c.pageId, c.kind, c.hunk, c.hunks]), [
      ["c1", "b", "content", 0, [{ base: "one", ours: "one (main)", theirs: "one (cr)" }]],
      ["c2", "b", "content", 1, [{ base: "five", ours: "five (main)", theirs: "five (cr)" }]]
    ])
    // Each shows the merged lines around it (the change request's clean edit included).
    assert.deepStrictEqual(found.map((c) => c.context), [
      { before: [], after: ["two", "three (cr)"] },
      { before: ["three (cr)", "four"], after: ["six", "seven"] }
    ])
  })

  it("a hunk takes main's lines, the change request's, or markdown; the other edits of both sides stay", () => {
    const result = merged(resolved(ours, theirs, (c) => (c.hunk === 0 ? { markdown: "one (main and cr)\n" } : { side: "theirs" }), from))
    assert.strictEqual(markdownOf(result, "b"), "one (main and cr)\ntwo\nthree (cr)\nfour\nfive (cr)\nsix\nseven")
    const mains = merged(resolved(ours, theirs, () => ({ side: "ours" }), from))
    assert.strictEqual(markdownOf(mains, "b"), "one (main)\ntwo\nthree (cr)\nfour\nfive (main)\nsix\nseven")
    // Empty markdown removes the hunk's lines.
    const removed = merged(resolved(ours, theirs, (c) => (c.hunk === 0 ? { markdown: "" } : { side: "ours" }), from))
    assert.strictEqual(markdownOf(removed, "b"), "two\nthree (cr)\nfour\nfive (main)\nsix\nseven")
  })

  it("a conflict left without a resolution is still reported, with its id", () => {
    const found = conflicts(merge(ours, theirs, from))
    const partial = threeWayMerge({ base: from, ours, theirs, documents, resolutions: new Map([[conflictKey(found[0]!), { side: "ours" }]]) })
    assert.deepStrictEqual(conflicts(partial).map((c) => [c.id, c.hunk]), [["c1", 1]])
  })

  it("metadata and parents take the chosen side", () => {
    const c = find(base.pages, "c")!
    const withoutC = edit(base.pages, "c", () => undefined)
    const o = side(edit(edit(withoutC, "a", (p) => ({ ...p, pages: [...p.pages, c] })), "b", (p) => ({ ...p, title: "Main" })), base.files)
    const t = side(edit(edit(withoutC, "b", (p) => ({ ...p, pages: [c], title: "Mine" })), "a1", (p) => ({ ...p, emoji: "x" })), base.files)
    assert.deepStrictEqual(conflicts(merge(o, t)).map((c) => [c.id, c.pageId, c.kind, c.field]), [["c1", "c", "structure", "parent"], ["c2", "b", "metadata", "title"]])
    const taken = merged(resolved(o, t, (c) => ({ side: c.kind === "metadata" ? "theirs" : "ours" })))
    assert.deepStrictEqual(shape(taken.pages), [["a", ["a1", "a2", "c"]], "b"])
    assert.deepStrictEqual([find(taken.pages, "b")!.title, find(taken.pages, "a1")!.emoji], ["Mine", "x"])
  })

  it("a page deleted on one side and edited on the other is deleted or kept as the chosen side has it", () => {
    const o = side(edit(base.pages, "b", (p) => ({ ...p, emoji: "🐝" })), base.files)
    const t = side(edit(base.pages, "b", () => undefined), base.files)
    assert.deepStrictEqual(shape(merged(resolved(o, t, () => ({ side: "theirs" }))).pages), [["a", ["a1", "a2"]], "c"])
    const kept = merged(resolved(o, t, () => ({ side: "ours" })))
    assert.deepStrictEqual([shape(kept.pages), find(kept.pages, "b")!.emoji], [[["a", ["a1", "a2"]], "b", "c"], "🐝"])
  })

  it("a page put under one the other side deleted: the deleting side removes it, the other keeps the parent", () => {
    const o = side(edit(base.pages, "b", () => undefined), base.files)
    const t = side(edit(base.pages, "b", (p) => ({ ...p, pages: [page("new")] })), base.files)
    assert.deepStrictEqual(shape(merged(resolved(o, t, () => ({ side: "ours" }))).pages), [["a", ["a1", "a2"]], "c"])
    assert.deepStrictEqual(shape(merged(resolved(o, t, () => ({ side: "theirs" }))).pages), [["a", ["a1", "a2"]], ["b", ["new"]], "c"])
  })

  it("files: a delete against an edit, and a metadata field, take the chosen side", () => {
    const o = side(base.pages, [file("f", { name: "logo.png" })])
    const t = side(base.pages, [])
    assert.deepStrictEqual(merged(resolved(o, t, () => ({ side: "theirs" }))).files, [])
    assert.deepStrictEqual(merged(resolved(o, t, () => ({ side: "ours" }))).files.map((f) => f.name), ["logo.png"])
    const renamed = side(base.pages, [file("f", { name: "other.png" })])
    assert.deepStrictEqual(merged(resolved(o, renamed, () => ({ side: "theirs" }))).files.map((f) => f.name), ["other.png"])
  })

  it("resolutionLines: empty markdown is no line, a final line break is not a line of its own, CRLF is LF", () => {
    assert.deepStrictEqual([resolutionLines(""), resolutionLines("a\n"), resolutionLines("a\n\nb"), resolutionLines("a\n\n"), resolutionLines("a\r\nb\r\n")], [[], ["a"], ["a", "", "b"], ["a", ""], ["a", "b"]])
  })
})
