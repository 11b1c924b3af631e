/**
 * A site's findings: context records (from its insights, pushed by help desks, pulled by
 * connections), the connections, the topics scans cluster records into, the scans and findings.
 * Each row holds its entity as JSON beside the columns it is looked up by.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0010_site_findings = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sites_context_records (
      id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      connection_id text COLLATE "C" NOT NULL,
      created_at text COLLATE "C" NOT NULL,
      data jsonb NOT NULL
    )`
  yield* sql`CREATE INDEX sites_context_records_site ON sites_context_records (site_id, created_at, id)`
  for (const table of ["sites_context_connections", "sites_topics", "sites_scans"]) {
    yield* sql`
      CREATE TABLE ${sql(table)} (
        id text COLLATE "C" PRIMARY KEY,
        site_id text COLLATE "C" NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        data jsonb NOT NULL
      )`
    yield* sql`CREATE INDEX ${sql(`${table}_site`)} ON ${sql(table)} (site_id, created_at, id)`
  }
  yield* sql`
    CREATE TABLE sites_findings (
      id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      topic_id text COLLATE "C",
      created_at text COLLATE "C" NOT NULL,
      data jsonb NOT NULL
    )`
  yield* sql`CREATE INDEX sites_findings_site ON sites_findings (site_id, created_at, id)`
})
