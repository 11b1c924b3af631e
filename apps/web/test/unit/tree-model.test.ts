import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { applyMove, buildTree, type FlatItem, flatten, moveDestinations, moveOperation } from "../../src/features/org-tree/tree-model.ts"

const items: ReadonlyArray<FlatItem> = [
  { kind: "space", id: "s1", title: "Handbook" },
  { kind: "collection", id: "c1", title: "Guides" },
  { kind: "space", id: "s2", title: "Install", parent: "c1" },
  { kind: "collection", id: "c2", title: "Advanced", parent: "c1" },
  { kind: "space", id: "s3", title: "Tuning", parent: "c2" },
  { kind: "space", id: "s4", title: "API" }
]
const tree = buildTree(items)
const order = (nodes = tree) => flatten(nodes).map((entry) => `${"  ".repeat(entry.depth)}${entry.node.id}`)

describe("the organization tree", () => {
  it("nests items under their collection, collections before spaces, in the API's order", () => {
    expect(order()).toEqual(["c1", "  c2", "    s3", "  s2", "s1", "s4"])
  })

  it("puts an item whose collection the caller cannot see at the top level", () => {
    expect(order(buildTree([{ kind: "space", id: "x", title: "X", parent: "hidden" }]))).toEqual(["x"])
  })

  it("moves a space before a sibling in another collection: that collection, before it", () => {
    expect(moveOperation(tree, "s4", { type: "before", id: "s2" })).toEqual({
      payload: { parent: "c1", position: { before: { type: "space", space: "s2" } } }
    })
  })

  it("never moves a collection into itself or below itself", () => {
    expect(moveOperation(tree, "c1", { type: "inside", parent: "c2" })).toEqual({ refused: "A collection cannot move into itself" })
    expect(moveOperation(tree, "c1", { type: "inside", parent: "c1" })).toEqual({ refused: "A collection cannot move into itself" })
    expect(moveOperation(tree, "c1", { type: "after", id: "s3" })).toEqual({ refused: "A collection cannot move into itself" })
  })

  it("never moves an item inside a space", () => {
    expect(moveOperation(tree, "s4", { type: "inside", parent: "s1" })).toEqual({ refused: "Only a collection can hold items" })
  })

  it("sends nothing for a drop where the item already is", () => {
    expect(moveOperation(tree, "s1", { type: "before", id: "s4" })).toEqual({ unchanged: true })
    expect(moveOperation(tree, "s4", { type: "after", id: "s1" })).toEqual({ unchanged: true })
    expect(moveOperation(tree, "s4", { type: "inside", parent: null })).toEqual({ unchanged: true })
  })

  it("shows the tree as the API will have it after the move", () => {
    const result = moveOperation(tree, "s4", { type: "before", id: "s2" })
    if (!("payload" in result)) throw new Error("expected a move")
    expect(order(applyMove(tree, "s4", result.payload))).toEqual(["c1", "  c2", "    s3", "  s4", "  s2", "s1"])
    expect(order(applyMove(tree, "c2", { parent: null }))).toEqual(["c1", "  s2", "c2", "  s3", "s1", "s4"])
  })

  it("offers as destinations the top level and collections outside the item", () => {
    expect(moveDestinations(tree, "c1").map((d) => d.id)).toEqual([])
    expect(moveDestinations(tree, "s3").map((d) => d.id)).toEqual([null, "c1"])
    expect(moveDestinations(tree, "s1").map((d) => d.id)).toEqual(["c1", "c2"])
  })

  it("keeps every item exactly once, whatever the moves (property)", () => {
    const ids = flatten(tree).map((entry) => entry.node.id)
    const target = fc.oneof(
      fc.record({ type: fc.constantFrom("before" as const, "after" as const), id: fc.constantFrom(...ids) }),
      fc.record({ type: fc.constant("inside" as const), parent: fc.constantFrom(null, "c1", "c2", "s1") })
    )
    fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom(...ids), target), { maxLength: 12 }), (moves) => {
      let current = tree
      for (const [id, to] of moves) {
        const result = moveOperation(current, id, to)
        if ("payload" in result) current = applyMove(current, id, result.payload)
      }
      const after = flatten(current).map((entry) => entry.node.id)
      expect(after.toSorted()).toEqual(ids.toSorted())
      // No collection ever ends up below itself: every space or collection keeps a collection parent.
      for (const entry of flatten(current)) {
        if (entry.parent !== null) expect(flatten(current).find((e) => e.node.id === entry.parent)?.node.kind).toBe("collection")
      }
    }), { seed: 21, numRuns: 300 })
  })
})
