/** Organizations' Git installations: a connection to GitHub or GitLab, its sealed token and chosen repository. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0004_installations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE gitsync_installations (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      provider text NOT NULL,
      target jsonb NOT NULL,
      site_id text COLLATE "C",
      credential_sealed text NOT NULL,
      setup jsonb NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX gitsync_installations_organization ON gitsync_installations (organization_id)`
  yield* sql`CREATE INDEX gitsync_installations_site ON gitsync_installations (site_id) WHERE site_id IS NOT NULL`
})
