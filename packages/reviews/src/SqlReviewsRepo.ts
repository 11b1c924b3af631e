/** Postgres adapter of ReviewsRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { AgentReviewState, type EditContribution, type RequestedReviewer, type Review, ReviewStatus } from "./domain/Review.ts"
import { requestedReviewerKey, reviewKey, ReviewsRepo } from "./ReviewsRepo.ts"

type Row = Record<string, unknown>

const reviews = Rows.decoder(
  "reviews_reviews",
  Schema.Struct({
    id: Schema.String,
    space_id: Schema.String,
    change_request_id: Schema.String,
    reviewer_id: Schema.String,
    status: ReviewStatus,
    revision: Schema.String,
    requested_by: Schema.NullOr(Schema.String),
    comment_id: Schema.NullOr(Schema.String),
    created_at: Rows.Timestamp
  }),
  (row): Review => ({
    id: row.id,
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    reviewerId: row.reviewer_id,
    status: row.status,
    revision: row.revision,
    requestedBy: row.requested_by,
    commentId: row.comment_id,
    createdAt: row.created_at
  })
)

const requests = Rows.decoder(
  "reviews_requested_reviewers",
  Schema.Struct({
    change_request_id: Schema.String,
    user_id: Schema.String,
    space_id: Schema.String,
    requested_by: Schema.String,
    revision: Schema.String,
    created_at: Rows.Timestamp,
    agent_review: Schema.optional(Schema.NullOr(AgentReviewState))
  }),
  (row): RequestedReviewer => ({
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    userId: row.user_id,
    requestedBy: row.requested_by,
    revision: row.revision,
    createdAt: row.created_at,
    ...(row.agent_review === null || row.agent_review === undefined ? {} : { agentReview: row.agent_review })
  })
)

const contributions = Rows.decoder(
  "reviews_edit_contributions",
  Schema.Struct({
    change_request_id: Schema.String,
    user_id: Schema.String,
    edits: Schema.Number,
    last_edited_at: Rows.Timestamp
  }),
  (row): EditContribution => ({
    changeRequestId: row.change_request_id,
    userId: row.user_id,
    edits: row.edits,
    lastEditedAt: row.last_edited_at
  })
)

export const layer = Layer.effect(
  ReviewsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return ReviewsRepo.of({
      insertReview: (review) =>
        sql`
          INSERT INTO reviews_reviews (id, space_id, change_request_id, reviewer_id, status, revision, requested_by, comment_id, created_at)
          VALUES (${review.id}, ${review.spaceId}, ${review.changeRequestId}, ${review.reviewerId}, ${review.status},
            ${review.revision}, ${review.requestedBy}, ${review.commentId}, ${review.createdAt})`.pipe(Effect.orDie, Effect.asVoid),
      findReview: (reviewId) =>
        sql<Row>`SELECT * FROM reviews_reviews WHERE id = ${reviewId}`.pipe(Effect.orDie, Effect.flatMap(reviews.first)),
      listReviews: (query, after, limit) => {
        const conditions = [
          sql`change_request_id = ${query.changeRequestId}`,
          ...(query.onRevision === undefined ? [] : [sql`revision = ${query.onRevision}`]),
          ...(query.notOnRevision === undefined ? [] : [sql`revision <> ${query.notOnRevision}`]),
          ...(after === undefined ? [] : [sql`(created_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`])
        ]
        return sql<Row>`SELECT * FROM reviews_reviews WHERE ${sql.and(conditions)} ORDER BY created_at, id LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(reviews.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, reviewKey))
        )
      },
      allReviews: (changeRequestId) =>
        sql<Row>`SELECT * FROM reviews_reviews WHERE change_request_id = ${changeRequestId} ORDER BY created_at, id`.pipe(
          Effect.orDie,
          Effect.flatMap(reviews.all)
        ),
      requestReviewer: (request) =>
        sql`
          INSERT INTO reviews_requested_reviewers (change_request_id, user_id, space_id, requested_by, revision, created_at, agent_review)
          VALUES (${request.changeRequestId}, ${request.userId}, ${request.spaceId}, ${request.requestedBy}, ${request.revision},
            ${request.createdAt}, ${request.agentReview === undefined ? null : JSON.stringify(request.agentReview)}::jsonb)
          ON CONFLICT (change_request_id, user_id) DO UPDATE
          SET requested_by = EXCLUDED.requested_by, revision = EXCLUDED.revision, created_at = EXCLUDED.created_at,
            agent_review = EXCLUDED.agent_review`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      findRequestedReviewer: (changeRequestId, userId) =>
        sql<Row>`
          SELECT * FROM reviews_requested_reviewers WHERE change_request_id = ${changeRequestId} AND user_id = ${userId}`.pipe(
          Effect.orDie,
          Effect.flatMap(requests.first)
        ),
      changeRequestsAwaiting: (userId) =>
        sql<{ readonly change_request_id: string }>`
          SELECT change_request_id FROM reviews_requested_reviewers WHERE user_id = ${userId}`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.map((row) => row.change_request_id))
        ),
      listRequestedReviewers: (changeRequestId, after, limit) => {
        const range = after === undefined
          ? sql`true`
          : sql`(created_at, user_id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
        return sql<Row>`
          SELECT * FROM reviews_requested_reviewers WHERE change_request_id = ${changeRequestId} AND ${range}
          ORDER BY created_at, user_id LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(requests.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, requestedReviewerKey))
        )
      },
      removeRequestedReviewer: (changeRequestId, userId) =>
        sql<Row>`
          DELETE FROM reviews_requested_reviewers WHERE change_request_id = ${changeRequestId} AND user_id = ${userId}
          RETURNING user_id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      recordEdit: (spaceId, changeRequestId, userId, at) =>
        sql`
          INSERT INTO reviews_edit_contributions (change_request_id, user_id, space_id, edits, first_edited_at, last_edited_at)
          VALUES (${changeRequestId}, ${userId}, ${spaceId}, 1, ${at}, ${at})
          ON CONFLICT (change_request_id, user_id) DO UPDATE
          SET edits = reviews_edit_contributions.edits + 1, last_edited_at = EXCLUDED.last_edited_at`.pipe(Effect.orDie, Effect.asVoid),
      editContributions: (changeRequestId) =>
        sql<Row>`
          SELECT * FROM reviews_edit_contributions WHERE change_request_id = ${changeRequestId}
          ORDER BY first_edited_at, user_id`.pipe(Effect.orDie, Effect.flatMap(contributions.all)),
      removeForSpace: (spaceId) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM reviews_reviews WHERE space_id = ${spaceId}`
          yield* sql`DELETE FROM reviews_requested_reviewers WHERE space_id = ${spaceId}`
          yield* sql`DELETE FROM reviews_edit_contributions WHERE space_id = ${spaceId}`
        }).pipe(Effect.orDie)
    })
  })
)
