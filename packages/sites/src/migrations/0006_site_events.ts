/** A site's insights events, and the day's salt of visitor hashes (one row: earlier days are deleted). */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0006_site_events = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sites_events (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      site_id text COLLATE "C" NOT NULL,
      type text COLLATE "C" NOT NULL,
      at timestamptz NOT NULL,
      visitor text COLLATE "C" NOT NULL,
      session text COLLATE "C" NOT NULL,
      url text NOT NULL,
      url_path text COLLATE "C" NOT NULL,
      display_context text COLLATE "C" NOT NULL,
      site_section text COLLATE "C",
      site_space text COLLATE "C",
      site_share_key text COLLATE "C",
      space_id text COLLATE "C",
      page_id text COLLATE "C",
      referrer text,
      language text,
      data jsonb NOT NULL
    )`
  yield* sql`CREATE INDEX sites_events_site_at ON sites_events (site_id, at, id)`
  yield* sql`CREATE INDEX sites_events_at ON sites_events (at)`
  yield* sql`CREATE TABLE sites_insights_salts (day text COLLATE "C" PRIMARY KEY, salt text NOT NULL)`
})
