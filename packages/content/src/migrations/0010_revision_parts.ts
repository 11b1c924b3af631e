/**
 * A revision's page tree and file list are stored in bounded parts (RevisionParts.ts): one row per
 * part, none near the client's 16 MiB message. `content_revisions.parts` counts a revision's parts;
 * NULL marks a row written before, whose tree is still inline in `pages` and `files`. A part is
 * JSON as text, so its size is the size written (jsonb would print numbers in full and add spaces),
 * and the embedded database reads it back three times faster; SQL that looks inside casts it.
 *
 * Inline trees over one part's size move into parts here, on the server (never read by the
 * client): a revision too large to read back, which made every later query of the embedded
 * server fail, becomes readable again. Pages are cut by their running size, files likewise.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The same bound as RevisionParts' `partBytes`, on the JSON text of the nodes. */
const partBytes = 512 * 1024

export const m0010_revision_parts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE content_revisions ADD COLUMN parts integer`
  yield* sql`
    CREATE TABLE content_revision_parts (
      revision_id text COLLATE "C" NOT NULL,
      kind text NOT NULL CHECK (kind IN ('pages', 'files')),
      position integer NOT NULL,
      body text NOT NULL,
      PRIMARY KEY (revision_id, kind, position)
    )`
  // The revisions to move are marked with 0 parts first, then counted.
  yield* sql`
    UPDATE content_revisions SET parts = 0
    WHERE octet_length(pages::text) + octet_length(files::text) > ${partBytes}`
  // Pages depth first: a page's path of positions orders it after its parent and before its next sibling.
  yield* sql`
    WITH RECURSIVE nodes AS (
      SELECT r.id, 0 AS depth, e.page, ARRAY[e.n] AS path
      FROM content_revisions r, jsonb_array_elements(r.pages) WITH ORDINALITY AS e(page, n)
      WHERE r.parts = 0
      UNION ALL
      SELECT n.id, n.depth + 1, c.page, n.path || c.n
      FROM nodes n, jsonb_array_elements(n.page -> 'pages') WITH ORDINALITY AS c(page, n)
    ),
    entries AS (
      SELECT id, path, jsonb_build_object('depth', depth, 'page', page - 'pages') AS entry FROM nodes
    ),
    sized AS (
      SELECT id, path, entry,
        (sum(octet_length(entry::text)) OVER (PARTITION BY id ORDER BY path) - octet_length(entry::text))::bigint / ${partBytes} AS part
      FROM entries
    )
    INSERT INTO content_revision_parts (revision_id, kind, position, body)
    SELECT id, 'pages', (dense_rank() OVER (PARTITION BY id ORDER BY part) - 1)::integer, jsonb_agg(entry ORDER BY path)::text
    FROM sized GROUP BY id, part`
  yield* sql`
    WITH entries AS (
      SELECT r.id, e.n, e.file,
        (sum(octet_length(e.file::text)) OVER (PARTITION BY r.id ORDER BY e.n) - octet_length(e.file::text))::bigint / ${partBytes} AS part
      FROM content_revisions r, jsonb_array_elements(r.files) WITH ORDINALITY AS e(file, n)
      WHERE r.parts = 0
    )
    INSERT INTO content_revision_parts (revision_id, kind, position, body)
    SELECT id, 'files', (dense_rank() OVER (PARTITION BY id ORDER BY part) - 1)::integer, jsonb_agg(file ORDER BY n)::text
    FROM entries GROUP BY id, part`
  yield* sql`
    UPDATE content_revisions r
    SET pages = '[]'::jsonb, files = '[]'::jsonb,
      parts = (SELECT count(*) FROM content_revision_parts p WHERE p.revision_id = r.id)
    WHERE r.parts = 0`
})
