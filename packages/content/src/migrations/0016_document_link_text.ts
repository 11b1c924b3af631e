/**
 * Each document's recorded links become text: a JSON array of strings, each the link's kind
 * (`l` a link, `i` an image) followed by its URL as written, in document order
 * (`["lguide.md","ihttps://example.com/chart.png"]`). A revision's link graph reads the links of
 * every document of the revision: PostgreSQL sends text as stored (jsonb is printed again on every
 * read) and a list of strings parses without an object per link. NULL stays NULL (not recorded yet).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0016_document_link_text = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE content_documents ADD COLUMN link_list text`
  yield* sql`
    UPDATE content_documents d SET link_list = (
      SELECT COALESCE(json_agg(CASE WHEN l.link->>'kind' = 'image' THEN 'i' ELSE 'l' END || (l.link->>'url') ORDER BY l.n), '[]'::json)::text
      FROM jsonb_array_elements(d.links) WITH ORDINALITY AS l(link, n)
    )
    WHERE d.links IS NOT NULL`
  yield* sql`ALTER TABLE content_documents DROP COLUMN links`
  yield* sql`ALTER TABLE content_documents RENAME COLUMN link_list TO links`
})
