/**
 * The shared documents of live editing: one per (change request, page), its compacted Yjs state
 * and the updates stored since, each acknowledged to its client only once its row is committed;
 * and the hashes of the page's markdown and of the document's when they last agreed.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0009_collab_documents = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE reviews_collab_documents (
      name text COLLATE "C" PRIMARY KEY,
      space_id text COLLATE "C" NOT NULL,
      change_request_id text COLLATE "C" NOT NULL,
      page_id text COLLATE "C" NOT NULL,
      state bytea NOT NULL,
      version bigint NOT NULL,
      page_sha text NOT NULL,
      doc_sha text NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX reviews_collab_documents_space ON reviews_collab_documents (space_id)`
  yield* sql`
    CREATE TABLE reviews_collab_updates (
      id bigserial PRIMARY KEY,
      name text COLLATE "C" NOT NULL REFERENCES reviews_collab_documents (name) ON DELETE CASCADE,
      update bytea NOT NULL,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX reviews_collab_updates_name ON reviews_collab_updates (name, id)`
})
