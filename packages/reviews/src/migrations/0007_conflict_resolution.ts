/**
 * Conflicts a writer resolves: the revisions a change request's conflicts were found between (main's
 * and the change request's head), so that a resolution is the same merge with the conflicts settled.
 * Conflicts stored before had neither those nor ids: they are dropped (the next merge or update finds them again).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0007_conflict_resolution = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE reviews_change_requests ADD COLUMN conflicts_main text, ADD COLUMN conflicts_head text`
  yield* sql`UPDATE reviews_change_requests SET conflicts = NULL WHERE conflicts IS NOT NULL`
})
