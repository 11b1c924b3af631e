/** Each space's Git sync record, and the instance's key when QUIRE_SECRET is not set. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0001_gitsync = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE gitsync_spaces (
      space_id text COLLATE "C" PRIMARY KEY,
      url text NOT NULL,
      url_sealed text NOT NULL,
      ref text NOT NULL,
      project_directory text NOT NULL,
      connected boolean NOT NULL,
      actor_id text COLLATE "C",
      webhook_secret text,
      last_import jsonb,
      last_export jsonb,
      last_event_at timestamptz,
      exported_commit text,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE gitsync_instance_key (
      id integer PRIMARY KEY CHECK (id = 1),
      key text NOT NULL
    )`
})
