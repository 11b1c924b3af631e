/** The behaviour every ReviewsRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { allIds, allPages, assertNone, at, some } from "@quire/testkit"
import { Transactor } from "@quire/kernel"
import type { RequestedReviewer, Review } from "../../src/domain/Review.ts"
import { ReviewsRepo } from "../../src/ReviewsRepo.ts"

const makeReview = (id: string, changeRequestId: string, overrides: Partial<Review> = {}): Review => ({
  id,
  spaceId: `${changeRequestId}-space`,
  changeRequestId,
  reviewerId: "bob",
  status: "approved",
  revision: "r1",
  requestedBy: null,
  commentId: null,
  createdAt: at(0),
  ...overrides
})

const makeRequest = (changeRequestId: string, userId: string, overrides: Partial<RequestedReviewer> = {}): RequestedReviewer => ({
  spaceId: `${changeRequestId}-space`,
  changeRequestId,
  userId,
  requestedBy: "alice",
  revision: "r1",
  createdAt: at(0),
  ...overrides
})

export const reviewsRepoContract = (it: Vitest.MethodsNonLive<ReviewsRepo | Transactor.Transactor>) =>
  describe("ReviewsRepo", () => {
    it.effect("stores and finds every field of a review", () =>
      Effect.gen(function*() {
        const repo = yield* ReviewsRepo
        const full = makeReview("rv-store-1", "rv-store-cr", {
          reviewerId: "carol",
          status: "changes-requested",
          revision: "r7",
          requestedBy: "alice",
          commentId: "comment-1",
          createdAt: at(5)
        })
        yield* repo.insertReview(full)
        assert.deepStrictEqual(some(yield* repo.findReview("rv-store-1")), full)
        assertNone(yield* repo.findReview("rv-store-missing"))
      }))

    it.effect("lists a change request's reviews oldest first, page by page, current or outdated", () =>
      Effect.gen(function*() {
        const repo = yield* ReviewsRepo
        const cr = "rv-list-cr"
        yield* repo.insertReview(makeReview("rv-list-c", cr, { createdAt: at(3), revision: "r2" }))
        yield* repo.insertReview(makeReview("rv-list-a", cr, { createdAt: at(1) }))
        yield* repo.insertReview(makeReview("rv-list-b", cr, { createdAt: at(1), reviewerId: "carol" }))
        yield* repo.insertReview(makeReview("rv-list-other", "rv-list-other-cr", { createdAt: at(2) }))
        for (const limit of [1, 2, 10]) {
          assert.deepStrictEqual(
            yield* allIds((after) => repo.listReviews({ changeRequestId: cr }, after, limit)),
            ["rv-list-a", "rv-list-b", "rv-list-c"],
            `pages of ${limit}`
          )
        }
        assert.deepStrictEqual(yield* allIds((after) => repo.listReviews({ changeRequestId: cr, onRevision: "r2" }, after, 1)), ["rv-list-c"])
        assert.deepStrictEqual(
          yield* allIds((after) => repo.listReviews({ changeRequestId: cr, notOnRevision: "r2" }, after, 1)),
          ["rv-list-a", "rv-list-b"]
        )
        assert.deepStrictEqual((yield* repo.allReviews(cr)).map((r) => r.id), ["rv-list-a", "rv-list-b", "rv-list-c"])
      }))

    it.effect("requests a reviewer once, renews the request, lists and withdraws requests", () =>
      Effect.gen(function*() {
        const repo = yield* ReviewsRepo
        const cr = "rv-req-cr"
        yield* repo.requestReviewer(makeRequest(cr, "dan", { createdAt: at(2) }))
        yield* repo.requestReviewer(makeRequest(cr, "bob", { createdAt: at(1) }))
        yield* repo.requestReviewer(makeRequest(cr, "carol", { createdAt: at(1) }))
        yield* repo.requestReviewer(makeRequest("rv-req-other", "bob"))
        const renewed = makeRequest(cr, "dan", { createdAt: at(5), requestedBy: "erin", revision: "r3" })
        yield* repo.requestReviewer(renewed)
        assert.deepStrictEqual(some(yield* repo.findRequestedReviewer(cr, "dan")), renewed)
        const pages = yield* allPages((after) => repo.listRequestedReviewers(cr, after, 2))
        assert.deepStrictEqual(pages.map((items) => items.map((r) => r.userId)), [["bob", "carol"], ["dan"]])
        assert.isTrue(yield* repo.removeRequestedReviewer(cr, "bob"))
        assert.isFalse(yield* repo.removeRequestedReviewer(cr, "bob"))
        assertNone(yield* repo.findRequestedReviewer(cr, "bob"))
        assert.deepStrictEqual((yield* allPages((after) => repo.listRequestedReviewers(cr, after, 10))).flat().map((r) => r.userId), ["carol", "dan"])
        assert.strictEqual(some(yield* repo.findRequestedReviewer("rv-req-other", "bob")).changeRequestId, "rv-req-other")
        // The agent's request keeps where its review stands, replaced as it moves on.
        const agent = makeRequest(cr, "agent", { createdAt: at(6), agentReview: { status: "pending", comments: 0, message: null } })
        yield* repo.requestReviewer(agent)
        assert.deepStrictEqual(some(yield* repo.findRequestedReviewer(cr, "agent")), agent)
        const done = { ...agent, agentReview: { status: "done" as const, comments: 2, message: "Two points." } }
        yield* repo.requestReviewer(done)
        assert.deepStrictEqual(some(yield* repo.findRequestedReviewer(cr, "agent")), done)
        assert.isTrue(yield* repo.removeRequestedReviewer(cr, "agent"))
        assert.deepStrictEqual([...(yield* repo.changeRequestsAwaiting("dan"))], [cr])
        assert.deepStrictEqual([...(yield* repo.changeRequestsAwaiting("bob"))], ["rv-req-other"])
        assert.deepStrictEqual([...(yield* repo.changeRequestsAwaiting("nobody"))], [])
      }))

    it.effect("counts each editor's edits, ordered by their first edit", () =>
      Effect.gen(function*() {
        const repo = yield* ReviewsRepo
        const cr = "rv-edit-cr"
        yield* repo.recordEdit("rv-edit-space", cr, "carol", at(1))
        yield* repo.recordEdit("rv-edit-space", cr, "bob", at(2))
        yield* repo.recordEdit("rv-edit-space", cr, "carol", at(3))
        yield* repo.recordEdit("rv-edit-space", cr, "carol", at(4))
        yield* repo.recordEdit("rv-edit-space", "rv-edit-other", "carol", at(4))
        assert.deepStrictEqual(yield* repo.editContributions(cr), [
          { changeRequestId: cr, userId: "carol", edits: 3, lastEditedAt: at(4) },
          { changeRequestId: cr, userId: "bob", edits: 1, lastEditedAt: at(2) }
        ])
        assert.deepStrictEqual(yield* repo.editContributions("rv-edit-missing"), [])
      }))

    it.effect("removes a space's reviews, requests and contributions, and nothing of other spaces", () =>
      Effect.gen(function*() {
        const repo = yield* ReviewsRepo
        yield* repo.insertReview(makeReview("rv-purge-1", "rv-purge-cr", { spaceId: "rv-purge-space" }))
        yield* repo.insertReview(makeReview("rv-purge-2", "rv-keep-cr", { spaceId: "rv-keep-space" }))
        yield* repo.requestReviewer(makeRequest("rv-purge-cr", "bob", { spaceId: "rv-purge-space" }))
        yield* repo.requestReviewer(makeRequest("rv-keep-cr", "bob", { spaceId: "rv-keep-space" }))
        yield* repo.recordEdit("rv-purge-space", "rv-purge-cr", "bob", at(1))
        yield* repo.recordEdit("rv-keep-space", "rv-keep-cr", "bob", at(1))
        yield* repo.removeForSpace("rv-purge-space")
        assertNone(yield* repo.findReview("rv-purge-1"))
        assertNone(yield* repo.findRequestedReviewer("rv-purge-cr", "bob"))
        assert.deepStrictEqual(yield* repo.editContributions("rv-purge-cr"), [])
        some(yield* repo.findReview("rv-purge-2"))
        some(yield* repo.findRequestedReviewer("rv-keep-cr", "bob"))
        assert.strictEqual((yield* repo.editContributions("rv-keep-cr")).length, 1)
      }))

    it.effect("a failed transaction leaves no review, request or contribution behind", () =>
      Effect.gen(function*() {
        const repo = yield* ReviewsRepo
        const transactor = yield* Transactor.Transactor
        const failed = yield* transactor.transaction(Effect.gen(function*() {
          yield* repo.insertReview(makeReview("rv-tx-1", "rv-tx-cr"))
          yield* repo.requestReviewer(makeRequest("rv-tx-cr", "bob"))
          yield* repo.recordEdit("rv-tx-cr-space", "rv-tx-cr", "bob", at(1))
          return yield* Effect.fail("boom" as const)
        })).pipe(Effect.flip)
        assert.strictEqual(failed, "boom")
        assertNone(yield* repo.findReview("rv-tx-1"))
        assertNone(yield* repo.findRequestedReviewer("rv-tx-cr", "bob"))
        assert.deepStrictEqual(yield* repo.editContributions("rv-tx-cr"), [])
      }))
  })
