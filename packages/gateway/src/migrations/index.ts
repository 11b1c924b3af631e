/** The gateway package's schema. Its migrations table is its own: `quire_gateway_migrations`. */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { m0001_rate_limits } from "./0001_rate_limits.ts"
import { m0002_idempotency_keys } from "./0002_idempotency_keys.ts"

export const migrations: {
  readonly table: string
  readonly migrations: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>
} = {
  table: "quire_gateway_migrations",
  migrations: {
    "0001_rate_limits": m0001_rate_limits,
    "0002_idempotency_keys": m0002_idempotency_keys
  }
}
