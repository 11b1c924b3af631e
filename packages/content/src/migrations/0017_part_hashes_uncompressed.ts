/**
 * A revision's list of part hashes (`part_hashes`) is stored without compression: hashes do not
 * compress, and PostgreSQL tried on every write of every revision of a large space before storing
 * it as it was, for the same size on disk (docs/content.md has the cost). Rows stored before keep their storage; only new rows are written this way.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0017_part_hashes_uncompressed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE content_revisions ALTER COLUMN part_hashes SET STORAGE EXTERNAL`
})
