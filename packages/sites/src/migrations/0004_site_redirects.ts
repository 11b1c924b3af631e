/** Site redirects: one live and one draft per source of a site; the published site looks them up by source. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0004_site_redirects = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sites_redirects (
      id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      source text COLLATE "C" NOT NULL,
      draft boolean NOT NULL,
      capture_wildcard boolean NOT NULL,
      permanent boolean NOT NULL,
      destination jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz
    )`
  yield* sql`CREATE UNIQUE INDEX sites_redirects_source ON sites_redirects (site_id, draft, source)`
  yield* sql`CREATE INDEX sites_redirects_created ON sites_redirects (site_id, draft, created_at, id)`
})
