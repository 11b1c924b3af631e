/** The budgets of rate-limiter-flexible's PostgreSQL store (its own table layout: key, points, expire in ms). */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0001_rate_limits = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE gateway_rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    )`
})
