import { describe, expect, it } from "vitest"
import { applyMove, dropPosition, stepPosition } from "../../../src/features/sites/order.ts"

const ids = ["a", "b", "c", "d"]

describe("the order of sections and variants", () => {
  it("moves one step up or down beside the neighbour, and nowhere past either end", () => {
    expect(stepPosition(ids, "c", -1)).toEqual({ before: "b" })
    expect(stepPosition(ids, "c", 1)).toEqual({ after: "d" })
    expect(stepPosition(ids, "a", -1)).toBeUndefined()
    expect(stepPosition(ids, "d", 1)).toBeUndefined()
    expect(stepPosition(ids, "z", 1)).toBeUndefined()
  })

  it("applies a move as the API does: just before or after the sibling", () => {
    expect(applyMove(ids, "d", { before: "b" })).toEqual(["a", "d", "b", "c"])
    expect(applyMove(ids, "a", { after: "c" })).toEqual(["b", "c", "a", "d"])
    expect(applyMove(ids, "a", { after: "a" })).toEqual(ids)
    for (const id of ids) {
      for (const step of [-1, 1] as const) {
        const position = stepPosition(ids, id, step)
        if (position === undefined) continue
        const moved = applyMove(ids, id, position)
        expect(moved.indexOf(id) - ids.indexOf(id)).toBe(step)
        expect(moved.toSorted()).toEqual(ids)
      }
    }
  })

  it("turns a drop on a row's top or bottom half into a position, nothing when the order stays", () => {
    expect(dropPosition(ids, "a", "c", "bottom")).toEqual({ after: "c" })
    expect(dropPosition(ids, "d", "a", "top")).toEqual({ before: "a" })
    // Dropped just below its upper neighbour, or above its lower one: where it already is.
    expect(dropPosition(ids, "b", "a", "bottom")).toBeUndefined()
    expect(dropPosition(ids, "b", "c", "top")).toBeUndefined()
    expect(dropPosition(ids, "b", "b", "top")).toBeUndefined()
    expect(dropPosition(ids, "x", "b", "top")).toBeUndefined()
  })
})
