/**
 * Sites' style guides: the space each site's guide is (`sites_styleguides`), its check runs, the
 * findings each run made, and the change requests checks ran in.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0011_styleguides = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sites_styleguides (
      site_id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      space_id text COLLATE "C" NOT NULL,
      template text,
      created_at timestamptz NOT NULL,
      created_by text COLLATE "C" NOT NULL
    )`
  yield* sql`CREATE INDEX sites_styleguides_organization ON sites_styleguides (organization_id, created_at, site_id)`
  yield* sql`
    CREATE TABLE sites_styleguide_runs (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      site_id text COLLATE "C" NOT NULL,
      styleguide_space_id text COLLATE "C" NOT NULL,
      spaces jsonb NOT NULL,
      target text NOT NULL,
      checks jsonb NOT NULL,
      status text NOT NULL,
      model boolean NOT NULL,
      findings integer NOT NULL,
      error text,
      created_at timestamptz NOT NULL,
      created_by text COLLATE "C" NOT NULL,
      finished_at timestamptz
    )`
  yield* sql`CREATE INDEX sites_styleguide_runs_site ON sites_styleguide_runs (site_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE TABLE sites_styleguide_findings (
      run_id text COLLATE "C" NOT NULL,
      position integer NOT NULL,
      space_id text COLLATE "C" NOT NULL,
      change_request_id text COLLATE "C" NOT NULL,
      page_id text COLLATE "C" NOT NULL,
      page_title text NOT NULL,
      rule_id text NOT NULL,
      rule_title text NOT NULL,
      message text NOT NULL,
      quote text NOT NULL,
      sentence text NOT NULL,
      fix text,
      source text NOT NULL,
      comment_id text COLLATE "C",
      PRIMARY KEY (run_id, position)
    )`
  yield* sql`
    CREATE TABLE sites_styleguide_checks (
      change_request_id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      space_id text COLLATE "C" NOT NULL,
      run_id text COLLATE "C" NOT NULL,
      checked_at timestamptz,
      seq bigserial NOT NULL
    )`
  yield* sql`CREATE INDEX sites_styleguide_checks_space ON sites_styleguide_checks (site_id, space_id, seq DESC)`
})
