/** The queue package's schema (the in-process queue's store). Its migrations table is its own: `quire_queue_migrations`. */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { m0001_jobs } from "./0001_jobs.ts"

export const migrations: {
  readonly table: string
  readonly migrations: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>
} = {
  table: "quire_queue_migrations",
  migrations: {
    "0001_jobs": m0001_jobs
  }
}
