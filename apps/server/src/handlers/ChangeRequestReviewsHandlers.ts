/**
 * Handlers of the change request reviews group: the ChangeRequestReviews use cases, their users
 * looked up once per answer, review comments presented as change-request comments, commenters as
 * organization members.
 */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type ChangeRequestRequestedReviewer, type ChangeRequestReview } from "@quire/api"
import { Members } from "@quire/identity"
import { AgentReviews, agentReviewerId, ChangeRequestReviews, type CommenterPage, type RequestedReviewer, type ReviewView, ViewedPages, type ViewedPagesView } from "@quire/reviews"
import * as CommentPresenters from "../CommentPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"


const reviewPath = (spaceId: string, changeRequestId: string, reviewId: string) =>
  `/spaces/${spaceId}/change-requests/${changeRequestId}/reviews/${reviewId}`

/** The agent as GitBook's `User`, so that GitBook's clients list it among the reviewers. */
const agentUser = (urls: PublicUrl["Service"]) =>
  ({ object: "user" as const, id: agentReviewerId, displayName: "Agent", urls: { location: urls.api(`/users/${agentReviewerId}`) } })

const agentReviewOf = (r: RequestedReviewer) =>
  r.agentReview === undefined
    ? {}
    : { agentReview: { status: r.agentReview.status, comments: r.agentReview.comments, ...(r.agentReview.message === null ? {} : { message: r.agentReview.message }) } }

const presentViewed = (view: ViewedPagesView) => ({
  object: "change-request-viewed-pages" as const,
  items: view.pages.map((mark) => ({ pageId: mark.pageId, revision: mark.revision, viewedAt: mark.viewedAt.toISOString() }))
})

export const layer = HttpApiBuilder.group(Api, "changeRequestReviews", Effect.fn(function*(handlers) {
  const reviews = yield* ChangeRequestReviews
  const agentReviews = yield* AgentReviews
  const viewed = yield* ViewedPages
  const members = yield* Members
  const urls = yield* PublicUrl
  const commentUsers = yield* CommentPresenters.userLookup
  const lookup = yield* CommentPresenters.usersById

  const presentReviews = Effect.fnUntraced(function*(views: ReadonlyArray<ReviewView>) {
    const user = yield* lookup(views.flatMap((v) => [v.review.reviewerId, ...(v.review.requestedBy === null ? [] : [v.review.requestedBy])]))
    const withComments = views.flatMap((v) => (v.comment === null ? [] : [v.comment]))
    const commentUser = yield* commentUsers(withComments)
    return views.map((v): ChangeRequestReview => {
      const r = v.review
      return {
        object: "change-request-review",
        id: r.id,
        revision: r.revision,
        reviewer: user(r.reviewerId),
        ...(r.requestedBy === null ? {} : { requestedBy: user(r.requestedBy) }),
        status: r.status,
        outdated: v.outdated,
        ...(v.comment === null ? {} : { comment: CommentPresenters.comment(urls, v.comment, commentUser) }),
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.createdAt.toISOString(),
        urls: { location: urls.api(reviewPath(r.spaceId, r.changeRequestId, r.id)) }
      }
    })
  })
  const presentReview = (view: ReviewView) => Effect.map(presentReviews([view]), (items) => items[0]!)

  const presentRequests = Effect.fnUntraced(function*(requests: ReadonlyArray<RequestedReviewer>) {
    const user = yield* lookup(requests.flatMap((r) => [...(r.userId === agentReviewerId ? [] : [r.userId]), r.requestedBy]))
    return requests.map((r): ChangeRequestRequestedReviewer => ({
      object: "change-request-requested-reviewer",
      revision: r.revision,
      requestedBy: user(r.requestedBy),
      createdAt: r.createdAt.toISOString(),
      kind: "user",
      ...(r.userId === agentReviewerId ? { user: agentUser(urls), ...agentReviewOf(r) } : { user: user(r.userId) })
    }))
  })

  /** Commenters as members of the space's organization; one who left it since is left out. */
  const presentCommenters = Effect.fnUntraced(function*({ organizationId, page }: CommenterPage) {
    const found = yield* Effect.forEach(page.items, (commenter) =>
      Effect.option(members.get(organizationId, commenter.userId)), { concurrency: 4 })
    const items = found.flatMap((member) => (Option.isSome(member) ? [Presenters.member(urls, member.value)] : []))
    return { ...(page.next === undefined ? {} : { next: { page: page.next } }), count: items.length, items }
  })

  return handlers
    .handle("submitChangeRequestReview", ({ params, payload }) =>
      reviews.submit(params.spaceId, params.changeRequestId, { status: payload.status, comment: payload.comment?.markdown }).pipe(
        DomainErrors.api,
        Effect.flatMap(presentReview)
      ))
    .handle("getReviewsByChangeRequestId", ({ params, query }) =>
      reviews.list(params.spaceId, params.changeRequestId, query).pipe(
        DomainErrors.api,
        Effect.flatMap((page) =>
          Effect.map(presentReviews(page.items), (items) => ({
            ...(page.next === undefined ? {} : { next: { page: page.next } }),
            count: items.length,
            items
          }))
        )
      ))
    .handle("getChangeRequestReviewById", ({ params }) =>
      reviews.get(params.spaceId, params.changeRequestId, params.reviewId).pipe(DomainErrors.api, Effect.flatMap(presentReview)))
    .handle("getRequestedReviewersByChangeRequestId", ({ params, query }) =>
      reviews.requestedReviewers(params.spaceId, params.changeRequestId, query).pipe(
        DomainErrors.api,
        Effect.flatMap((page) =>
          Effect.map(presentRequests(page.items), (items) => ({
            ...(page.next === undefined ? {} : { next: { page: page.next } }),
            count: items.length,
            items
          }))
        )
      ))
    .handle("requestReviewersForChangeRequest", ({ params, payload }) =>
      agentReviews.requestReviewers(params.spaceId, params.changeRequestId, payload).pipe(
        DomainErrors.api,
        Effect.flatMap(presentRequests),
        Effect.map((items) => ({ users: items }))
      ))
    .handle("removeRequestedReviewerFromChangeRequest", ({ params }) =>
      reviews.removeRequestedReviewer(params.spaceId, params.changeRequestId, params.userId).pipe(
        DomainErrors.api,
        Effect.map((removed) => (removed ? "removed" as const : "absent" as const))
      ))
    .handle("getContributorsByChangeRequestId", ({ params }) =>
      reviews.contributors(params.spaceId, params.changeRequestId).pipe(
        DomainErrors.api,
        Effect.flatMap((contributions) =>
          Effect.map(lookup(contributions.map((c) => c.userId)), (user) => ({
            count: contributions.length,
            items: contributions.map((c) => ({
              updatedAt: c.updatedAt.toISOString(),
              count: c.count,
              user: user(c.userId),
              actionType: c.actionType
            }))
          }))
        )
      ))
    .handle("listCommentersInSpace", ({ params, query }) =>
      reviews.commenters({ spaceId: params.spaceId, changeRequestId: null }, query).pipe(
        DomainErrors.api,
        Effect.flatMap(presentCommenters)
      ))
    .handle("listCommentersInChangeRequest", ({ params, query }) =>
      reviews.commenters({ spaceId: params.spaceId, changeRequestId: params.changeRequestId }, query).pipe(
        DomainErrors.api,
        Effect.flatMap(presentCommenters)
      ))
    .handle("getMergeRulesForChangeRequest", ({ params }) =>
      reviews.mergeCheck(params.spaceId, params.changeRequestId).pipe(
        DomainErrors.api,
        Effect.map((check) => ({
          object: "change-request-merge-rules" as const,
          source: check.inherited ? "organization" as const : "space" as const,
          rules: check.rules,
          bypass: check.bypass,
          mergeable: check.blockers.length === 0,
          blockers: check.blockers.map((b) => ({ rule: b.rule, index: b.index, message: b.message }))
        }))
      ))
    .handle("listViewedPagesInChangeRequest", ({ params }) =>
      viewed.list(params.spaceId, params.changeRequestId).pipe(DomainErrors.api, Effect.map(presentViewed)))
    .handle("setViewedPageInChangeRequest", ({ params, payload }) =>
      viewed.set(params.spaceId, params.changeRequestId, payload.pageId, payload.viewed).pipe(DomainErrors.api, Effect.map(presentViewed)))
}))
