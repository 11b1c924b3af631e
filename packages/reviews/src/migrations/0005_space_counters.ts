/**
 * The reviews package's counters of each space, kept by reviews itself (they were columns of
 * content's spaces table), computed once from the change requests and comments already stored.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0005_space_counters = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE reviews_space_counters (
      space_id text COLLATE "C" PRIMARY KEY,
      comments integer NOT NULL DEFAULT 0,
      change_requests integer NOT NULL DEFAULT 0,
      change_requests_open integer NOT NULL DEFAULT 0,
      change_requests_draft integer NOT NULL DEFAULT 0
    )`
  yield* sql`
    INSERT INTO reviews_space_counters (space_id, comments, change_requests, change_requests_open, change_requests_draft)
    SELECT space_id, SUM(comments), SUM(change_requests), SUM(change_requests_open), SUM(change_requests_draft)
    FROM (
      SELECT space_id, 0 AS comments, COUNT(*) AS change_requests,
        COUNT(*) FILTER (WHERE status = 'open') AS change_requests_open,
        COUNT(*) FILTER (WHERE status = 'draft') AS change_requests_draft
      FROM reviews_change_requests GROUP BY space_id
      UNION ALL
      SELECT space_id, COUNT(*), 0, 0, 0 FROM review_comments
      WHERE change_request_id IS NULL AND status = 'open' GROUP BY space_id
    ) counted
    GROUP BY space_id`
  // A purge finds a space's replies (and their reactions) by space.
  yield* sql`CREATE INDEX review_comment_replies_space ON review_comment_replies (space_id)`
})
