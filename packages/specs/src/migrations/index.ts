/** The specs package's schema. Its migrations table is its own: `quire_specs_migrations`. */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { m0001_specs } from "./0001_specs.ts"

export const migrations: {
  readonly table: string
  readonly migrations: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>
} = {
  table: "quire_specs_migrations",
  migrations: {
    "0001_specs": m0001_specs
  }
}
