/**
 * Organizations' custom fonts and the font files they uploaded (`sites_custom_fonts`,
 * `sites_font_uploads`), and the last DNS check of each custom hostname (`sites_hostname_checks`).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0013_fonts_hostnames = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sites_custom_fonts (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      font_family text NOT NULL,
      faces jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX sites_custom_fonts_organization ON sites_custom_fonts (organization_id, created_at, id)`
  yield* sql`
    CREATE TABLE sites_font_uploads (
      organization_id text COLLATE "C" NOT NULL,
      storage_key text COLLATE "C" NOT NULL,
      blob_hash text COLLATE "C" NOT NULL,
      name text NOT NULL,
      format text NOT NULL,
      size integer NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (organization_id, storage_key)
    )`
  yield* sql`
    CREATE TABLE sites_hostname_checks (
      hostname text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      status text NOT NULL,
      target text NOT NULL,
      found jsonb NOT NULL,
      checked_at timestamptz NOT NULL
    )`
})
