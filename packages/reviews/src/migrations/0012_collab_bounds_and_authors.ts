/**
 * Live editing's rows bounded and its updates credited: a stored state or update holds at most
 * `maxStoredBytes` (CollabUpdatesRepo.ts), as one row read back is one message of the database
 * client, and a longer one loses the connection; each update records the user who sent it, and a
 * document the last update its page holds (`written_through`), so that a merge leaves out what
 * someone without the right to edit typed after that. A document stored before
 * over the bound could never be read back (nor its change request merged): it is removed, as it
 * held nothing a reader could get.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** `maxStoredBytes` as the CHECKs say it (a migration states its own values: they must not move with the code). */
const bound = 8 * 1024 * 1024

export const m0012_collab_bounds_and_authors = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM reviews_collab_documents WHERE octet_length(state) > ${bound}`
  yield* sql`DELETE FROM reviews_collab_updates WHERE octet_length(update) > ${bound}`
  yield* sql.unsafe(`ALTER TABLE reviews_collab_documents ADD CONSTRAINT reviews_collab_documents_state_bytes CHECK (octet_length(state) <= ${bound})`)
  yield* sql.unsafe(`
    ALTER TABLE reviews_collab_updates
      ADD CONSTRAINT reviews_collab_updates_update_bytes CHECK (octet_length(update) <= ${bound}),
      ADD COLUMN author_id text COLLATE "C"`)
  yield* sql`ALTER TABLE reviews_collab_documents ADD COLUMN written_through bigint NOT NULL DEFAULT 0`
})
