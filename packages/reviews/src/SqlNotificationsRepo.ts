/** Postgres adapter of NotificationsRepo. */
import { Array as Arr, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { type Notification, NotificationKind } from "./domain/Notification.ts"
import { notificationKey, NotificationsRepo } from "./NotificationsRepo.ts"

type Row = Record<string, unknown>

const notifications = Rows.decoder(
  "reviews_notifications",
  Schema.Struct({
    id: Schema.String,
    user_id: Schema.String,
    kind: NotificationKind,
    actor_id: Schema.String,
    space_id: Schema.String,
    change_request_id: Schema.NullOr(Schema.String),
    comment_id: Schema.NullOr(Schema.String),
    reply_id: Schema.NullOr(Schema.String),
    page_id: Schema.NullOr(Schema.String),
    created_at: Rows.Timestamp,
    read_at: Rows.TimestampOrNull
  }),
  (row): Notification => ({
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    actorId: row.actor_id,
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    commentId: row.comment_id,
    replyId: row.reply_id,
    pageId: row.page_id,
    createdAt: row.created_at,
    readAt: row.read_at
  })
)

export const layer = Layer.effect(
  NotificationsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return NotificationsRepo.of({
      insert: (items) => {
        const rows = items.map((n) => ({
          id: n.id,
          user_id: n.userId,
          kind: n.kind,
          actor_id: n.actorId,
          space_id: n.spaceId,
          change_request_id: n.changeRequestId,
          comment_id: n.commentId,
          reply_id: n.replyId,
          page_id: n.pageId,
          created_at: n.createdAt,
          read_at: n.readAt
        }))
        if (!Arr.isArrayNonEmpty(rows)) return Effect.void
        return sql`INSERT INTO reviews_notifications ${sql.insert(rows)}`.pipe(Effect.orDie, Effect.asVoid)
      },
      find: (notificationId) =>
        sql<Row>`SELECT * FROM reviews_notifications WHERE id = ${notificationId}`.pipe(Effect.orDie, Effect.flatMap(notifications.first)),
      list: (query, after, limit) => {
        const conditions = [
          sql`user_id = ${query.userId}`,
          ...(query.unread === undefined ? [] : [query.unread ? sql`read_at IS NULL` : sql`read_at IS NOT NULL`]),
          ...(after === undefined ? [] : [sql`(created_at, id) < (${String(after[0])}::timestamptz, ${String(after[1])})`])
        ]
        return sql<Row>`
          SELECT * FROM reviews_notifications WHERE ${sql.and(conditions)}
          ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(notifications.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, notificationKey))
        )
      },
      unreadBySpace: (userId) =>
        sql<{ readonly space_id: string; readonly count: number | string }>`
          SELECT space_id, count(*)::int AS count FROM reviews_notifications
          WHERE user_id = ${userId} AND read_at IS NULL GROUP BY space_id`.pipe(
          Effect.orDie,
          Effect.map((rows) => new Map(rows.map((row) => [row.space_id, Number(row.count)])))
        ),
      setRead: (notificationId, at) =>
        sql<Row>`
          UPDATE reviews_notifications
          SET read_at = ${at === null ? sql`NULL` : sql`COALESCE(read_at, ${at})`}
          WHERE id = ${notificationId} RETURNING *`.pipe(Effect.orDie, Effect.flatMap(notifications.first)),
      markAllRead: (userId, at) =>
        sql<Row>`
          UPDATE reviews_notifications SET read_at = ${at}
          WHERE user_id = ${userId} AND read_at IS NULL RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows.length)),
      removeForSpace: (spaceId) => sql`DELETE FROM reviews_notifications WHERE space_id = ${spaceId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
