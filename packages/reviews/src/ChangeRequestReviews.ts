/**
 * Use cases of reviewing change requests: submit and read reviews, ask reviewers for one, and list
 * who contributed to a change request and who commented in a space or a change request.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Access, ContentAccess, type Space, type SpaceAccess } from "@quire/content"
import { Actor, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import { ChangeRequests } from "./ChangeRequests.ts"
import { type CommentScope, type CommentView, Comments } from "./Comments.ts"
import { type Commenter, CommentsRepo } from "./CommentsRepo.ts"
import type { ChangeRequest } from "./domain/ChangeRequest.ts"
import { agentReviewerId, type RequestedReviewer, type Review, type ReviewStatus } from "./domain/Review.ts"
import * as MergeRules from "./MergeRules.ts"
import * as Notify from "./notifications/Notify.ts"
import { requestedReviewerKeyShape, reviewKeyShape, ReviewsRepo } from "./ReviewsRepo.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** A review as the caller sees it. */
export interface ReviewView {
  readonly review: Review
  /** True when the review was made on another revision than the change request's head. */
  readonly outdated: boolean
  /** The comment posted with the review; null without one, or once it was deleted. */
  readonly comment: CommentView | null
  readonly changeRequest: ChangeRequest
  readonly access: SpaceAccess
}

export interface SubmitReviewInput {
  readonly status: ReviewStatus
  /** Markdown of a comment posted on the change request with the review. */
  readonly comment?: string | undefined
}

export interface ReviewListRequest extends Pagination.PageRequest {
  /** Only outdated reviews (true) or only current ones (false); absent: all. */
  readonly outdated?: boolean | undefined
}

export interface RequestReviewersInput {
  /** User ids, each a member who may review the space. */
  readonly users: ReadonlyArray<string>
  /** Also changes the change request's subject. */
  readonly subject?: string | undefined
}

/** What a user did to a change request: edits of its content, or comments and replies on it. */
export interface Contribution {
  readonly userId: string
  readonly actionType: "edit" | "comment"
  readonly count: number
  readonly updatedAt: Date
}

export interface CommenterPage {
  readonly organizationId: string
  readonly page: Pagination.Page<Commenter>
}

/** Reviewers one request may ask at once. */
export const maxRequestedReviewers = 50

export interface ChangeRequestReviewsShape {
  /** Approves the change request's head or asks for changes (needs `review`; the author only approves, and only where the merge rules allow it); clears the caller's pending request. */
  readonly submit: (spaceId: string, ref: string, input: SubmitReviewInput) => Effect.Effect<ReviewView, Denied | Errors.InvalidInput, Actor.Actor>
  /** Oldest first. */
  readonly list: (spaceId: string, ref: string, request: ReviewListRequest) => Effect.Effect<Pagination.Page<ReviewView>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly get: (spaceId: string, ref: string, reviewId: string) => Effect.Effect<ReviewView, Errors.NotFound, Actor.Actor>
  /** Pending requests, oldest first. */
  readonly requestedReviewers: (
    spaceId: string,
    ref: string,
    request: Pagination.PageRequest
  ) => Effect.Effect<Pagination.Page<RequestedReviewer>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Asks members who may review the space for a review (needs `edit`); asking again renews the request. */
  readonly requestReviewers: (
    spaceId: string,
    ref: string,
    input: RequestReviewersInput
  ) => Effect.Effect<ReadonlyArray<RequestedReviewer>, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /** Withdraws a request (needs `edit`, or to be the reviewer asked): false when there was none. */
  readonly removeRequestedReviewer: (spaceId: string, ref: string, userId: string) => Effect.Effect<boolean, Denied, Actor.Actor>
  /**
   * The merge rules that apply to the change request (its space's, or its organization's) and
   * which of them block its merge by the caller now, custom rules evaluated: what a merge would
   * answer, beforehand (needs `view`).
   */
  readonly mergeCheck: (spaceId: string, ref: string) => Effect.Effect<MergeRules.MergeCheck, Errors.NotFound, Actor.Actor>
  /** Its editors, then its commenters. */
  readonly contributors: (spaceId: string, ref: string) => Effect.Effect<ReadonlyArray<Contribution>, Errors.NotFound, Actor.Actor>
  /** Who commented in the scope (a space's own comments, or a change request's), by user id. */
  readonly commenters: (scope: CommentScope, request: Pagination.PageRequest) => Effect.Effect<CommenterPage, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
}

const commenterKey = (commenter: Commenter): Pagination.CursorKey => [commenter.userId]
const commenterKeyShape: Pagination.KeyShape = ["string"]

/** The users asked for a review, each once, checked to be members who may review the space and not the author. */
const reviewersOf = Effect.fnUntraced(function*(
  access: ContentAccess["Service"],
  space: Space,
  cr: ChangeRequest,
  asked: ReadonlyArray<string>
) {
  const users: Array<string> = []
  for (const [index, userId] of asked.entries()) {
    // The agent is asked through AgentReviews, which checks its own conditions and runs it.
    if (users.includes(userId) || userId === agentReviewerId) continue
    if (userId === cr.createdBy) {
      return yield* new Errors.InvalidInput({ field: `users[${index}]`, reason: "is the author of the change request, who cannot review it" })
    }
    const theirs = yield* Effect.flatMap(access.inOrganization(space.organizationId, userId), (resolver) => resolver.ofSpace(space))
    if (!theirs.permissions.review) {
      return yield* new Errors.InvalidInput({
        field: `users[${index}]`,
        reason: `${JSON.stringify(userId)} is not a member who may review this space (the review role or above)`
      })
    }
    users.push(userId)
  }
  return users
})

/** Asking members for a review, listing the requests and withdrawing one (see `ChangeRequestReviewsShape`). */
const reviewRequests = (deps: {
  readonly repo: ReviewsRepo["Service"]
  readonly changeRequests: ChangeRequests["Service"]
  readonly access: ContentAccess["Service"]
  readonly transactor: Transactor.Transactor["Service"]
  readonly notify: Notify.Notify
}): Pick<ChangeRequestReviewsShape, "requestedReviewers" | "requestReviewers" | "removeRequestedReviewer"> => {
  const { access, changeRequests, notify, repo, transactor } = deps
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  const requestedReviewers = Effect.fn("ChangeRequestReviews.requestedReviewers")(function*(
    spaceId: string,
    ref: string,
    request: Pagination.PageRequest
  ) {
    const after = yield* Pagination.afterOf(request, requestedReviewerKeyShape)
    const found = yield* changeRequests.get(spaceId, ref)
    return yield* repo.listRequestedReviewers(found.changeRequest.id, after, Pagination.limitOf(request))
  })

  const requestReviewers = Effect.fn("ChangeRequestReviews.requestReviewers")(function*(
    spaceId: string,
    ref: string,
    input: RequestReviewersInput
  ) {
    if (input.users.length === 0 || input.users.length > maxRequestedReviewers) {
      return yield* new Errors.InvalidInput({ field: "users", reason: `name 1 to ${maxRequestedReviewers} users` })
    }
    const found = yield* changeRequests.get(spaceId, ref)
    yield* Access.ensure(found.access.permissions.edit, "request reviews of this change request")
    const cr = found.changeRequest
    if (cr.status === "merged" || cr.status === "archived") {
      return yield* new Errors.InvalidInput({
        field: "changeRequestId",
        reason: `change request ${cr.number} is ${cr.status}; reviews are requested on draft and open change requests`
      })
    }
    const users = yield* reviewersOf(access, found.access.space, cr, input.users)
    const actor = yield* Actor.Actor
    const at = yield* now
    const requests = users.map((userId): RequestedReviewer => ({
      spaceId,
      changeRequestId: cr.id,
      userId,
      requestedBy: actor.userId,
      revision: cr.revision,
      createdAt: at
    }))
    // The new subject, the requests and the reviewers' notifications land together.
    yield* transactor.transaction(Effect.gen(function*() {
      if (input.subject !== undefined) yield* changeRequests.update(spaceId, cr.id, { subject: input.subject })
      yield* Effect.forEach(requests, (request) => repo.requestReviewer(request), { discard: true })
      yield* notify.record(users.map((userId) => ({ userId, kind: "review_requested" as const, spaceId, changeRequestId: cr.id })))
    }))
    return requests
  })

  const removeRequestedReviewer = Effect.fn("ChangeRequestReviews.removeRequestedReviewer")(function*(
    spaceId: string,
    ref: string,
    userId: string
  ) {
    const found = yield* changeRequests.get(spaceId, ref)
    const actor = yield* Actor.Actor
    if (actor.userId !== userId) yield* Access.ensure(found.access.permissions.edit, "withdraw review requests of this change request")
    return yield* repo.removeRequestedReviewer(found.changeRequest.id, userId)
  })

  return { requestedReviewers, requestReviewers, removeRequestedReviewer }
}

export class ChangeRequestReviews extends Context.Service<ChangeRequestReviews, ChangeRequestReviewsShape>()("@quire/reviews/ChangeRequestReviews") {
  static readonly layer = Layer.effect(
    ChangeRequestReviews,
    Effect.gen(function*() {
      const repo = yield* ReviewsRepo
      const changeRequests = yield* ChangeRequests
      const comments = yield* Comments
      const commentsRepo = yield* CommentsRepo
      const access = yield* ContentAccess
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const notify = yield* Notify.make
      const checkRules = yield* MergeRules.checker
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const commentOf = (cr: ChangeRequest, commentId: string | null) =>
        commentId === null
          ? Effect.succeed(null)
          : comments.get({ spaceId: cr.spaceId, changeRequestId: cr.id }, commentId).pipe(
            Effect.catchTag("NotFound", () => Effect.succeed(null))
          )

      const view = (found: { readonly access: SpaceAccess; readonly changeRequest: ChangeRequest }, review: Review) =>
        Effect.map(commentOf(found.changeRequest, review.commentId), (comment): ReviewView => ({
          review,
          outdated: review.revision !== found.changeRequest.revision,
          comment,
          changeRequest: found.changeRequest,
          access: found.access
        }))

      const submit = Effect.fn("ChangeRequestReviews.submit")(function*(spaceId: string, ref: string, input: SubmitReviewInput) {
        const found = yield* changeRequests.get(spaceId, ref)
        yield* Access.ensure(found.access.permissions.review, "review change requests in this space")
        const cr = found.changeRequest
        const actor = yield* Actor.Actor
        if (cr.createdBy === actor.userId && !(input.status === "approved" && MergeRules.authorMayApprove(yield* access.mergeRules(found.access.space)))) {
          return yield* new Errors.InvalidInput({
            field: "status",
            reason: input.status === "approved"
              ? "the author of a change request cannot approve it unless the space's merge rules allow it (allow_author_approval)"
              : "the author of a change request cannot request changes on it"
          })
        }
        if (cr.status === "merged" || cr.status === "archived") {
          return yield* new Errors.InvalidInput({
            field: "changeRequestId",
            reason: `change request ${cr.number} is ${cr.status}; only draft and open change requests can be reviewed`
          })
        }
        const at = yield* now
        const id = yield* ids.make
        // The comment, the review and the cleared request land together or not at all.
        const review = yield* transactor.transaction(Effect.gen(function*() {
          const comment = input.comment === undefined
            ? null
            : yield* comments.post({ spaceId, changeRequestId: cr.id }, { markdown: input.comment }).pipe(
              Effect.catchTag("InvalidInput", (e) => Effect.fail(new Errors.InvalidInput({ field: e.field === "body" ? "comment" : e.field, reason: e.reason })))
            )
          const request = yield* repo.findRequestedReviewer(cr.id, actor.userId)
          const stored: Review = {
            id,
            spaceId,
            changeRequestId: cr.id,
            reviewerId: actor.userId,
            status: input.status,
            revision: cr.revision,
            requestedBy: Option.match(request, { onNone: () => null, onSome: (r) => r.requestedBy }),
            commentId: comment === null ? null : comment.comment.id,
            createdAt: at
          }
          yield* repo.insertReview(stored)
          if (Option.isSome(request)) yield* repo.removeRequestedReviewer(cr.id, actor.userId)
          return stored
        }))
        return yield* view(found, review)
      })

      const list = Effect.fn("ChangeRequestReviews.list")(function*(spaceId: string, ref: string, request: ReviewListRequest) {
        const after = yield* Pagination.afterOf(request, reviewKeyShape)
        const found = yield* changeRequests.get(spaceId, ref)
        const head = found.changeRequest.revision
        const page = yield* repo.listReviews(
          {
            changeRequestId: found.changeRequest.id,
            ...(request.outdated === true ? { notOnRevision: head } : request.outdated === false ? { onRevision: head } : {})
          },
          after,
          Pagination.limitOf(request)
        )
        return { ...page, items: yield* Effect.forEach(page.items, (review) => view(found, review)) }
      })

      const get = Effect.fn("ChangeRequestReviews.get")(function*(spaceId: string, ref: string, reviewId: string) {
        const found = yield* changeRequests.get(spaceId, ref)
        const review = Option.filter(yield* repo.findReview(reviewId), (r) => r.changeRequestId === found.changeRequest.id)
        if (Option.isNone(review)) return yield* new Errors.NotFound({ resource: "Review", id: reviewId })
        return yield* view(found, review.value)
      })


      const mergeCheck = Effect.fn("ChangeRequestReviews.mergeCheck")(function*(spaceId: string, ref: string) {
        const found = yield* changeRequests.get(spaceId, ref)
        return yield* checkRules(found.access.space, found.changeRequest, (yield* Actor.Actor).userId, { first: false })
      })

      const contributors = Effect.fn("ChangeRequestReviews.contributors")(function*(spaceId: string, ref: string) {
        const found = yield* changeRequests.get(spaceId, ref)
        const cr = found.changeRequest
        const edits = yield* repo.editContributions(cr.id)
        const commenters = yield* commentsRepo.commenters(spaceId, cr.id)
        return [
          ...edits.map((e): Contribution => ({ userId: e.userId, actionType: "edit", count: e.edits, updatedAt: e.lastEditedAt })),
          ...commenters.map((c): Contribution => ({ userId: c.userId, actionType: "comment", count: c.count, updatedAt: c.lastPostedAt }))
        ]
      })

      const commenters = Effect.fn("ChangeRequestReviews.commenters")(function*(scope: CommentScope, request: Pagination.PageRequest) {
        const after = yield* Pagination.afterOf(request, commenterKeyShape)
        const resolved = scope.changeRequestId === null
          ? { access: yield* access.space(scope.spaceId), changeRequestId: null }
          : yield* Effect.map(changeRequests.get(scope.spaceId, scope.changeRequestId), (found) => ({
            access: found.access,
            changeRequestId: found.changeRequest.id
          }))
        const all = yield* commentsRepo.commenters(scope.spaceId, resolved.changeRequestId)
        return {
          organizationId: resolved.access.space.organizationId,
          page: yield* Pagination.paginateArray(all, commenterKey, { order: "asc", after, limit: Pagination.limitOf(request) })
        }
      })

      return ChangeRequestReviews.of({
        submit,
        list,
        get,
        ...reviewRequests({ repo, changeRequests, access, transactor, notify }),
        mergeCheck,
        contributors,
        commenters
      })
    })
  )
}
