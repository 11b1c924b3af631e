/**
 * Link graphs of revisions as `ContentLinks` encodes them, stored the first time a revision's graph
 * is built, so that a listing in another process (or after a restart) reads one graph instead of
 * every document's links. A revision is immutable: a graph is valid for as long as its format is.
 * Split in parts of bounded size (a 100,000-page revision's is megabytes), stored uncompressed as
 * `part_hashes` is (migration 0017): read whole on every cold listing.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0019_link_graphs = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE content_link_graphs (
      revision_id text COLLATE "C" NOT NULL,
      app_base_url text COLLATE "C" NOT NULL,
      format integer NOT NULL,
      part integer NOT NULL,
      parts integer NOT NULL,
      space_id text COLLATE "C" NOT NULL,
      stored_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      body text NOT NULL,
      PRIMARY KEY (revision_id, app_base_url, format, part)
    )`
  yield* sql`ALTER TABLE content_link_graphs ALTER COLUMN body SET STORAGE EXTERNAL`
  yield* sql`CREATE INDEX content_link_graphs_space ON content_link_graphs (space_id, stored_at)`
})
