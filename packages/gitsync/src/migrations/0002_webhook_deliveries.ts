/** Webhook deliveries already received (by delivery id and body digest), so a replay runs no second sync. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0002_webhook_deliveries = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE gitsync_webhook_deliveries (
      space_id text COLLATE "C" NOT NULL,
      key text COLLATE "C" NOT NULL,
      received_at timestamptz NOT NULL,
      PRIMARY KEY (space_id, key)
    )`
  yield* sql`CREATE INDEX gitsync_webhook_deliveries_received_at ON gitsync_webhook_deliveries (received_at)`
})
