/**
 * The behaviour every PassageVectors adapter must have: vectors kept by model and passage hash,
 * read back as they were given (to a 32-bit float's precision), a hash kept once, models apart.
 */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { PassageVectors } from "../../src/ask/PassageVectors.ts"
import type { ReposTest } from "./Fixtures.ts"

export const passageVectorsContract = (it: ReposTest) =>
  describe("PassageVectors", () => {
    it.effect("keeps each passage's vector per model, once, and reads back those asked for", () =>
      Effect.gen(function*() {
        const vectors = yield* PassageVectors
        assert.strictEqual((yield* vectors.get("pv-model", ["pv-a"])).size, 0)
        yield* vectors.put("pv-model", [{ hash: "pv-a", vector: [0.25, -1.5, 3e-7] }, { hash: "pv-b", vector: [1, 2, 3] }])
        // A hash stored already keeps its first vector; another model has its own.
        yield* vectors.put("pv-model", [{ hash: "pv-a", vector: [9, 9, 9] }])
        yield* vectors.put("pv-other", [{ hash: "pv-a", vector: [7] }])
        const found = yield* vectors.get("pv-model", ["pv-a", "pv-b", "pv-missing"])
        assert.deepStrictEqual([...found.keys()].toSorted(), ["pv-a", "pv-b"])
        const a = found.get("pv-a")!
        assert.strictEqual(a[0], 0.25)
        assert.strictEqual(a[1], -1.5)
        assert.closeTo(a[2]!, 3e-7, 1e-12)
        assert.deepStrictEqual(found.get("pv-b"), [1, 2, 3])
        assert.deepStrictEqual((yield* vectors.get("pv-other", ["pv-a"])).get("pv-a"), [7])
      }))

    it.effect("reads and writes more passages than one statement holds", () =>
      Effect.gen(function*() {
        const vectors = yield* PassageVectors
        const many = Array.from({ length: 450 }, (_, i) => ({ hash: `pv-many-${i}`, vector: [i, i / 2] }))
        yield* vectors.put("pv-model", many)
        const found = yield* vectors.get("pv-model", many.map((v) => v.hash))
        assert.strictEqual(found.size, 450)
        assert.deepStrictEqual(found.get("pv-many-449"), [449, 224.5])
      }))
  })
