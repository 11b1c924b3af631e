/**
 * Each document's recorded links become text: a JSON array whose first element holds a letter per
 * link (`l` a link, `i` an image) and the others the links' URLs as written, in document order
 * (`["li","guide.md","https://example.com/chart.png"]`). A revision's link graph reads the links of
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
      SELECT (jsonb_build_array(COALESCE(string_agg(CASE WHEN l.link->>'kind' = 'image' THEN 'i' ELSE 'l' END, '' ORDER BY l.n), ''))
        || COALESCE(jsonb_agg(l.link->'url' ORDER BY l.n), '[]'::jsonb))::text
      FROM jsonb_array_elements(d.links) WITH ORDINALITY AS l(link, n)
    )
    WHERE d.links IS NOT NULL`
  yield* sql`ALTER TABLE content_documents DROP COLUMN links`
  yield* sql`ALTER TABLE content_documents RENAME COLUMN link_list TO links`
})
