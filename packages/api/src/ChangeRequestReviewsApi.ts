/**
 * Reviews of change requests, the reviewers asked for one, who contributed to a change request,
 * and who commented in a space or a change request (GitBook's change-request reviews, reviewers,
 * contributors and commenters). The change request is named by its id or its number.
 */
import { Schema } from "effect"
import { MergeRules } from "@quire/kernel"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReviewStatus } from "@quire/reviews/domain/Review"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { ChangeRequestSubject, changeRequestParams } from "./ChangeRequestsApi.ts"
import { Comment, maxCommentMarkdown } from "./CommentsApi.ts"
import { Member } from "./MembersApi.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, Format, ListOf, PageQuery, Text, Timestamp, User } from "./Schemas.ts"

export { ReviewStatus }

/** GitBook's ChangeRequestReview. `outdated`: made on another revision than the change request's head. */
export const ChangeRequestReview = Schema.Struct({
  object: Schema.Literal("change-request-review"),
  id: Schema.String,
  /** The revision reviewed. */
  revision: Schema.String,
  reviewer: User,
  /** Who had asked the reviewer; absent when nobody had. */
  requestedBy: Schema.optionalKey(User),
  status: ReviewStatus,
  outdated: Schema.Boolean,
  /** The comment posted on the change request with the review. */
  comment: Schema.optionalKey(Comment),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Schema.Struct({ location: Schema.String })
}).annotate({ identifier: "ChangeRequestReview" })
export type ChangeRequestReview = typeof ChangeRequestReview.Type

/** GitBook's ChangeRequestRequestedReviewer (Quire requests users, not teams). */
export const ChangeRequestRequestedReviewer = Schema.Struct({
  object: Schema.Literal("change-request-requested-reviewer"),
  /** The change request's head when the review was requested. */
  revision: Schema.String,
  requestedBy: User,
  createdAt: Timestamp,
  kind: Schema.Literal("user"),
  user: User,
  /** Quire's: when the reviewer is the agent (`user.id` "agent"), where its review stands. */
  agentReview: Schema.optionalKey(Schema.Struct({
    status: Schema.Literals(["pending", "running", "done", "failed"]),
    /** The comments it left, anchored on the pages. */
    comments: Schema.Finite,
    /** Its closing words when done, or why it failed. */
    message: Schema.optionalKey(Schema.String)
  }))
}).annotate({ identifier: "ChangeRequestRequestedReviewer" })
export type ChangeRequestRequestedReviewer = typeof ChangeRequestRequestedReviewer.Type

/** GitBook's ChangeRequestUserContributor: a user's edits of a change request, or their comments and replies on it. */
export const ChangeRequestUserContributor = Schema.Struct({
  updatedAt: Timestamp,
  count: Schema.Finite,
  user: User,
  actionType: Schema.Literals(["edit", "comment"])
}).annotate({ identifier: "ChangeRequestUserContributor" })
export type ChangeRequestUserContributor = typeof ChangeRequestUserContributor.Type

/** The body of submitting a review: a status and, optionally, a comment (markdown) posted on the change request. */
export const SubmitReviewPayload = Schema.Struct({
  status: ReviewStatus,
  comment: Schema.optionalKey(Schema.Struct({ markdown: Text.check(Schema.isMinLength(1), Schema.isMaxLength(maxCommentMarkdown)) }))
})

/** The body of requesting reviewers: 1 to 50 user ids, and optionally a new subject. */
export const RequestReviewersPayload = Schema.Struct({
  users: Schema.Array(EntityId).check(Schema.isMinLength(1), Schema.isMaxLength(50)),
  subject: Schema.optionalKey(ChangeRequestSubject)
})

/** DELETE of a requested reviewer: 205 when the request was withdrawn, 204 when there was none (GitBook's answers). */
export const RemovedReviewer = Schema.Literal("removed").pipe(
  HttpApiSchema.asNoContent({ decode: () => "removed" as const }),
  HttpApiSchema.status(205)
)
export const AbsentReviewer = Schema.Literal("absent").pipe(
  HttpApiSchema.asNoContent({ decode: () => "absent" as const }),
  HttpApiSchema.status(204)
)

/** The caller's "Viewed" marks on a change request's pages: those unchanged since they were marked. */
/**
 * Quire's: the merge rules that apply to a change request (`source`: its space's own, or its
 * organization's, which the space follows) and which of them block its merge by the caller now.
 */
export const ChangeRequestMergeRules = Schema.Struct({
  object: Schema.Literal("change-request-merge-rules"),
  source: Schema.Literals(["space", "organization"]),
  rules: MergeRules.StandaloneConfiguration,
  /** The caller is named by `allow_bypass`: no rule blocks them. */
  bypass: Schema.Boolean,
  /** No rule blocks the caller's merge (its status and conflicts aside). */
  mergeable: Schema.Boolean,
  /** The rules that block it, in their order: the rule's name, its index in `rules.rules`, and why in words. */
  blockers: Schema.Array(Schema.Struct({ rule: Schema.String, index: Schema.Int, message: Schema.String }))
}).annotate({ identifier: "ChangeRequestMergeRules" })
export type ChangeRequestMergeRules = typeof ChangeRequestMergeRules.Type

export const ViewedPages = Schema.Struct({
  object: Schema.Literal("change-request-viewed-pages"),
  items: Schema.Array(Schema.Struct({
    pageId: Schema.String,
    /** The change request's revision when the page was marked. */
    revision: Schema.String,
    viewedAt: Timestamp
  }))
}).annotate({ identifier: "ChangeRequestViewedPages" })
export type ViewedPages = typeof ViewedPages.Type

/** Marks one page of the change request viewed (or clears the mark). */
export const SetViewedPagePayload = Schema.Struct({
  pageId: EntityId,
  viewed: Schema.Boolean
})

const prefix = "/spaces/:spaceId/change-requests/:changeRequestId"
const reviewParams = { ...changeRequestParams, reviewId: EntityId }

export class ChangeRequestReviewsApi extends HttpApiGroup.make("changeRequestReviews")
  .add(
    /** Approves the change request's head or asks for changes; needs the review role, and the author cannot review. */
    HttpApiEndpoint.post("submitChangeRequestReview", `${prefix}/reviews`, {
      params: changeRequestParams,
      payload: SubmitReviewPayload,
      success: ChangeRequestReview.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Review a change request",
        description: "Approves the change request's current revision or asks for changes, optionally with a markdown comment that is posted on the change request. Needs the review role; the change request's author cannot review it. Clears the caller's pending review request. An approval counts for the space's merge rules only while the revision it approved is the change request's latest.",
        transform: requestExample({ status: "approved", comment: { markdown: "Reads well, thanks!" } })
      })),
    /** The change request's reviews, oldest first; `outdated` keeps only outdated (true) or current (false) ones. */
    HttpApiEndpoint.get("getReviewsByChangeRequestId", `${prefix}/reviews`, {
      params: changeRequestParams,
      query: { ...PageQuery, outdated: Schema.optional(Schema.Boolean), format: Schema.optional(Format) },
      success: ListOf(ChangeRequestReview),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a change request's reviews",
        description: "Lists the reviews of a change request, oldest first, paginated. A review is outdated when it was made on another revision than the change request's latest; `outdated=true` or `false` keeps only those. Needs view permission."
      })),
    HttpApiEndpoint.get("getChangeRequestReviewById", `${prefix}/reviews/:reviewId`, {
      params: reviewParams,
      query: { format: Schema.optional(Format) },
      success: ChangeRequestReview,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a change request review",
        description: "Answers one review of the change request, with its comment if it has one. Needs view permission."
      })),
    /** Pending review requests, oldest first; a reviewer's review clears theirs. */
    HttpApiEndpoint.get("getRequestedReviewersByChangeRequestId", `${prefix}/requested-reviewers`, {
      params: changeRequestParams,
      query: PageQuery,
      success: ListOf(ChangeRequestRequestedReviewer),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a change request's requested reviewers",
        description: "Lists the reviewers asked for a review who have not reviewed since, oldest request first, paginated. Needs view permission."
      })),
    /** Asks members who may review the space for a review; needs the edit role. */
    HttpApiEndpoint.post("requestReviewersForChangeRequest", `${prefix}/requested-reviewers`, {
      params: changeRequestParams,
      payload: RequestReviewersPayload,
      success: Schema.Struct({ users: Schema.Array(ChangeRequestRequestedReviewer) }),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Request reviewers for a change request",
        description: "Asks members of the organization for a review; each must be able to review the space (the review role or above) and must not be the change request's author (a 400 names `users[i]` otherwise). Asking again renews the request. Optionally changes the subject. Needs the edit role. " +
          "Quire's agent is asked as the user `agent`: its review runs in the background as the person who asked, with their rights, leaving comments anchored on the pages, and the request says where it stands (`agentReview`); without a language model on the server, asking it is a 400 naming `users[i]`.",
        transform: requestExample({ users: ["u_reviewer"], subject: "Rewrite the installation guide" })
      })),
    /** Withdraws a review request: 205 when it existed, 204 otherwise. */
    HttpApiEndpoint.delete("removeRequestedReviewerFromChangeRequest", `${prefix}/requested-reviewers/:userId`, {
      params: { ...changeRequestParams, userId: EntityId },
      success: [RemovedReviewer, AbsentReviewer],
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Withdraw a review request",
        description: "Withdraws the review request of a user: 205 when there was one, 204 when there was none. Needs the edit role, unless the caller withdraws their own request."
      })),
    /** Who edited the change request (`edit`) and who commented on it (`comment`), with counts. */
    HttpApiEndpoint.get("getContributorsByChangeRequestId", `${prefix}/contributors`, {
      params: changeRequestParams,
      success: ListOf(ChangeRequestUserContributor),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a change request's contributors",
        description: "Lists who edited the change request's content (`edit`, counting their edits) and who commented on it (`comment`, counting comments and replies), each with their latest contribution. Needs view permission."
      })),
    /** The members who commented on the space's own content, by user id. */
    HttpApiEndpoint.get("listCommentersInSpace", "/spaces/:spaceId/commenters", {
      params: { spaceId: EntityId },
      query: PageQuery,
      success: ListOf(Member),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List the commenters of a space",
        description: "Lists, as organization members, the people who posted comments or replies on the space's own content (not its change requests), ordered by user id, paginated. Needs view permission."
      })),
    /** The members who commented on the change request, by user id. */
    HttpApiEndpoint.get("listCommentersInChangeRequest", `${prefix}/commenters`, {
      params: changeRequestParams,
      query: PageQuery,
      success: ListOf(Member),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List the commenters of a change request",
        description: "Lists, as organization members, the people who posted comments or replies on the change request, ordered by user id, paginated. Needs view permission."
      })),
    /** The merge rules that apply to the change request, and which block its merge by the caller now. */
    HttpApiEndpoint.get("getMergeRulesForChangeRequest", `${prefix}/merge-rules`, {
      params: changeRequestParams,
      success: ChangeRequestMergeRules,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Check a change request's merge rules",
        description: "Quire's extension (GitBook has no such operation): the merge rules that apply to the change request (its space's own, or its organization's when the space inherits them) and which of them block its merge by the caller now, custom rules evaluated as a merge evaluates them, each with the reason in words. Its status and conflicts are not rules: the change request says them. Needs view permission."
      })),
    /** The caller's "Viewed" marks on the change request's pages that still hold. */
    HttpApiEndpoint.get("listViewedPagesInChangeRequest", `${prefix}/viewed-pages`, {
      params: changeRequestParams,
      success: ViewedPages,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List the pages I viewed in a change request",
        description: "Quire's extension (GitBook has no such operation): the pages of the change request the caller marked viewed while reviewing it. A mark holds while the page is as it was when marked: a later revision that changes the page clears it. Needs view permission."
      })),
    /** Marks a page of the change request viewed by the caller, or clears the mark; answers the marks. */
    HttpApiEndpoint.put("setViewedPageInChangeRequest", `${prefix}/viewed-pages`, {
      params: changeRequestParams,
      payload: SetViewedPagePayload,
      success: ViewedPages,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Mark a page of a change request viewed",
        description: "Quire's extension (GitBook has no such operation): marks one page of the change request (one it has, or one it deletes) viewed by the caller (`viewed: true`), or clears the mark (`false`), and answers the caller's marks. A 400 names `pageId` when the change request has no such page. Needs the review role.",
        transform: requestExample({ pageId: "p_getting-started", viewed: true })
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
