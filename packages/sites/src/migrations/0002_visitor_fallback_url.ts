/** Where a visitor-auth site sends a reader without a valid token (GitBook's `fallbackURL`). */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0002_visitor_fallback_url = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE sites_sites ADD COLUMN visitor_fallback_url text`
})
