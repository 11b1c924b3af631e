/** The gitsync package's schema. Its migrations table is its own: `quire_gitsync_migrations`. */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { m0001_gitsync } from "./0001_gitsync.ts"
import { m0002_webhook_deliveries } from "./0002_webhook_deliveries.ts"
import { m0003_imported_layouts } from "./0003_imported_layouts.ts"
import { m0004_installations } from "./0004_installations.ts"

export const migrations: {
  readonly table: string
  readonly migrations: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>
} = {
  table: "quire_gitsync_migrations",
  migrations: {
    "0001_gitsync": m0001_gitsync,
    "0002_webhook_deliveries": m0002_webhook_deliveries,
    "0003_imported_layouts": m0003_imported_layouts,
    "0004_installations": m0004_installations
  }
}
