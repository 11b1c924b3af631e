/**
 * The behaviour every StorageUsageRepo adapter must have: a per-organization count of the blobs its
 * spaces hold, each once, that never passes its limit and gives back what a purged space alone held.
 */
import { assert, describe } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Transactor } from "@quire/kernel"
import { StorageUsageRepo } from "../../src/StorageUsageRepo.ts"
import type { ReposTest } from "./Fixtures.ts"

class Abort {
  readonly _tag = "Abort"
}

const blob = (name: string, size: number) => ({ blob: `sha-${name}`, size })

export const storageUsageRepoContract = (it: ReposTest) =>
  describe("StorageUsageRepo", () => {
    it.effect("counts each blob once per organization, and refuses what would pass the limit without counting it", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsageRepo
        assert.strictEqual(yield* usage.used("su-org-1"), 0)
        assert.isTrue(yield* usage.hold("su-org-1", "su-space-1", [blob("a", 600)], 1000))
        // Held again, by the same space or another one of the organization: no more bytes.
        assert.isTrue(yield* usage.hold("su-org-1", "su-space-1", [blob("a", 600)], 1000))
        assert.isTrue(yield* usage.hold("su-org-1", "su-space-2", [blob("a", 600)], 1000))
        assert.isTrue(yield* usage.hold("su-org-1", "su-space-2", [blob("b", 400)], 1000))
        assert.isFalse(yield* usage.hold("su-org-1", "su-space-1", [blob("a", 600), blob("c", 1)], 1000))
        assert.isFalse(yield* usage.hold("su-org-2", "su-space-3", [blob("d", 1001)], 1000))
        assert.strictEqual(yield* usage.used("su-org-1"), 1000)
        assert.strictEqual(yield* usage.used("su-org-2"), 0)
        // Another organization pays for the same bytes.
        assert.isTrue(yield* usage.hold("su-org-2", "su-space-3", [blob("a", 600)], 1000))
        assert.strictEqual(yield* usage.used("su-org-2"), 600)
        assert.isTrue(yield* usage.hold("su-org-2", "su-space-3", [blob("e", 5_000_000_000)], 10_000_000_000))
        assert.strictEqual(yield* usage.used("su-org-2"), 5_000_000_600)
      }))

    it.effect("gives back, when a space goes, the bytes of the blobs no other space of its organization holds", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsageRepo
        assert.isTrue(yield* usage.hold("su-org-5", "su-space-5a", [blob("shared", 300), blob("only-a", 200)], 1000))
        assert.isTrue(yield* usage.hold("su-org-5", "su-space-5b", [blob("shared", 300), blob("only-b", 100)], 1000))
        assert.strictEqual(yield* usage.used("su-org-5"), 600)
        yield* usage.releaseSpace("su-space-5a")
        assert.strictEqual(yield* usage.used("su-org-5"), 400)
        yield* usage.releaseSpace("su-space-5a")
        yield* usage.releaseSpace("su-space-none")
        assert.strictEqual(yield* usage.used("su-org-5"), 400)
        yield* usage.releaseSpace("su-space-5b")
        assert.strictEqual(yield* usage.used("su-org-5"), 0)
        // Held again after it went, a blob counts again.
        assert.isTrue(yield* usage.hold("su-org-5", "su-space-5c", [blob("shared", 300)], 1000))
        assert.strictEqual(yield* usage.used("su-org-5"), 300)
      }))

    it.effect("moves a transferred space's blobs to its new organization, leaving in the old one those another space holds", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsageRepo
        assert.isTrue(yield* usage.hold("su-org-7", "su-space-7a", [blob("shared", 300), blob("mine", 200)], 1000))
        assert.isTrue(yield* usage.hold("su-org-7", "su-space-7b", [blob("shared", 300)], 1000))
        assert.isTrue(yield* usage.hold("su-org-8", "su-space-8", [blob("full", 1000)], 1000))
        // The new organization takes the bytes even past its limit: a transfer is not refused.
        yield* usage.moveSpace("su-space-7a", "su-org-8")
        assert.deepStrictEqual([yield* usage.used("su-org-7"), yield* usage.used("su-org-8")], [300, 1500])
        yield* usage.moveSpace("su-space-7a", "su-org-8")
        yield* usage.moveSpace("su-space-none", "su-org-8")
        assert.deepStrictEqual([yield* usage.used("su-org-7"), yield* usage.used("su-org-8")], [300, 1500])
        yield* usage.releaseSpace("su-space-7a")
        assert.deepStrictEqual([yield* usage.used("su-org-7"), yield* usage.used("su-org-8")], [300, 1000])
      }))

    it.effect("lets concurrent holds together reach the limit and no further, and counts a blob held at once by two spaces once", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsageRepo
        const granted = yield* Effect.forEach(
          Array.from({ length: 10 }, (_, i) => i),
          (i) => usage.hold("su-org-3", `su-space-3-${i}`, [blob(`b${i}`, 300)], 1000),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(granted.filter((ok) => ok).length, 3)
        assert.strictEqual(yield* usage.used("su-org-3"), 900)
        yield* Effect.forEach(
          Array.from({ length: 5 }, (_, i) => i),
          (i) => usage.hold("su-org-6", `su-space-6-${i}`, [blob("same", 100)], 1000),
          { concurrency: "unbounded", discard: true }
        )
        assert.strictEqual(yield* usage.used("su-org-6"), 100)
      }))

    it.effect("forgets a hold made by a transaction that fails", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsageRepo
        const { transaction } = yield* Transactor.Transactor
        const exit = yield* Effect.exit(transaction(Effect.gen(function*() {
          assert.isTrue(yield* usage.hold("su-org-4", "su-space-4", [blob("f", 700)], 1000))
          return yield* Effect.fail(new Abort())
        })))
        assert.isTrue(Exit.isFailure(exit))
        assert.strictEqual(yield* usage.used("su-org-4"), 0)
        assert.isTrue(yield* usage.hold("su-org-4", "su-space-4", [blob("g", 1000)], 1000))
        // The failed hold left no trace: its blob is new again.
        assert.isFalse(yield* usage.hold("su-org-4", "su-space-4", [blob("f", 700)], 1000))
      }))
  })
