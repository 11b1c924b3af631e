/** OpenAPI specifications and their versions. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0001_specs = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE specs_specs (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      slug text COLLATE "C" NOT NULL,
      visibility text NOT NULL,
      source jsonb NOT NULL,
      processing_state text NOT NULL,
      last_process_error_code text,
      last_processed_errors jsonb NOT NULL DEFAULT '[]',
      last_processed_at timestamptz,
      last_version_id text COLLATE "C",
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (organization_id, slug)
    )`
  yield* sql`CREATE INDEX specs_specs_organization ON specs_specs (organization_id, created_at, id)`
  yield* sql`
    CREATE TABLE specs_versions (
      id text COLLATE "C" PRIMARY KEY,
      spec_id text COLLATE "C" NOT NULL,
      created_at timestamptz NOT NULL,
      filesystem jsonb NOT NULL,
      hash text NOT NULL,
      url text
    )`
  yield* sql`CREATE INDEX specs_versions_spec ON specs_versions (spec_id, created_at, id)`
})
