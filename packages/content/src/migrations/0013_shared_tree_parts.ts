/**
 * Revisions share the parts of their tree that did not change: a part's body is stored once per
 * space in `content_tree_parts`, keyed by the hash of its JSON, and a revision's part rows name it
 * by `hash` with `body` NULL. Rows written before keep their body inline. A purge removes a space's
 * bodies with its revisions (parts are shared only within a space).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0013_shared_tree_parts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE content_tree_parts (
      space_id text COLLATE "C" NOT NULL,
      hash text COLLATE "C" NOT NULL,
      body text NOT NULL,
      PRIMARY KEY (space_id, hash)
    )`
  yield* sql`ALTER TABLE content_revision_parts ADD COLUMN hash text COLLATE "C", ALTER COLUMN body DROP NOT NULL`
})
