/**
 * A version's files keep the key order their author wrote: `jsonb` stores an object's keys shortest
 * first, so an example read `next, count` where the spec says `count, next`, and the document's own
 * keys came back `info, paths, openapi`. `json` keeps the text as given. Versions stored before keep
 * the order `jsonb` gave them (a spec processed again is stored anew).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0002_versions_keep_key_order = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE specs_versions ALTER COLUMN filesystem TYPE json USING filesystem::json`
})
