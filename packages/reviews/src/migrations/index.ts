/** The reviews package's schema. Its migrations table is its own: `quire_reviews_migrations`. */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"

export const migrations: {
  readonly table: string
  readonly migrations: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>
} = {
  table: "quire_reviews_migrations",
  migrations: {}
}
