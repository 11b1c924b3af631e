/**
 * What a site keeps for AI: its agent settings (a row once an admin changes them; the defaults
 * before) and the MCP servers its assistant may call, their headers sealed under the instance secret.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0009_site_agent = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sites_agent_settings (
      site_id text COLLATE "C" PRIMARY KEY,
      scan_topics text NOT NULL,
      finding_change_requests text NOT NULL,
      custom_instructions jsonb NOT NULL,
      updated_at timestamptz NOT NULL,
      updated_by text COLLATE "C" NOT NULL
    )`
  yield* sql`
    CREATE TABLE sites_mcp_servers (
      id text COLLATE "C" PRIMARY KEY,
      site_id text COLLATE "C" NOT NULL,
      name text NOT NULL,
      url text NOT NULL,
      transport text NOT NULL,
      header_names jsonb NOT NULL,
      sealed_headers text NOT NULL,
      condition text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX sites_mcp_servers_site ON sites_mcp_servers (site_id, created_at, id)`
})
