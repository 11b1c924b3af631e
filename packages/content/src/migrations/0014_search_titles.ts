/**
 * Title matches come from a table of their own, one narrow row per page (`content_search_titles`):
 * its page-title tsvector and its first section's, so that the 1,000 title candidates of a frequent
 * word are read from a few dense blocks, not one heap block of `content_search_sections` each.
 * The sections lose their `title_tsv` column and its index.
 *
 * Neither table is scanned in parallel: a search takes the first 1,000 matches in the table's
 * order, and workers sharing the blocks would make them differ from one request to the next.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0014_search_titles = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE content_search_titles (
      space_id text COLLATE "C" NOT NULL,
      page_id text COLLATE "C" NOT NULL,
      title_tsv tsvector NOT NULL,
      tsv tsvector NOT NULL,
      PRIMARY KEY (space_id, page_id)
    ) WITH (parallel_workers = 0)`
  yield* sql`
    INSERT INTO content_search_titles (space_id, page_id, title_tsv, tsv)
    SELECT space_id, page_id, to_tsvector('english', page_title), tsv FROM content_search_sections WHERE position = 0`
  yield* sql`CREATE INDEX content_search_titles_tsv ON content_search_titles USING GIN (title_tsv) WITH (fastupdate = off)`
  yield* sql`DROP INDEX content_search_sections_title`
  yield* sql`ALTER TABLE content_search_sections DROP COLUMN title_tsv`
  yield* sql`ALTER TABLE content_search_sections SET (parallel_workers = 0)`
})
