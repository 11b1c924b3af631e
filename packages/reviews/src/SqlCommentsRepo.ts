/** Postgres adapter of CommentsRepo. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { type Commenter, commentKey, CommentsRepo, type CommentsRepoShape } from "./CommentsRepo.ts"
import { type Comment, type CommentReply, CommentStatus, type Reaction, repliersOf, TableCell } from "./domain/Comment.ts"

type Row = Record<string, unknown>

const CommentRow = Schema.Struct({
  id: Schema.String,
  space_id: Schema.String,
  change_request_id: Schema.NullOr(Schema.String),
  revision_id: Schema.String,
  page_id: Schema.NullOr(Schema.String),
  node_id: Schema.NullOr(Schema.String),
  table_cell: Schema.NullOr(Rows.Json(TableCell)),
  author_id: Schema.String,
  markdown: Schema.String,
  posted_at: Rows.Timestamp,
  edited_at: Rows.TimestampOrNull,
  status: CommentStatus,
  resolved_at: Rows.TimestampOrNull,
  resolved_by: Schema.NullOr(Schema.String),
  replies: Schema.Number
})
const comments = Rows.decoder("review_comments", CommentRow)

const ReplyRow = Schema.Struct({
  id: Schema.String,
  comment_id: Schema.String,
  space_id: Schema.String,
  author_id: Schema.String,
  markdown: Schema.String,
  posted_at: Rows.Timestamp,
  edited_at: Rows.TimestampOrNull
})
const replies = Rows.decoder("review_comment_replies", ReplyRow)

const commenterRows = Rows.decoder(
  "review_comments",
  Schema.Struct({ author_id: Schema.String, count: Schema.Number, last_posted_at: Rows.Timestamp }),
  (row): Commenter => ({ userId: row.author_id, count: row.count, lastPostedAt: row.last_posted_at })
)

const ReactionRow = Schema.Struct({
  target_id: Schema.String,
  emoji: Schema.String,
  user_id: Schema.String,
  reacted_at: Rows.Timestamp
})
const reactions = Rows.decoder("review_comment_reactions", ReactionRow)
const replyAuthors = Rows.decoder("review_comment_replies", Schema.Struct({ comment_id: Schema.String, author_id: Schema.String, posted_at: Rows.Timestamp }))

const first = <A>(items: ReadonlyArray<A>) => Option.fromNullishOr(items[0])

/** Comments and replies from their rows, with their reactions. */
const rowReaders = (sql: SqlClient.SqlClient) => {
  /** Reactions of the given comments or replies, grouped by target, in a stable order. */
  const reactionsOf = (targetIds: ReadonlyArray<string>) =>
    targetIds.length === 0
      ? Effect.succeed(new Map<string, Array<Reaction>>())
      : sql<Row>`
          SELECT * FROM review_comment_reactions WHERE ${sql.in("target_id", targetIds)}
          ORDER BY reacted_at, emoji, user_id`.pipe(
          Effect.orDie,
          Effect.flatMap(reactions.all),
          Effect.map((rows) => {
            const byTarget = new Map<string, Array<Reaction>>()
            for (const row of rows) {
              const list = byTarget.get(row.target_id) ?? []
              list.push({ emoji: row.emoji, userId: row.user_id, reactedAt: row.reacted_at })
              byTarget.set(row.target_id, list)
            }
            return byTarget
          })
        )

  /** The replies' authors and times of the given comments, by comment, oldest first. */
  const replyAuthorsOf = (commentIds: ReadonlyArray<string>) =>
    commentIds.length === 0
      ? Effect.succeed(new Map<string, Array<{ authorId: string; postedAt: Date }>>())
      : sql<Row>`
          SELECT comment_id, author_id, posted_at FROM review_comment_replies WHERE ${sql.in("comment_id", commentIds)}
          ORDER BY posted_at, id`.pipe(
          Effect.orDie,
          Effect.flatMap(replyAuthors.all),
          Effect.map((rows) => {
            const byComment = new Map<string, Array<{ authorId: string; postedAt: Date }>>()
            for (const row of rows) byComment.set(row.comment_id, [...(byComment.get(row.comment_id) ?? []), { authorId: row.author_id, postedAt: row.posted_at }])
            return byComment
          })
        )

  const toComments = (raw: ReadonlyArray<Row>) =>
    Effect.flatMap(comments.all(raw), (rows) =>
      Effect.zipWith(reactionsOf(rows.map((row) => row.id)), replyAuthorsOf(rows.filter((row) => row.replies > 0).map((row) => row.id)), (reactions, authors) =>
        rows.map((row): Comment => ({
          id: row.id,
          spaceId: row.space_id,
          changeRequestId: row.change_request_id,
          revisionId: row.revision_id,
          target: { pageId: row.page_id, nodeId: row.node_id, tableCell: row.table_cell },
          authorId: row.author_id,
          markdown: row.markdown,
          postedAt: row.posted_at,
          editedAt: row.edited_at,
          status: row.status,
          resolvedAt: row.resolved_at,
          resolvedBy: row.resolved_by,
          replies: row.replies,
          repliers: repliersOf(authors.get(row.id) ?? []),
          reactions: reactions.get(row.id) ?? []
        }))))

  const toReplies = (raw: ReadonlyArray<Row>) =>
    Effect.flatMap(replies.all(raw), (rows) =>
      Effect.map(reactionsOf(rows.map((row) => row.id)), (reactions) =>
        rows.map((row): CommentReply => ({
          id: row.id,
          commentId: row.comment_id,
          spaceId: row.space_id,
          authorId: row.author_id,
          markdown: row.markdown,
          postedAt: row.posted_at,
          editedAt: row.edited_at,
          reactions: reactions.get(row.id) ?? []
        }))))

  return { toComments, toReplies }
}

/** The replies of a comment. */
const replyQueries = (
  sql: SqlClient.SqlClient,
  toReplies: (raw: ReadonlyArray<Row>) => Effect.Effect<Array<CommentReply>>
): Pick<CommentsRepoShape, "insertReply" | "findReply" | "listReplies" | "updateReplyBody" | "removeReply"> => ({
  insertReply: (reply) =>
    Effect.gen(function*() {
      yield* sql`
        INSERT INTO review_comment_replies (id, comment_id, space_id, author_id, markdown, posted_at, edited_at)
        VALUES (${reply.id}, ${reply.commentId}, ${reply.spaceId}, ${reply.authorId}, ${reply.markdown},
          ${reply.postedAt}, ${reply.editedAt})`
      yield* sql`UPDATE review_comments SET replies = replies + 1 WHERE id = ${reply.commentId}`
    }).pipe(Effect.orDie),
  findReply: (commentId, replyId) =>
    sql<Row>`SELECT * FROM review_comment_replies WHERE id = ${replyId} AND comment_id = ${commentId}`.pipe(
      Effect.orDie,
      Effect.flatMap(toReplies),
      Effect.map(first)
    ),
  listReplies: (commentId, after, limit) => {
    const range = after === undefined
      ? sql`true`
      : sql`(posted_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
    return sql<Row>`
      SELECT * FROM review_comment_replies
      WHERE comment_id = ${commentId} AND ${range}
      ORDER BY posted_at, id
      LIMIT ${limit + 1}`.pipe(
      Effect.orDie,
      Effect.flatMap(toReplies),
      Effect.flatMap((replies) => Pagination.pageFromRows(replies, limit, commentKey))
    )
  },
  updateReplyBody: (replyId, markdown, editedAt) =>
    sql<Row>`UPDATE review_comment_replies SET markdown = ${markdown}, edited_at = ${editedAt} WHERE id = ${replyId} RETURNING *`.pipe(
      Effect.orDie,
      Effect.flatMap(toReplies),
      Effect.map(first)
    ),
  removeReply: (commentId, replyId) =>
    Effect.gen(function*() {
      const deleted = yield* sql<Row>`
        DELETE FROM review_comment_replies WHERE id = ${replyId} AND comment_id = ${commentId} RETURNING id`
      if (deleted.length === 0) return false
      yield* sql`DELETE FROM review_comment_reactions WHERE target_id = ${replyId}`
      yield* sql`UPDATE review_comments SET replies = GREATEST(0, replies - 1) WHERE id = ${commentId}`
      return true
    }).pipe(Effect.orDie)
})

export const layer = Layer.effect(
  CommentsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { toComments, toReplies } = rowReaders(sql)

    return CommentsRepo.of({
      insert: (comment) =>
        sql`
          INSERT INTO review_comments (id, space_id, change_request_id, revision_id, page_id, node_id, table_cell, author_id,
            markdown, posted_at, edited_at, status, resolved_at, resolved_by, replies)
          VALUES (${comment.id}, ${comment.spaceId}, ${comment.changeRequestId}, ${comment.revisionId},
            ${comment.target.pageId}, ${comment.target.nodeId},
            ${comment.target.tableCell === null ? null : JSON.stringify(comment.target.tableCell)}::jsonb,
            ${comment.authorId}, ${comment.markdown}, ${comment.postedAt}, ${comment.editedAt}, ${comment.status},
            ${comment.resolvedAt}, ${comment.resolvedBy}, ${comment.replies})`.pipe(Effect.orDie, Effect.asVoid),
      find: (commentId) =>
        sql<Row>`SELECT * FROM review_comments WHERE id = ${commentId}`.pipe(
          Effect.orDie,
          Effect.flatMap(toComments),
          Effect.map(first)
        ),
      list: (query, after, limit) => {
        const changeRequest = query.changeRequestId === null
          ? sql`change_request_id IS NULL`
          : sql`change_request_id = ${query.changeRequestId}`
        const status = query.status === undefined ? sql`true` : sql`status = ${query.status}`
        const page = query.pageId === undefined ? sql`true` : sql`page_id = ${query.pageId}`
        const authors = query.authors === undefined || query.authors.length === 0 ? sql`true` : sql.in("author_id", query.authors)
        const desc = query.order === "desc"
        const range = after === undefined
          ? sql`true`
          : desc
          ? sql`(posted_at, id) < (${String(after[0])}::timestamptz, ${String(after[1])})`
          : sql`(posted_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
        const order = desc ? sql`ORDER BY posted_at DESC, id DESC` : sql`ORDER BY posted_at, id`
        return sql<Row>`
          SELECT * FROM review_comments
          WHERE space_id = ${query.spaceId} AND ${changeRequest} AND ${status} AND ${page} AND ${authors} AND ${range}
          ${order}
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(toComments),
          Effect.flatMap((comments) => Pagination.pageFromRows(comments, limit, commentKey))
        )
      },
      updateBody: (commentId, markdown, editedAt) =>
        sql<Row>`UPDATE review_comments SET markdown = ${markdown}, edited_at = ${editedAt} WHERE id = ${commentId} RETURNING *`.pipe(
          Effect.orDie,
          Effect.flatMap(toComments),
          Effect.map(first)
        ),
      setStatus: (commentId, change) =>
        sql<Row>`
          UPDATE review_comments SET status = ${change.status}, resolved_at = ${change.resolvedAt}, resolved_by = ${change.resolvedBy}
          WHERE id = ${commentId} AND status <> ${change.status}
          RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      remove: (commentId) =>
        Effect.gen(function*() {
          const rows = yield* sql<Row>`SELECT * FROM review_comments WHERE id = ${commentId} FOR UPDATE`
          const removed = yield* toComments(rows)
          if (removed.length === 0) return Option.none()
          yield* sql`
            DELETE FROM review_comment_reactions
            WHERE target_id = ${commentId}
              OR target_id IN (SELECT id FROM review_comment_replies WHERE comment_id = ${commentId})`
          // Replies go with the comment (ON DELETE CASCADE).
          const deleted = yield* sql<Row>`DELETE FROM review_comments WHERE id = ${commentId} RETURNING id`
          return deleted.length === 0 ? Option.none() : first(removed)
        }).pipe(Effect.orDie),
      react: (targetId, reaction) =>
        sql`
          INSERT INTO review_comment_reactions (target_id, emoji, user_id, reacted_at)
          VALUES (${targetId}, ${reaction.emoji}, ${reaction.userId}, ${reaction.reactedAt})
          ON CONFLICT DO NOTHING`.pipe(Effect.orDie, Effect.asVoid),
      unreact: (targetId, emoji, userId) =>
        sql`
          DELETE FROM review_comment_reactions
          WHERE target_id = ${targetId} AND emoji = ${emoji} AND user_id = ${userId}`.pipe(Effect.orDie, Effect.asVoid),
      ...replyQueries(sql, toReplies),
      commenters: (spaceId, changeRequestId) => {
        const scope = changeRequestId === null
          ? sql`c.space_id = ${spaceId} AND c.change_request_id IS NULL`
          : sql`c.space_id = ${spaceId} AND c.change_request_id = ${changeRequestId}`
        return sql<Row>`
          SELECT author_id, COUNT(*)::int AS count, MAX(posted_at) AS last_posted_at FROM (
            SELECT c.author_id, c.posted_at FROM review_comments c WHERE ${scope}
            UNION ALL
            SELECT r.author_id, r.posted_at FROM review_comment_replies r JOIN review_comments c ON c.id = r.comment_id WHERE ${scope}
          ) posted
          GROUP BY author_id
          ORDER BY author_id`.pipe(Effect.orDie, Effect.flatMap(commenterRows.all))
      },
      removeForSpace: (spaceId) =>
        Effect.gen(function*() {
          yield* sql`
            DELETE FROM review_comment_reactions WHERE target_id IN (
              SELECT id FROM review_comments WHERE space_id = ${spaceId}
              UNION ALL SELECT id FROM review_comment_replies WHERE space_id = ${spaceId})`
          // Replies go with their comments (ON DELETE CASCADE).
          yield* sql`DELETE FROM review_comments WHERE space_id = ${spaceId}`
        }).pipe(Effect.orDie)
    })
  })
)
