/** The translations package's schema. Its migrations table is its own: `quire_translations_migrations`. */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { m0001_translations } from "./0001_translations.ts"
import { m0002_glossary } from "./0002_glossary.ts"

export const migrations: {
  readonly table: string
  readonly migrations: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>
} = {
  table: "quire_translations_migrations",
  migrations: {
    "0001_translations": m0001_translations,
    "0002_glossary": m0002_glossary
  }
}
