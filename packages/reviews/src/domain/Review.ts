/**
 * Reviews of change requests, the reviewers asked for one, and who edited a change request: the
 * records of `ChangeRequestReviews` (GitBook's change-request reviews, reviewers and contributors).
 */
import { Schema } from "effect"

/** GitBook's ChangeRequestReviewStatus: a review approves or asks for changes (a plain remark is a comment). */
export const ReviewStatus = Schema.Literals(["changes-requested", "approved"])
export type ReviewStatus = typeof ReviewStatus.Type

export interface Review {
  readonly id: string
  readonly spaceId: string
  readonly changeRequestId: string
  readonly reviewerId: string
  readonly status: ReviewStatus
  /** The change request's head when the review was made: it counts only while that is still the head. */
  readonly revision: string
  /** Who had asked this reviewer for the review; null when nobody had. */
  readonly requestedBy: string | null
  /** The change-request comment posted with the review, if any. */
  readonly commentId: string | null
  readonly createdAt: Date
}

/** A reviewer asked for a review and not heard from since: their review clears the request. */
export interface RequestedReviewer {
  readonly spaceId: string
  readonly changeRequestId: string
  readonly userId: string
  readonly requestedBy: string
  /** The change request's head when the request was made. */
  readonly revision: string
  readonly createdAt: Date
  /** When the agent is the reviewer asked (`userId` is `agentReviewerId`): where its review stands. */
  readonly agentReview?: AgentReviewState | undefined
}

/** The user id that names the change request's agent among requested reviewers. */
export const agentReviewerId = "agent"

/** The agent's review, run in the background once requested. */
export const AgentReviewStatus = Schema.Literals(["pending", "running", "done", "failed"])
export type AgentReviewStatus = typeof AgentReviewStatus.Type

export const AgentReviewState = Schema.Struct({
  status: AgentReviewStatus,
  /** The comments it left (done). */
  comments: Schema.Number,
  /** Its closing words (done), or why it failed. */
  message: Schema.NullOr(Schema.String)
})
export type AgentReviewState = typeof AgentReviewState.Type

/** A user's edits of a change request: how many batches, and the last one's instant. */
export interface EditContribution {
  readonly changeRequestId: string
  readonly userId: string
  readonly edits: number
  readonly lastEditedAt: Date
}
