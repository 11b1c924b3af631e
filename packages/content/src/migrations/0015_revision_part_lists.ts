/**
 * A revision names its tree's parts in its own row (`part_hashes`: the hashes of its page parts and
 * of its file parts, in order, as JSON text) instead of a row per part in `content_revision_parts`,
 * so a write of one page adds one row, not one per part of the tree. Revisions whose part rows all
 * name a shared body move their list into the column; rows written before shared bodies (a body of
 * their own) stay where they are and are read as before.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0015_revision_part_lists = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE content_revisions ADD COLUMN part_hashes text`
  yield* sql`
    UPDATE content_revisions r SET part_hashes = l.list
    FROM (
      SELECT revision_id, json_build_object(
        'pages', COALESCE(json_agg(hash ORDER BY position) FILTER (WHERE kind = 'pages'), '[]'::json),
        'files', COALESCE(json_agg(hash ORDER BY position) FILTER (WHERE kind = 'files'), '[]'::json))::text AS list
      FROM content_revision_parts GROUP BY revision_id HAVING bool_and(hash IS NOT NULL)
    ) l
    WHERE r.id = l.revision_id`
  yield* sql`DELETE FROM content_revision_parts p USING content_revisions r WHERE r.id = p.revision_id AND r.part_hashes IS NOT NULL`
})
