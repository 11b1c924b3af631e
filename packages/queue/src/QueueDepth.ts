/**
 * How many jobs the queue holds, by state, read from its table: the in-process queue's
 * `queue_jobs` (embedded) or graphile-worker's jobs (PostgreSQL, shared by every process).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Jobs by state: `waiting` (due, later, or between retries), `running`, `failed` (given up, kept by graphile-worker). */
export type QueueDepth = Readonly<Record<"waiting" | "running" | "failed", number>>

const embedded = (sql: SqlClient.SqlClient) =>
  sql<{ state: string; n: number }>`SELECT state, count(*)::int AS n FROM queue_jobs GROUP BY state`.pipe(
    Effect.map((rows): QueueDepth => ({
      waiting: rows.find((row) => row.state === "waiting")?.n ?? 0,
      running: rows.find((row) => row.state === "running")?.n ?? 0,
      failed: 0
    }))
  )

const graphile = (sql: SqlClient.SqlClient) =>
  sql<{ waiting: number; running: number; failed: number }>`
    SELECT
      count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts)::int AS waiting,
      count(*) FILTER (WHERE locked_at IS NOT NULL)::int AS running,
      count(*) FILTER (WHERE locked_at IS NULL AND attempts >= max_attempts)::int AS failed
    FROM graphile_worker._private_jobs`.pipe(Effect.map((rows): QueueDepth => rows[0] ?? { waiting: 0, running: 0, failed: 0 }))

/**
 * The queue's depth on a database of `kind`; `undefined` when it cannot be read (the table is
 * not there yet, the database does not answer): a scrape never fails for it.
 */
export const read = (kind: "embedded" | "postgres"): Effect.Effect<QueueDepth | undefined, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => kind === "embedded" ? embedded(sql) : graphile(sql)).pipe(
    Effect.catchCause(() => Effect.succeed(undefined))
  )
