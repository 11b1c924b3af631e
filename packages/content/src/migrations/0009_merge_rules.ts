/** What a change request of each space must meet to be merged (GitBook's `mergeRules`); existing spaces inherit. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0009_merge_rules = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE content_spaces ADD COLUMN merge_rules jsonb NOT NULL DEFAULT '{"type":"inherit"}'::jsonb`
})
