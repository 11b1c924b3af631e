/** Postgres adapter of ViewedPagesRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import type { ViewedPage } from "./domain/ViewedPage.ts"
import { ViewedPagesRepo } from "./ViewedPagesRepo.ts"

type Row = Record<string, unknown>

const marks = Rows.decoder(
  "reviews_viewed_pages",
  Schema.Struct({
    change_request_id: Schema.String,
    user_id: Schema.String,
    page_id: Schema.String,
    space_id: Schema.String,
    fingerprint: Schema.String,
    revision: Schema.String,
    viewed_at: Rows.Timestamp
  }),
  (row): ViewedPage => ({
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    userId: row.user_id,
    pageId: row.page_id,
    fingerprint: row.fingerprint,
    revision: row.revision,
    viewedAt: row.viewed_at
  })
)

export const layer = Layer.effect(
  ViewedPagesRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return ViewedPagesRepo.of({
      list: (changeRequestId, userId) =>
        sql<Row>`
          SELECT * FROM reviews_viewed_pages
          WHERE change_request_id = ${changeRequestId} AND user_id = ${userId}
          ORDER BY page_id`.pipe(Effect.orDie, Effect.flatMap(marks.all)),
      put: (mark) =>
        sql`
          INSERT INTO reviews_viewed_pages (change_request_id, user_id, page_id, space_id, fingerprint, revision, viewed_at)
          VALUES (${mark.changeRequestId}, ${mark.userId}, ${mark.pageId}, ${mark.spaceId}, ${mark.fingerprint}, ${mark.revision}, ${mark.viewedAt})
          ON CONFLICT (change_request_id, user_id, page_id)
          DO UPDATE SET fingerprint = EXCLUDED.fingerprint, revision = EXCLUDED.revision, viewed_at = EXCLUDED.viewed_at`.pipe(Effect.orDie, Effect.asVoid),
      remove: (changeRequestId, userId, pageId) =>
        sql<Row>`
          DELETE FROM reviews_viewed_pages
          WHERE change_request_id = ${changeRequestId} AND user_id = ${userId} AND page_id = ${pageId}
          RETURNING page_id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      removeForSpace: (spaceId) => sql`DELETE FROM reviews_viewed_pages WHERE space_id = ${spaceId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
