/**
 * A version's files keep the key order their author wrote: `jsonb` stores an object's keys shortest
 * first, so an example read `next, count` where the spec says `count, next`, and the document's own
 * keys came back `info, paths, openapi`. `json` keeps the text as given. A version stored before
 * keeps the order `jsonb` gave it; its hash is marked so that it no longer equals a run's over the
 * same source (a run stores a version only when its hash differs from the latest's), and the next
 * processing of its spec stores the files again, in their author's order.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0002_versions_keep_key_order = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE specs_versions ALTER COLUMN filesystem TYPE json USING filesystem::json`
  yield* sql`UPDATE specs_versions SET hash = 'jsonb:' || hash`
})
