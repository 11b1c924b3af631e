/** The specs package's schema. Its migrations table is its own: `quire_specs_migrations`. */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { m0001_specs } from "./0001_specs.ts"
import { m0002_versions_keep_key_order } from "./0002_versions_keep_key_order.ts"

export const migrations: {
  readonly table: string
  readonly migrations: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>
} = {
  table: "quire_specs_migrations",
  migrations: {
    "0001_specs": m0001_specs,
    "0002_versions_keep_key_order": m0002_versions_keep_key_order
  }
}
