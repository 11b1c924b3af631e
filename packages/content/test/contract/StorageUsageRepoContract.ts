/** The behaviour every StorageUsageRepo adapter must have: a per-organization count that never passes its limit. */
import { assert, describe } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Transactor } from "@quire/kernel"
import { StorageUsageRepo } from "../../src/StorageUsageRepo.ts"
import type { ReposTest } from "./Fixtures.ts"

class Abort {
  readonly _tag = "Abort"
}

export const storageUsageRepoContract = (it: ReposTest) =>
  describe("StorageUsageRepo", () => {
    it.effect("counts what each organization stores, and refuses what would pass the limit without counting it", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsageRepo
        assert.strictEqual(yield* usage.used("su-org-1"), 0)
        assert.isTrue(yield* usage.reserve("su-org-1", 600, 1000))
        assert.isTrue(yield* usage.reserve("su-org-1", 400, 1000))
        assert.isFalse(yield* usage.reserve("su-org-1", 1, 1000))
        assert.isFalse(yield* usage.reserve("su-org-2", 1001, 1000))
        assert.strictEqual(yield* usage.used("su-org-1"), 1000)
        assert.strictEqual(yield* usage.used("su-org-2"), 0)
        assert.isTrue(yield* usage.reserve("su-org-2", 5_000_000_000, 10_000_000_000))
        assert.strictEqual(yield* usage.used("su-org-2"), 5_000_000_000)
      }))

    it.effect("gives back what a write that did not land reserved, never below zero", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsageRepo
        assert.isTrue(yield* usage.reserve("su-org-5", 800, 1000))
        assert.isFalse(yield* usage.reserve("su-org-5", 300, 1000))
        yield* usage.release("su-org-5", 500)
        assert.strictEqual(yield* usage.used("su-org-5"), 300)
        assert.isTrue(yield* usage.reserve("su-org-5", 700, 1000))
        yield* usage.release("su-org-5", 5000)
        yield* usage.release("su-org-none", 10)
        assert.strictEqual(yield* usage.used("su-org-5"), 0)
        assert.strictEqual(yield* usage.used("su-org-none"), 0)
      }))

    it.effect("lets concurrent reservations together reach the limit and no further", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsageRepo
        const granted = yield* Effect.forEach(Array.from({ length: 10 }, () => 300), (bytes) => usage.reserve("su-org-3", bytes, 1000), {
          concurrency: "unbounded"
        })
        assert.strictEqual(granted.filter((ok) => ok).length, 3)
        assert.strictEqual(yield* usage.used("su-org-3"), 900)
      }))

    it.effect("forgets a reservation made by a transaction that fails", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsageRepo
        const { transaction } = yield* Transactor.Transactor
        const exit = yield* Effect.exit(transaction(Effect.gen(function*() {
          assert.isTrue(yield* usage.reserve("su-org-4", 700, 1000))
          return yield* Effect.fail(new Abort())
        })))
        assert.isTrue(Exit.isFailure(exit))
        assert.strictEqual(yield* usage.used("su-org-4"), 0)
        assert.isTrue(yield* usage.reserve("su-org-4", 1000, 1000))
      }))
  })
