/** The behaviour every ViewedPagesRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { at } from "@quire/testkit"
import { Transactor } from "@quire/kernel"
import type { ViewedPage } from "../../src/domain/ViewedPage.ts"
import { ViewedPagesRepo } from "../../src/ViewedPagesRepo.ts"

const mark = (changeRequestId: string, userId: string, pageId: string, overrides: Partial<ViewedPage> = {}): ViewedPage => ({
  spaceId: `${changeRequestId}-space`,
  changeRequestId,
  userId,
  pageId,
  fingerprint: "f1",
  revision: "r1",
  viewedAt: at(1),
  ...overrides
})

export const viewedPagesRepoContract = (it: Vitest.MethodsNonLive<ViewedPagesRepo | Transactor.Transactor>) =>
  describe("ViewedPagesRepo", () => {
    it.effect("keeps each reviewer's marks on a change request apart, by page, every field stored", () =>
      Effect.gen(function*() {
        const repo = yield* ViewedPagesRepo
        const cr = "vp-list-cr"
        yield* repo.put(mark(cr, "bob", "p-b", { fingerprint: "fb", revision: "r2", viewedAt: at(2) }))
        yield* repo.put(mark(cr, "bob", "p-a"))
        yield* repo.put(mark(cr, "carol", "p-a"))
        yield* repo.put(mark("vp-list-other", "bob", "p-a"))
        assert.deepStrictEqual(yield* repo.list(cr, "bob"), [mark(cr, "bob", "p-a"), mark(cr, "bob", "p-b", { fingerprint: "fb", revision: "r2", viewedAt: at(2) })])
        assert.deepStrictEqual((yield* repo.list(cr, "carol")).map((m) => m.pageId), ["p-a"])
        assert.deepStrictEqual(yield* repo.list(cr, "dan"), [])
      }))

    it.effect("replaces a mark made again, and removes one (false when there was none)", () =>
      Effect.gen(function*() {
        const repo = yield* ViewedPagesRepo
        const cr = "vp-put-cr"
        yield* repo.put(mark(cr, "bob", "p-a"))
        yield* repo.put(mark(cr, "bob", "p-a", { fingerprint: "f2", revision: "r3", viewedAt: at(3) }))
        assert.deepStrictEqual(yield* repo.list(cr, "bob"), [mark(cr, "bob", "p-a", { fingerprint: "f2", revision: "r3", viewedAt: at(3) })])
        assert.isTrue(yield* repo.remove(cr, "bob", "p-a"))
        assert.isFalse(yield* repo.remove(cr, "bob", "p-a"))
        assert.deepStrictEqual(yield* repo.list(cr, "bob"), [])
      }))

    it.effect("rolls a mark back with its transaction", () =>
      Effect.gen(function*() {
        const repo = yield* ViewedPagesRepo
        const transactor = yield* Transactor.Transactor
        const cr = "vp-tx-cr"
        yield* transactor.transaction(Effect.andThen(repo.put(mark(cr, "bob", "p-a")), Effect.fail("boom"))).pipe(Effect.ignore)
        assert.deepStrictEqual(yield* repo.list(cr, "bob"), [])
      }))

    it.effect("removes a space's marks and only those", () =>
      Effect.gen(function*() {
        const repo = yield* ViewedPagesRepo
        yield* repo.put(mark("vp-rm-a", "bob", "p-a"))
        yield* repo.put(mark("vp-rm-b", "bob", "p-a"))
        yield* repo.removeForSpace("vp-rm-a-space")
        assert.deepStrictEqual(yield* repo.list("vp-rm-a", "bob"), [])
        assert.strictEqual((yield* repo.list("vp-rm-b", "bob")).length, 1)
      }))
  })
