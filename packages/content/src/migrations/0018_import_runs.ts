/** Import runs (GitBook's `ContentImportRun`) and the files uploaded for them. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0018_import_runs = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE content_import_runs (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      space_id text COLLATE "C" NOT NULL,
      source jsonb NOT NULL,
      target jsonb NOT NULL,
      status text NOT NULL,
      reason text,
      created_by text COLLATE "C" NOT NULL,
      pages jsonb NOT NULL,
      progress jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      started_at timestamptz,
      completed_at timestamptz
    )`
  yield* sql`CREATE INDEX content_import_runs_organization ON content_import_runs (organization_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX content_import_runs_space ON content_import_runs (space_id)`
  yield* sql`
    CREATE TABLE content_import_files (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      name text NOT NULL,
      content_type text NOT NULL,
      size bigint NOT NULL,
      blob text COLLATE "C" NOT NULL,
      created_by text COLLATE "C" NOT NULL,
      created_at timestamptz NOT NULL
    )`
})
