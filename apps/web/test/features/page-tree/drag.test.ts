import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type Availability, instructionAt, type Operation, operationsFor, outdentPlacement, placementFor } from "../../../src/features/page-tree/drag.ts"
import { fromApi, move, type Tree } from "../../../src/features/page-tree/tree-model.ts"

const row = { top: 100, height: 40 }
const all: Record<Operation, Availability> = { "reorder-before": "available", "reorder-after": "available", combine: "available" }

const tree: Tree = fromApi([
  { id: "start", title: "Start", kind: "group", type: "group", slug: "start", path: "start", hidden: false, pages: [
    { id: "intro", title: "Intro", kind: "sheet", type: "document", slug: "intro", path: "start/intro", hidden: false },
    { id: "install", title: "Install", kind: "sheet", type: "document", slug: "install", path: "start/install", hidden: false, pages: [
      { id: "linux", title: "Linux", kind: "sheet", type: "document", slug: "linux", path: "start/install/linux", hidden: false }
    ] }
  ] },
  { id: "faq", title: "FAQ", kind: "sheet", type: "document", slug: "faq", path: "faq", hidden: false },
  { id: "site", title: "Site", kind: "link", type: "link", slug: "site", path: "site", hidden: false, target: { kind: "url", url: "https://example.com" } }
])

describe("drag layer", () => {
  it("splits a row a quarter before, half inside, a quarter after when it can take children", () => {
    expect(instructionAt(100, row, all)).toEqual({ operation: "reorder-before", blocked: false })
    expect(instructionAt(109.9, row, all)?.operation).toBe("reorder-before")
    expect(instructionAt(110, row, all)?.operation).toBe("combine")
    expect(instructionAt(129.9, row, all)?.operation).toBe("combine")
    expect(instructionAt(130, row, all)?.operation).toBe("reorder-after")
    expect(instructionAt(500, row, all)?.operation).toBe("reorder-after")
    expect(instructionAt(0, row, all)?.operation).toBe("reorder-before")
  })

  it("splits in halves without combine, keeps a blocked region, and offers nothing when nothing is available", () => {
    const noCombine = { ...all, combine: "not-available" as const }
    expect(instructionAt(119, row, noCombine)?.operation).toBe("reorder-before")
    expect(instructionAt(120, row, noCombine)?.operation).toBe("reorder-after")
    expect(instructionAt(120, row, { ...all, combine: "blocked" })).toEqual({ operation: "combine", blocked: true })
    expect(instructionAt(101, row, { ...all, "reorder-before": "not-available" })?.operation).toBe("combine")
    expect(instructionAt(120, row, { "reorder-before": "not-available", "reorder-after": "not-available", combine: "not-available" })).toBeNull()
  })

  it("offers what the tree allows: nothing inside a link, a group only beside top-level rows, never into its own subpage", () => {
    expect(operationsFor(tree, "faq", "site").combine).toBe("not-available")
    expect(operationsFor(tree, "start", "intro")).toEqual({ "reorder-before": "blocked", "reorder-after": "blocked", combine: "blocked" })
    expect(operationsFor(tree, "start", "faq")).toEqual({ "reorder-before": "available", "reorder-after": "available", combine: "blocked" })
    expect(operationsFor(tree, "install", "linux").combine).toBe("blocked")
    expect(operationsFor(tree, "faq", "install")).toEqual(all)
  })

  it("turns a drop into the placement the tree model moves to", () => {
    expect(placementFor(tree, "faq", "intro", { operation: "reorder-before", blocked: false })).toEqual({ parent: "start", at: 0 })
    expect(placementFor(tree, "faq", "install", { operation: "combine", blocked: false })).toEqual({ parent: "install", at: 1 })
    expect(placementFor(tree, "faq", "install", { operation: "reorder-after", blocked: false }, true)).toEqual({ parent: "install", at: 0 })
    expect(placementFor(tree, "faq", "install", { operation: "reorder-after", blocked: false }, false)).toEqual({ parent: "start", at: 2 })
    expect(placementFor(tree, "intro", "install", { operation: "reorder-after", blocked: false })).toEqual({ parent: "start", at: 1 })
    expect(placementFor(tree, "faq", "site", { operation: "combine", blocked: true })).toBeNull()
  })

  it("outdents below the last row of a parent when the pointer moves left of its level", () => {
    const indent = { left: 0, indentPerLevel: 20 }
    // linux is the last (and only) child of install (depth 2): pointer at level 1 → after install; level 0 → after start.
    expect(outdentPlacement(tree, "faq", "linux", 25, indent)).toEqual({ parent: "start", at: 2 })
    expect(outdentPlacement(tree, "faq", "linux", 5, indent)).toEqual({ parent: null, at: 1 })
    expect(outdentPlacement(tree, "faq", "linux", 45, indent)).toBeNull()
    // Not the last row of its parent, or dragging the ancestor itself: no outdent.
    expect(outdentPlacement(tree, "faq", "intro", 0, indent)).toBeNull()
    expect(outdentPlacement(tree, "install", "linux", 25, indent)).toBeNull()
    // A group may outdent only to the top level.
    expect(outdentPlacement(tree, "start", "linux", 5, indent)).toBeNull()
    expect(move(tree, "faq", outdentPlacement(tree, "faq", "linux", 25, indent)!).ok).toBe(true)
  })

  it("property: every unblocked instruction at any height gives a placement the model accepts", () => {
    const ids = ["start", "intro", "install", "linux", "faq", "site"]
    fc.assert(
      fc.property(fc.constantFrom(...ids), fc.constantFrom(...ids), fc.double({ min: 90, max: 150, noNaN: true }), fc.boolean(), (dragged, over, y, expanded) => {
        const outdent = outdentPlacement(tree, dragged, over, y - 90, { left: 0, indentPerLevel: 20 })
        if (outdent !== null) expect(move(tree, dragged, outdent).ok).toBe(true)
        const instruction = instructionAt(y, row, operationsFor(tree, dragged, over))
        if (instruction === null) return
        const placement = placementFor(tree, dragged, over, instruction, expanded)
        if (instruction.blocked) expect(placement).toBeNull()
        else {
          expect(placement).not.toBeNull()
          expect(move(tree, dragged, placement!).ok).toBe(true)
        }
      }),
      { numRuns: 500, seed: 3 }
    )
  })
})
