/** The files of GitBook's layout each space's last import read, for exports into an empty repository. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0003_imported_layouts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE gitsync_imported_layouts (
      space_id text COLLATE "C" PRIMARY KEY,
      project_directory text NOT NULL,
      commit text NOT NULL
    )`
  // The bytes as base64 text: page files, the summary and the config are small and mostly text.
  yield* sql`
    CREATE TABLE gitsync_imported_layout_files (
      space_id text COLLATE "C" NOT NULL,
      path text COLLATE "C" NOT NULL,
      oid text NOT NULL,
      content text NOT NULL,
      PRIMARY KEY (space_id, path)
    )`
})
