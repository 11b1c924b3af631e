/** Who merged a change request, and when (GitBook's `mergedBy` and `mergedAt`); null until merged. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0010_merged_by = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE reviews_change_requests ADD COLUMN merged_by text COLLATE "C", ADD COLUMN merged_at timestamptz`
})
