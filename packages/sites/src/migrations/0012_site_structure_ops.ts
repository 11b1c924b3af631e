/**
 * External links of a site's structure (`sites_external_links`), the look a site space overrides
 * (`sites_site_space_customizations`) and a site's channels (`sites_channels`).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0012_site_structure_ops = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sites_external_links (
      id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      title text NOT NULL,
      description text,
      icon text,
      url text NOT NULL,
      group_id text COLLATE "C",
      draft boolean NOT NULL,
      condition text,
      position double precision NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX sites_external_links_site ON sites_external_links (site_id, position, created_at, id)`
  yield* sql`
    CREATE TABLE sites_site_space_customizations (
      site_space_id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      settings jsonb NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX sites_site_space_customizations_site ON sites_site_space_customizations (site_id)`
  yield* sql`
    CREATE TABLE sites_channels (
      id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      type text NOT NULL,
      setup_settings jsonb NOT NULL,
      role text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX sites_channels_site ON sites_channels (site_id, created_at, id)`
})
