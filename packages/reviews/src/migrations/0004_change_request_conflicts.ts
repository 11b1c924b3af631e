/** The conflicts a change request's last merge or update found, kept until it changes or merges cleanly. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0004_change_request_conflicts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE reviews_change_requests ADD COLUMN conflicts jsonb`
})
