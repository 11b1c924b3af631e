/** Site permissions: a role on one site granted to a user or a team of its organization. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0005_site_permissions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sites_permissions (
      organization_id text COLLATE "C" NOT NULL,
      site_id text COLLATE "C" NOT NULL,
      principal_kind text COLLATE "C" NOT NULL CHECK (principal_kind IN ('user', 'team')),
      principal_id text COLLATE "C" NOT NULL,
      role text COLLATE "C" NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (site_id, principal_kind, principal_id)
    )`
  yield* sql`CREATE INDEX sites_permissions_listing ON sites_permissions (site_id, principal_kind, created_at, principal_id)`
  yield* sql`CREATE INDEX sites_permissions_principal ON sites_permissions (organization_id, principal_kind, principal_id)`
})
