/**
 * A revision names its parts through part lists: runs of its part hashes cut where the content says
 * (`partLists` in RevisionParts.ts), stored once per space in `content_tree_part_lists` and shared
 * between revisions, and the row holds the hashes of its lists (`part_lists`) instead of every part
 * hash (`part_hashes`). A one-page commit to a large space then writes a row of a few kilobytes and
 * a list or two, not the whole list of its parts. The rows holding `part_hashes` move to lists here,
 * a batch of revisions at a time; those written before `part_hashes` are read as before.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { partLists } from "../RevisionParts.ts"

/** Revisions moved per round: each round sends their lists, at most about 100 KB of hashes each. */
const batchRows = 50

const hashList = (value: unknown): value is ReadonlyArray<string> => Array.isArray(value) && value.every((hash) => typeof hash === "string")

/** The `part_hashes` of revision `id`: `{pages, files}`, each a list of hashes. */
const storedHashes = (id: string, text: string) => {
  const value: unknown = JSON.parse(text)
  const { pages, files } = (value ?? {}) as { readonly pages?: unknown; readonly files?: unknown }
  if (!hashList(pages) || !hashList(files)) throw new Error(`part_hashes of revision ${id} is not a list of page and of file part hashes`)
  return { pages, files }
}

export const m0020_part_lists = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE content_tree_part_lists (
      space_id text COLLATE "C" NOT NULL,
      hash text COLLATE "C" NOT NULL,
      body text NOT NULL,
      PRIMARY KEY (space_id, hash)
    )`
  yield* sql`ALTER TABLE content_revisions ADD COLUMN part_lists text`
  let after = ""
  for (;;) {
    const rows = yield* sql<{ id: string; space_id: string; part_hashes: string }>`
      SELECT id, space_id, part_hashes FROM content_revisions
      WHERE part_hashes IS NOT NULL AND id > ${after} ORDER BY id LIMIT ${batchRows}`
    if (rows.length === 0) return
    for (const row of rows) {
      const hashes = yield* Effect.try(() => storedHashes(row.id, row.part_hashes))
      const lists = { pages: partLists(hashes.pages), files: partLists(hashes.files) }
      const all = [...lists.pages, ...lists.files]
      if (all.length > 0) {
        yield* sql`
          INSERT INTO content_tree_part_lists (space_id, hash, body)
          SELECT ${row.space_id}, unnest(${all.map((list) => list.hash)}::text[]), unnest(${all.map((list) => list.body)}::text[])
          ON CONFLICT DO NOTHING`
      }
      const named = JSON.stringify({ pages: lists.pages.map((list) => list.hash), files: lists.files.map((list) => list.hash) })
      yield* sql`UPDATE content_revisions SET part_lists = ${named}, part_hashes = NULL WHERE id = ${row.id}`
    }
    after = rows[rows.length - 1]!.id
  }
})
