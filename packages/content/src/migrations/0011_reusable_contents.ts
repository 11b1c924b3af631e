/**
 * A revision's reusable contents (GitBook's `.gitbook/includes/`): their list, small and bounded
 * (domain/ReusableContent.ts), as JSON beside the revision; NULL: none. Their markdown is in
 * `content_documents` like pages'.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0011_reusable_contents = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE content_revisions ADD COLUMN reusable_contents jsonb`
})
