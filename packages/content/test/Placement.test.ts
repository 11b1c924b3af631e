/** Positions among siblings: midpoints while there is room, renumbering when there is none. */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeEndPositions, place, type Sibling } from "../src/Placement.ts"

const sibling = (id: string, position: number, createdAt = 0): Sibling => ({
  type: "space",
  id,
  position,
  createdAt: new Date(createdAt)
})

const mover = { type: "space" as const, id: "m" }

describe("Placement", () => {
  it.effect("takes the midpoint between the new neighbours", () =>
    Effect.gen(function*() {
      const siblings = [sibling("a", 1024), sibling("b", 2048), sibling("c", 4096)]
      const before = yield* place(mover, siblings, { before: { type: "space", space: "b" } }, 0, makeEndPositions())
      assert.deepStrictEqual(before, { position: 1536, index: 1, renumbered: [] })
      const after = yield* place(mover, siblings, { after: { type: "space", space: "c" } }, 0, makeEndPositions())
      assert.deepStrictEqual(after, { position: 4096 + 1024, index: 3, renumbered: [] })
      const first = yield* place(mover, siblings, { before: { type: "space", space: "a" } }, 0, makeEndPositions())
      assert.deepStrictEqual(first, { position: 0, index: 0, renumbered: [] })
    }))

  it.effect("renumbers the siblings when neighbours share a position", () =>
    Effect.gen(function*() {
      const siblings = [sibling("a", 5, 1), sibling("b", 5, 2), sibling("c", 7)]
      const placed = yield* place(mover, siblings, { after: { type: "space", space: "a" } }, 0, makeEndPositions())
      assert.strictEqual(placed.index, 1)
      assert.strictEqual(placed.position, 2048)
      assert.deepStrictEqual(placed.renumbered.map((s) => [s.id, s.position]), [["a", 1024], ["b", 3072], ["c", 4096]])
    }))

  it.effect("renumbers when floating point runs out of room", () =>
    Effect.gen(function*() {
      const siblings = [sibling("a", 1), sibling("b", 1 + Number.EPSILON)]
      const placed = yield* place(mover, siblings, { before: { type: "space", space: "b" } }, 0, makeEndPositions())
      assert.strictEqual(placed.index, 1)
      assert.deepStrictEqual(placed.renumbered.map((s) => [s.id, s.position]), [["a", 1024], ["b", 3072]])
    }))

  it.effect("refuses pointers at the mover itself, at non-siblings, or both before and after", () =>
    Effect.gen(function*() {
      const siblings = [sibling("a", 1)]
      const message = (position: Parameters<typeof place>[2]) =>
        Effect.map(Effect.flip(place(mover, siblings, position, 0, makeEndPositions())), (e) => e.message)
      assert.match(yield* message({ before: { type: "space", space: "m" } }), /^position.before: .*itself/)
      assert.match(yield* message({ after: { type: "collection", collection: "a" } }), /^position.after: .*not in the destination/)
      assert.match(
        yield* message({ before: { type: "space", space: "a" }, after: { type: "space", space: "a" } }),
        /^position: /
      )
    }))

  it("issues end positions that increase within one millisecond", () => {
    const endPosition = makeEndPositions()
    const first = endPosition(1_000)
    const second = endPosition(1_000)
    assert.isAbove(second, first)
    assert.strictEqual(endPosition(5_000_000), 5_000_000)
  })
})
