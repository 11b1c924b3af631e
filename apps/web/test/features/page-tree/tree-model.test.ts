import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ChangeRequestContentChange, type RevisionPage } from "@quire/api"
import { Schema } from "effect"
// The server's own batch semantics: what the emitted changes do on the change request.
import { applyChanges, type Change } from "../../../../../packages/reviews/src/ChangeSet.ts"
import {
  addPage,
  contentRequest,
  drop,
  type EditResult,
  find,
  flatten,
  fromApi,
  indentOf,
  move,
  moveChoices,
  outdentOf,
  remove,
  rename,
  stepOf,
  type Tree,
  type TreePage
} from "../../../src/features/page-tree/tree-model.ts"

const page = (id: string, type: RevisionPage["type"], pages: Array<RevisionPage> = []): RevisionPage => ({
  id,
  title: id.toUpperCase(),
  kind: type === "document" ? "sheet" : type,
  type,
  slug: id,
  path: id,
  hidden: false,
  ...(type === "link" ? { target: { kind: "url" as const, url: "https://example.com" } } : {}),
  pages
})

// Getting started (group) › intro, install › (install-linux); Guides (group) › guide; faq; changelog (link).
const api: Array<RevisionPage> = [
  page("start", "group", [page("intro", "document"), page("install", "document", [page("linux", "document")])]),
  page("guides", "group", [page("guide", "document")]),
  page("faq", "document"),
  page("changelog", "link")
]
const tree = fromApi(api)

const shape = (t: Tree): unknown => t.map((p) => p.children.length ? { [p.id]: shape(p.children) } : p.id)

const ok = (result: EditResult) => {
  if (!result.ok) throw new Error(result.reason)
  return result
}

describe("page tree model", () => {
  it("reads the API's pages: kinds, nesting and order", () => {
    expect(shape(tree)).toEqual([{ start: ["intro", { install: ["linux"] }] }, { guides: ["guide"] }, "faq", "changelog"])
    expect(find(tree, "changelog")?.page.kind).toBe("link")
    expect(find(tree, "linux")?.depth).toBe(2)
  })

  it("moves a page between neighbours in another parent with one update_page", () => {
    const result = ok(move(tree, "faq", { parent: "start", at: 1 }))
    expect(shape(result.tree)).toEqual([{ start: ["intro", "faq", { install: ["linux"] }] }, { guides: ["guide"] }, "changelog"])
    expect(result.changes).toEqual([{ operation: "update_page", page: "faq", into: "start", at: 1 }])
  })

  it("moves a page with its subpages and down within its own parent (at counts the siblings without it)", () => {
    const result = ok(move(tree, "start", { parent: null, at: 2 }))
    expect(shape(result.tree)).toEqual([{ guides: ["guide"] }, "faq", { start: ["intro", { install: ["linux"] }] }, "changelog"])
    expect(result.changes).toEqual([{ operation: "update_page", page: "start", into: null, at: 2 }])
  })

  it("refuses a page into itself, its subpage, a link page, and a group below the top level", () => {
    expect(move(tree, "install", { parent: "linux", at: 0 })).toEqual({ ok: false, reason: "a page cannot move into itself or one of its subpages" })
    expect(move(tree, "install", { parent: "install", at: 0 }).ok).toBe(false)
    expect(move(tree, "faq", { parent: "changelog", at: 0 })).toEqual({ ok: false, reason: "pages cannot go inside a link page" })
    expect(move(tree, "guides", { parent: "faq", at: 0 })).toEqual({ ok: false, reason: "groups stay at the top level" })
    expect(move(tree, "faq", { parent: null, at: 9 }).ok).toBe(false)
  })

  it("sends nothing for a move to where the page already is", () => {
    expect(ok(move(tree, "install", { parent: "start", at: 1 })).changes).toEqual([])
    expect(ok(drop(tree, "install", { type: "after", id: "intro" })).changes).toEqual([])
  })

  it("turns drops before, after and inside a row into placements", () => {
    expect(ok(drop(tree, "faq", { type: "before", id: "intro" })).changes).toEqual([{ operation: "update_page", page: "faq", into: "start", at: 0 }])
    expect(ok(drop(tree, "intro", { type: "after", id: "install" })).changes).toEqual([{ operation: "update_page", page: "intro", into: "start", at: 1 }])
    expect(ok(drop(tree, "faq", { type: "inside", id: "install" })).changes).toEqual([{ operation: "update_page", page: "faq", into: "install", at: 1 }])
    expect(drop(tree, "start", { type: "inside", id: "guides" }).ok).toBe(false)
  })

  it("adds an empty document at a position, with a ref the batch can name", () => {
    const result = ok(addPage(tree, { kind: "document", title: "  Upgrading ", parent: "start", at: 2, ref: "new-1" }))
    expect(shape(result.tree)).toEqual([{ start: ["intro", { install: ["linux"] }, "new-1"] }, { guides: ["guide"] }, "faq", "changelog"])
    expect(result.changes).toEqual([{ operation: "insert_page", ref: "new-1", title: "Upgrading", document: { markdown: "" }, into: "start", at: 2 }])
    expect(contentRequest({ spaceId: "sp1", changeRequestId: "cr 1" }, result.changes)).toEqual({
      operationId: "updateChangeRequestContent",
      method: "POST",
      path: "/v1/spaces/sp1/change-requests/cr%201/content",
      params: { spaceId: "sp1", changeRequestId: "cr 1" },
      payload: { changes: result.changes }
    })
  })

  it("adds a group at the top level and link pages to a URL or a page, without documents", () => {
    const group = ok(addPage(tree, { kind: "group", title: " Reference ", parent: null, ref: "g" }))
    expect(shape(group.tree)).toEqual([{ start: ["intro", { install: ["linux"] }] }, { guides: ["guide"] }, "faq", "changelog", "g"])
    expect(group.changes).toEqual([{ operation: "insert_page", type: "group", ref: "g", title: "Reference", document: {}, at: 4 }])
    const link = ok(addPage(tree, { kind: "link", title: "Status", href: " https://status.example.com ", parent: "guides", ref: "l" }))
    expect(link.changes).toEqual([{ operation: "insert_page", type: "link", href: "https://status.example.com", ref: "l", title: "Status", document: {}, into: "guides", at: 1 }])
    expect(find(link.tree, "l")?.page.kind).toBe("link")
    expect(ok(addPage(tree, { kind: "link", title: "FAQ again", href: "faq", parent: null, ref: "l2" })).changes[0]).toMatchObject({ href: "faq" })
    // A page's title names it: the link points to its id.
    const named = fromApi([{ ...page("pg_1", "document"), title: "Release notes" }, { ...page("pg_2", "group"), title: "Notes" }])
    expect(ok(addPage(named, { kind: "link", title: "News", href: " release NOTES ", parent: null, ref: "l3" })).changes[0]).toMatchObject({ href: "pg_1" })
    // Only documents are named so: a group is no link target.
    expect(addPage(named, { kind: "link", title: "N", href: "Notes", parent: null, ref: "l4" }).ok).toBe(false)
    expect(addPage(tree, { kind: "link", title: "X", href: "nowhere", parent: null, ref: "l5" })).toEqual({ ok: false, reason: "“nowhere” is neither a URL (https://…) nor the title of a page here" })
  })

  it("refuses what it cannot send, in words: a group below the top level, a link without a URL, an empty title, a page in a link", () => {
    expect(addPage(tree, { kind: "group", title: "Reference", parent: "start", ref: "g" })).toEqual({ ok: false, reason: "groups stay at the top level" })
    expect(addPage(tree, { kind: "link", title: "Status", parent: null, ref: "l" })).toEqual({ ok: false, reason: "a link needs a URL, such as https://example.com" })
    expect(addPage(tree, { kind: "link", title: "Status", href: "status.example.com", parent: null, ref: "l" })).toEqual({
      ok: false,
      reason: "“status.example.com” is not a URL: write it in full, such as https://status.example.com"
    })
    expect(addPage(tree, { kind: "document", title: "  ", parent: null, ref: "x" }).ok).toBe(false)
    expect(addPage(tree, { kind: "document", title: "X", parent: "changelog", ref: "x" }).ok).toBe(false)
  })

  it("outdents, indents and steps a page from the keyboard, within the rules", () => {
    expect(outdentOf(tree, "linux")).toEqual({ parent: "start", at: 2 })
    expect(outdentOf(tree, "guide")).toEqual({ parent: null, at: 2 })
    expect(outdentOf(tree, "faq")).toBeNull()
    expect(ok(move(tree, "guide", outdentOf(tree, "guide")!)).changes).toEqual([{ operation: "update_page", page: "guide", into: null, at: 2 }])
    expect(indentOf(tree, "install")).toEqual({ parent: "intro", at: 0 })
    expect(indentOf(tree, "faq")).toEqual({ parent: "guides", at: 1 })
    expect(indentOf(tree, "intro")).toBeNull()
    // Nothing goes inside a link page, and a group never below the top level.
    expect(indentOf(tree, "guides")).toBeNull()
    expect(stepOf(tree, "faq", -1)).toEqual({ parent: null, at: 1 })
    expect(stepOf(tree, "start", -1)).toBeNull()
    expect(stepOf(tree, "changelog", 1)).toBeNull()
  })

  it("renames with one update_page of the title, and nothing when unchanged", () => {
    const result = ok(rename(tree, "guides", "How-to guides"))
    expect(find(result.tree, "guides")?.page.title).toBe("How-to guides")
    expect(result.changes).toEqual([{ operation: "update_page", page: "guides", title: "How-to guides" }])
    expect(ok(rename(tree, "faq", "FAQ")).changes).toEqual([])
  })

  it("deletes a page with its subpages, counting them for the confirmation", () => {
    const result = remove(tree, "start")
    expect(result.ok && shape(result.tree)).toEqual([{ guides: ["guide"] }, "faq", "changelog"])
    expect(result.removed).toBe(4)
    expect(result.ok && result.changes).toEqual([{ operation: "delete_page", page: "start" }])
  })

  it("lists the keyboard Move to… choices: allowed parents only, every gap, the current place marked", () => {
    const choices = moveChoices(tree, "install")
    const labels = choices.map((c) => c.label)
    expect(labels).toContain("Top level, before START")
    expect(labels).toContain("Inside START, before INTRO")
    expect(labels).toContain("Inside START › INTRO, first")
    expect(labels).toContain("Inside GUIDES, at the end")
    expect(labels.some((l) => l.includes("LINUX") || l.startsWith("Inside CHANGELOG"))).toBe(false)
    expect(choices.filter((c) => c.current)).toEqual([expect.objectContaining({ placement: { parent: "start", at: 1 } })])
    // A group goes only to the top level.
    expect(new Set(moveChoices(tree, "guides").map((c) => c.placement.parent))).toEqual(new Set([null]))
  })
})

// ---- Properties: random trees and edits, checked against the server's own batch semantics. ----

const toNodes = (t: Tree): Array<Parameters<typeof applyChanges>[0]["pages"][number]> =>
  t.map((p) => ({
    id: p.id,
    type: p.kind,
    title: p.title,
    slug: p.id,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    pages: toNodes(p.children)
  }))

type Shape = { id: string; type: string; title: string; pages: Array<Shape> }
const serverShape = (pages: ReadonlyArray<{ id: string; type: string; title: string; pages: ReadonlyArray<unknown> }>): Array<Shape> =>
  pages.map((p) => ({ id: p.id, type: p.type, title: p.title, pages: serverShape(p.pages as never) }))
const modelShape = (t: Tree): Array<Shape> => t.map((p) => ({ id: p.id, type: p.kind, title: p.title, pages: modelShape(p.children) }))

const toServer = (c: ReturnType<typeof ok>["changes"][number]): Change => {
  if (c.operation === "insert_page") {
    const { document, ...rest } = c
    return { ...rest, markdown: document.markdown ?? "" } as Change
  }
  if (c.operation === "update_page") {
    const { document, ...rest } = c
    return { ...rest, ...(document?.markdown === undefined ? {} : { markdown: document.markdown }) } as Change
  }
  return c as Change
}

const decodeChange = Schema.decodeUnknownSync(ChangeRequestContentChange)

let counter = 0
const randomTree = (rand: () => number): Tree => {
  const make = (depth: number, top: boolean): TreePage => {
    const r = rand()
    const kind = top && r < 0.3 ? "group" : r > 0.85 ? "link" : "document"
    const id = `p${counter++}`
    const n = kind === "link" || depth > 2 ? 0 : Math.floor(rand() * 4)
    return { id, kind, title: id, slug: id, hidden: false, children: Array.from({ length: n }, () => make(depth + 1, false)) }
  }
  return Array.from({ length: 1 + Math.floor(rand() * 5) }, () => make(0, true))
}

const valid = (t: Tree): boolean =>
  flatten(t).every((l) =>
    (l.page.kind !== "group" || l.parent === null) && (l.parent === null || l.parent.kind !== "link")
  ) && new Set(flatten(t).map((l) => l.page.id)).size === flatten(t).length

const seeded = (seed: number) => {
  let s = seed >>> 0 || 1
  return () => ((s = Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5 >>> 0) / 2 ** 32)
}

describe("page tree model, properties", () => {
  const edit = fc.tuple(fc.integer({ min: 0, max: 4 }), fc.nat(), fc.nat(), fc.nat())

  it("every edit keeps the tree valid, and its changes do on the server exactly what the model shows", () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(edit, { minLength: 1, maxLength: 8 }), (seed, edits) => {
        let t = randomTree(seeded(seed))
        let serverPages = toNodes(t)
        let fresh = 0
        for (const [kind, x, y, z] of edits) {
          const all = flatten(t)
          if (all.length === 0) {
            t = ok(addPage(t, { kind: "document", title: "Again", parent: null, ref: `r${fresh++}` })).tree
            serverPages = toNodes(t)
            continue
          }
          const pick = all[x % all.length]!.page.id
          const parents: Array<string | null> = [null, ...all.map((l) => l.page.id)]
          const parent = parents[y % parents.length]!
          const result: EditResult =
            kind === 0
              ? move(t, pick, { parent, at: z % ((find(t, parent ?? "")?.page.children.length ?? t.length) + 1) })
              : kind === 1
              ? drop(t, pick, { type: (["before", "after", "inside"] as const)[z % 3]!, id: all[y % all.length]!.page.id })
              : kind === 2
              ? rename(t, pick, `T${z}`)
              : kind === 3 && all.length > 1
              ? remove(t, pick)
              : addPage(t, { kind: (["document", "group", "link"] as const)[z % 3]!, title: `N${z}`, href: "https://example.com", parent, at: 0, ref: `r${fresh++}` })
          if (!result.ok) continue
          expect(valid(result.tree)).toBe(true)
          // Each change is one the API's payload schema accepts, as sent.
          for (const change of result.changes) expect(decodeChange(change)).toEqual(change)
          if (result.changes.length === 0) {
            expect(modelShape(result.tree)).toEqual(modelShape(t))
            continue
          }
          let id = 0
          const applied = applyChanges({ pages: serverPages, files: [] }, result.changes.map(toServer), {
            makeId: () => `server${id++}`,
            now: "2026-01-02T00:00:00.000Z"
          })
          expect(applied.kind).toBe("applied")
          if (applied.kind !== "applied") return
          // The server names inserted pages itself; the model shows the batch ref until the answer is read back.
          const created = new Map(applied.value.outcomes.flatMap((o) => o.kind === "created" && o.ref ? [[o.pageId, o.ref]] : []))
          const renamed = (s: Array<Shape>): Array<Shape> => s.map((p) => ({ ...p, id: created.get(p.id) ?? p.id, pages: renamed(p.pages) }))
          expect(renamed(serverShape(applied.value.pages))).toEqual(modelShape(result.tree))
          serverPages = toNodes(result.tree)
          t = result.tree
        }
      }),
      { numRuns: 300, seed: 21 }
    )
  })

  it("every Move to… choice is a valid move, and every valid placement is offered", () => {
    fc.assert(
      fc.property(fc.integer(), fc.nat(), (seed, x) => {
        const t = randomTree(seeded(seed))
        const all = flatten(t)
        const id = all[x % all.length]!.page.id
        const choices = moveChoices(t, id)
        for (const c of choices) {
          const result = move(t, id, c.placement)
          expect(result.ok).toBe(true)
          expect(result.ok && result.changes.length === 0).toBe(c.current)
        }
        for (const parent of [null, ...all.map((l) => l.page.id)]) {
          const result = move(t, id, { parent, at: 0 })
          expect(choices.some((c) => c.placement.parent === parent && c.placement.at === 0)).toBe(result.ok)
        }
      }),
      { numRuns: 300, seed: 7 }
    )
  })
})
