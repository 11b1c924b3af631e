/** Sites with their customization and visitor key, adaptive schemas, structure and share links. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0001_sites = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sites_sites (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      type text NOT NULL,
      title text NOT NULL,
      hostname text COLLATE "C" UNIQUE,
      basename text,
      proxy text,
      visibility text NOT NULL,
      published boolean NOT NULL,
      adaptive_content boolean NOT NULL,
      agents_context text NOT NULL,
      default_section_id text COLLATE "C",
      default_site_space_id text COLLATE "C",
      customization jsonb NOT NULL DEFAULT '{}',
      customization_updated_at timestamptz,
      visitor_key text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX sites_sites_organization ON sites_sites (organization_id, created_at, id)`
  yield* sql`
    CREATE TABLE sites_adaptive_schemas (
      site_id text COLLATE "C" PRIMARY KEY,
      json_schema jsonb NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE sites_section_groups (
      id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      title text NOT NULL,
      icon text,
      position double precision NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX sites_section_groups_site ON sites_section_groups (site_id)`
  yield* sql`
    CREATE TABLE sites_sections (
      id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      title text NOT NULL,
      description text,
      path text COLLATE "C" NOT NULL,
      condition text,
      icon text,
      group_id text COLLATE "C",
      position double precision NOT NULL,
      default_site_space_id text COLLATE "C",
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX sites_sections_site ON sites_sections (site_id)`
  yield* sql`
    CREATE TABLE sites_site_spaces (
      id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      section_id text COLLATE "C",
      space_id text COLLATE "C" NOT NULL,
      path text COLLATE "C" NOT NULL,
      condition text,
      position double precision NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX sites_site_spaces_site ON sites_site_spaces (site_id)`
  yield* sql`CREATE INDEX sites_site_spaces_space ON sites_site_spaces (space_id)`
  yield* sql`
    CREATE TABLE sites_share_links (
      id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      name text NOT NULL,
      active boolean NOT NULL,
      secret text COLLATE "C" NOT NULL UNIQUE,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX sites_share_links_site ON sites_share_links (site_id, created_at, id)`
})
