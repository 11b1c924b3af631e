/** Organizations' translation glossaries: a term by language, which translation runs keep as given. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0002_glossary = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE translations_glossary (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      translations jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX translations_glossary_organization ON translations_glossary (organization_id, created_at, id)`
})
