/** Translations with their run state and the page hashes of their last run. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0001_translations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE translations_translations (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      source_space_id text COLLATE "C" NOT NULL,
      source_language text NOT NULL,
      language text NOT NULL,
      instructions jsonb NOT NULL,
      result_space_id text COLLATE "C" NOT NULL,
      actor_id text COLLATE "C" NOT NULL,
      result_revision_id text COLLATE "C",
      status text NOT NULL,
      failure text,
      stats jsonb NOT NULL,
      page_hashes jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX translations_organization ON translations_translations (organization_id, created_at, id)`
  yield* sql`CREATE INDEX translations_source ON translations_translations (source_space_id)`
})
