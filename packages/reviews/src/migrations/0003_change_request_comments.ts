/** The count of a change request's open comments, moved in the same transaction as its comments. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0003_change_request_comments = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE reviews_change_requests ADD COLUMN comments integer NOT NULL DEFAULT 0`
  // Comments posted before the counter existed.
  yield* sql`
    UPDATE reviews_change_requests cr SET comments = (
      SELECT COUNT(*) FROM review_comments c WHERE c.change_request_id = cr.id AND c.status = 'open'
    )`
})
