/** The behaviour every SpaceCountersRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { Transactor } from "@quire/kernel"
import { noCounters, type SpaceCounters } from "../../src/domain/SpaceCounters.ts"
import { SpaceCountersRepo } from "../../src/SpaceCountersRepo.ts"

const counters = (values: Partial<SpaceCounters>): SpaceCounters => ({ ...noCounters, ...values })

export const spaceCountersRepoContract = (it: Vitest.MethodsNonLive<SpaceCountersRepo | Transactor.Transactor>) =>
  describe("SpaceCountersRepo", () => {
    it.effect("starts a space at zero and adds each delta to the fields it names", () =>
      Effect.gen(function*() {
        const repo = yield* SpaceCountersRepo
        yield* repo.add("sc-add", { comments: 2, changeRequests: 1 })
        yield* repo.add("sc-add", { changeRequestsOpen: 1, changeRequestsDraft: 3 })
        yield* repo.add("sc-add", { comments: 1, changeRequestsDraft: -1 })
        yield* repo.add("sc-add", {})
        const found = yield* repo.forSpaces(["sc-add"])
        assert.deepStrictEqual(found.get("sc-add"), { comments: 3, changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 2 })
      }))

    it.effect("never counts below zero, from a first delta or a later one", () =>
      Effect.gen(function*() {
        const repo = yield* SpaceCountersRepo
        yield* repo.add("sc-floor-new", { comments: -2, changeRequests: 1 })
        yield* repo.add("sc-floor", { comments: 1, changeRequestsOpen: 2 })
        yield* repo.add("sc-floor", { comments: -5, changeRequestsOpen: -1 })
        yield* repo.add("sc-floor", { comments: 1 })
        const found = yield* repo.forSpaces(["sc-floor-new", "sc-floor"])
        assert.deepStrictEqual(found.get("sc-floor-new"), counters({ changeRequests: 1 }))
        // The floor is applied at each step: -5 from 1 leaves 0, and the next +1 counts from there.
        assert.deepStrictEqual(found.get("sc-floor"), counters({ comments: 1, changeRequestsOpen: 1 }))
      }))

    it.effect("answers every space asked for, in the order asked, zeros where nothing was counted", () =>
      Effect.gen(function*() {
        const repo = yield* SpaceCountersRepo
        yield* repo.add("sc-many-b", { changeRequests: 4 })
        yield* repo.add("sc-many-other", { changeRequests: 9 })
        const found = yield* repo.forSpaces(["sc-many-b", "sc-many-a", "sc-many-😀", "sc-many-Ａ"])
        assert.deepStrictEqual([...found.entries()], [
          ["sc-many-b", counters({ changeRequests: 4 })],
          ["sc-many-a", noCounters],
          ["sc-many-😀", noCounters],
          ["sc-many-Ａ", noCounters]
        ])
        assert.strictEqual((yield* repo.forSpaces([])).size, 0)
      }))

    it.effect("keeps spaces whose ids differ only beyond the BMP apart", () =>
      Effect.gen(function*() {
        const repo = yield* SpaceCountersRepo
        yield* repo.add("sc-id-😀", { comments: 1 })
        yield* repo.add("sc-id-😁", { comments: 2 })
        yield* repo.add("sc-id-Ａ", { comments: 3 })
        const found = yield* repo.forSpaces(["sc-id-😀", "sc-id-😁", "sc-id-Ａ"])
        assert.deepStrictEqual([...found.values()].map((c) => c.comments), [1, 2, 3])
      }))

    it.effect("removes a space's counters, and no other space's", () =>
      Effect.gen(function*() {
        const repo = yield* SpaceCountersRepo
        yield* repo.add("sc-rm", { comments: 1, changeRequests: 2 })
        yield* repo.add("sc-rm-kept", { comments: 5 })
        yield* repo.removeSpace("sc-rm")
        yield* repo.removeSpace("sc-rm-never-counted")
        const found = yield* repo.forSpaces(["sc-rm", "sc-rm-kept"])
        assert.deepStrictEqual(found.get("sc-rm"), noCounters)
        assert.deepStrictEqual(found.get("sc-rm-kept"), counters({ comments: 5 }))
        // A removed space counts from zero again.
        yield* repo.add("sc-rm", { comments: 1 })
        assert.deepStrictEqual((yield* repo.forSpaces(["sc-rm"])).get("sc-rm"), counters({ comments: 1 }))
      }))

    it.effect("leaves no trace of a rolled-back transaction: neither a new space nor a change", () =>
      Effect.gen(function*() {
        const repo = yield* SpaceCountersRepo
        const { transaction } = yield* Transactor.Transactor
        yield* repo.add("sc-tx-old", { comments: 2 })
        const failed = yield* transaction(Effect.gen(function*() {
          yield* repo.add("sc-tx-new", { changeRequests: 1 })
          yield* repo.add("sc-tx-old", { comments: 3 })
          yield* repo.removeSpace("sc-tx-old")
          return yield* Effect.fail("boom" as const)
        })).pipe(Effect.flip)
        assert.strictEqual(failed, "boom")
        const found = yield* repo.forSpaces(["sc-tx-new", "sc-tx-old"])
        assert.deepStrictEqual(found.get("sc-tx-new"), noCounters)
        assert.deepStrictEqual(found.get("sc-tx-old"), counters({ comments: 2 }))
      }))
  })
