/** Port: reviews of change requests, the reviewers requested on them, and their editors' contributions. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { EditContribution, RequestedReviewer, Review } from "./domain/Review.ts"

export interface ReviewQuery {
  readonly changeRequestId: string
  /** Only reviews made on this revision (current ones, when it is the head). */
  readonly onRevision?: string | undefined
  /** Only reviews made on another revision than this one (outdated ones, when it is the head). */
  readonly notOnRevision?: string | undefined
}

export interface ReviewsRepoShape {
  readonly insertReview: (review: Review) => Effect.Effect<void>
  readonly findReview: (reviewId: string) => Effect.Effect<Option.Option<Review>>
  /** Oldest first, keyset-paginated on (createdAt, id). */
  readonly listReviews: (query: ReviewQuery, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<Review>>
  /** Every review of the change request, oldest first (what merge rules read). */
  readonly allReviews: (changeRequestId: string) => Effect.Effect<ReadonlyArray<Review>>
  /** Asks `userId` for a review; asking again replaces the earlier request (its revision, requester and instant). */
  readonly requestReviewer: (request: RequestedReviewer) => Effect.Effect<void>
  readonly findRequestedReviewer: (changeRequestId: string, userId: string) => Effect.Effect<Option.Option<RequestedReviewer>>
  /** Oldest request first, keyset-paginated on (createdAt, userId). */
  readonly listRequestedReviewers: (
    changeRequestId: string,
    after: Pagination.CursorKey | undefined,
    limit: number
  ) => Effect.Effect<Pagination.Page<RequestedReviewer>>
  /** The change requests on which `userId`'s review is requested. */
  readonly changeRequestsAwaiting: (userId: string) => Effect.Effect<ReadonlyArray<string>>
  /** Withdraws the request: false when there was none. */
  readonly removeRequestedReviewer: (changeRequestId: string, userId: string) => Effect.Effect<boolean>
  /** Counts one more edit of the change request by the user, at `at`. */
  readonly recordEdit: (spaceId: string, changeRequestId: string, userId: string, at: Date) => Effect.Effect<void>
  /** The change request's editors, by their first edit (then user id). */
  readonly editContributions: (changeRequestId: string) => Effect.Effect<ReadonlyArray<EditContribution>>
  /** Removes every review, request and contribution of the space's change requests. */
  readonly removeForSpace: (spaceId: string) => Effect.Effect<void>
}

/** Sort key of review listings. */
export const reviewKey = (review: Review): Pagination.CursorKey => [review.createdAt.toISOString(), review.id]
export const reviewKeyShape: Pagination.KeyShape = ["timestamp", "string"]

/** Sort key of requested-reviewer listings. */
export const requestedReviewerKey = (request: RequestedReviewer): Pagination.CursorKey => [request.createdAt.toISOString(), request.userId]
export const requestedReviewerKeyShape: Pagination.KeyShape = ["timestamp", "string"]

const matches = (query: ReviewQuery) => (review: Review): boolean =>
  review.changeRequestId === query.changeRequestId &&
  (query.onRevision === undefined || review.revision === query.onRevision) &&
  (query.notOnRevision === undefined || review.revision !== query.notOnRevision)

const requestKey = (changeRequestId: string, userId: string) => `${changeRequestId}/${userId}`

interface StoredContribution extends EditContribution {
  readonly spaceId: string
  readonly firstEditedAt: Date
}

export class ReviewsRepo extends Context.Service<ReviewsRepo, ReviewsRepoShape>()("@quire/reviews/ReviewsRepo") {
  static readonly layerMemory = Layer.sync(ReviewsRepo, () => {
    const reviews = new MemoryStore.TxMap<string, Review>()
    const requests = new MemoryStore.TxMap<string, RequestedReviewer>()
    const contributions = new MemoryStore.TxMap<string, StoredContribution>()
    return ReviewsRepo.of({
      insertReview: (review) => Effect.sync(() => void reviews.set(review.id, review)),
      findReview: (reviewId) => Effect.sync(() => Option.fromNullishOr(reviews.get(reviewId))),
      listReviews: (query, after, limit) =>
        Effect.suspend(() => Pagination.paginateArray(Array.from(reviews.values()).filter(matches(query)), reviewKey, { order: "asc", after, limit })),
      allReviews: (changeRequestId) =>
        Effect.sync(() =>
          Array.from(reviews.values())
            .filter((r) => r.changeRequestId === changeRequestId)
            .toSorted((a, b) => Pagination.compareKeys(reviewKey(a), reviewKey(b)))
        ),
      requestReviewer: (request) => Effect.sync(() => void requests.set(requestKey(request.changeRequestId, request.userId), request)),
      findRequestedReviewer: (changeRequestId, userId) => Effect.sync(() => Option.fromNullishOr(requests.get(requestKey(changeRequestId, userId)))),
      listRequestedReviewers: (changeRequestId, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(
            Array.from(requests.values()).filter((r) => r.changeRequestId === changeRequestId),
            requestedReviewerKey,
            { order: "asc", after, limit }
          )
        ),
      changeRequestsAwaiting: (userId) =>
        Effect.sync(() => Array.from(requests.values()).filter((r) => r.userId === userId).map((r) => r.changeRequestId)),
      removeRequestedReviewer: (changeRequestId, userId) => Effect.sync(() => requests.delete(requestKey(changeRequestId, userId))),
      recordEdit: (spaceId, changeRequestId, userId, at) =>
        Effect.sync(() => {
          const key = requestKey(changeRequestId, userId)
          const found = contributions.get(key)
          contributions.set(
            key,
            found === undefined
              ? { spaceId, changeRequestId, userId, edits: 1, lastEditedAt: at, firstEditedAt: at }
              : { ...found, edits: found.edits + 1, lastEditedAt: at }
          )
        }),
      editContributions: (changeRequestId) =>
        Effect.sync(() =>
          Array.from(contributions.values())
            .filter((c) => c.changeRequestId === changeRequestId)
            .toSorted((a, b) => Pagination.compareKeys([a.firstEditedAt.toISOString(), a.userId], [b.firstEditedAt.toISOString(), b.userId]))
            .map(({ changeRequestId, edits, lastEditedAt, userId }) => ({ changeRequestId, userId, edits, lastEditedAt }))
        ),
      removeForSpace: (spaceId) =>
        Effect.sync(() => {
          for (const [id, review] of Array.from(reviews)) if (review.spaceId === spaceId) reviews.delete(id)
          for (const [key, request] of Array.from(requests)) if (request.spaceId === spaceId) requests.delete(key)
          for (const [key, contribution] of Array.from(contributions)) if (contribution.spaceId === spaceId) contributions.delete(key)
        })
    })
  })
}
