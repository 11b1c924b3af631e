/**
 * Each document's outgoing links (`[{ url, kind }]` as written, before resolution), recorded when
 * the document is first stored, so that a revision's link graph reads them instead of parsing every
 * page. NULL: not recorded yet (documents stored before this column); the graph parses those once
 * and records them.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0012_document_links = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE content_documents ADD COLUMN links jsonb`
})
