/**
 * Where the in-process queue keeps its jobs: nowhere (`layerMemory`-like `none`, jobs live as long
 * as the process) or in the `queue_jobs` table (`sql`), so that an embedded server that crashed
 * runs its pending and interrupted jobs again when it restarts.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** A job as stored. `running`: an attempt had started when it was read back. */
export interface StoredJob {
  readonly id: string
  readonly task: string
  readonly payload: unknown
  readonly runAt: number
  readonly attempts: number
  readonly maxAttempts: number
  readonly key: string | undefined
  readonly running: boolean
}

export interface JobStore {
  /** Stores a new job (in the caller's transaction, if any); its id, or undefined when nothing is stored. */
  readonly insert: (job: Omit<StoredJob, "id" | "running">) => Effect.Effect<string | undefined>
  /** An attempt starts (`attempts` counts it). */
  readonly started: (id: string, attempts: number) => Effect.Effect<void>
  /** The job waits for `runAt`, for a retry; `key` undefined once a newer job took its key. */
  readonly waiting: (id: string, runAt: number, key: string | undefined) => Effect.Effect<void>
  /** Done, given up or replaced: the row goes. */
  readonly remove: (id: string) => Effect.Effect<void>
  /** Every job not done, oldest first. */
  readonly load: Effect.Effect<ReadonlyArray<StoredJob>>
}

/** Keeps nothing: the in-process queue of the memory server and of tests. */
export const none: JobStore = {
  insert: () => Effect.succeed(undefined),
  started: () => Effect.void,
  waiting: () => Effect.void,
  remove: () => Effect.void,
  load: Effect.succeed([])
}

interface Row {
  readonly id: string
  readonly task: string
  readonly payload: unknown
  readonly run_at_ms: string
  readonly attempts: number
  readonly max_attempts: number
  readonly job_key: string | null
  readonly state: string
}

/** The `queue_jobs` table (migrations: `migrations`). SQL errors are defects. */
export const sql: Effect.Effect<JobStore, never, SqlClient.SqlClient> = Effect.map(SqlClient.SqlClient, (sql) => ({
  insert: (job) =>
    sql<{ readonly id: string }>`
      INSERT INTO queue_jobs (task, payload, run_at_ms, attempts, max_attempts, job_key)
      VALUES (${job.task}, ${JSON.stringify(job.payload)}::jsonb, ${job.runAt}, ${job.attempts}, ${job.maxAttempts}, ${job.key ?? null})
      RETURNING id::text AS id`.pipe(Effect.map((rows) => rows[0]?.id), Effect.orDie),
  started: (id, attempts) =>
    sql`UPDATE queue_jobs SET state = 'running', attempts = ${attempts} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
  waiting: (id, runAt, key) =>
    sql`UPDATE queue_jobs SET state = 'waiting', run_at_ms = ${runAt}, job_key = ${key ?? null} WHERE id = ${id}`.pipe(
      Effect.asVoid,
      Effect.orDie
    ),
  remove: (id) => sql`DELETE FROM queue_jobs WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
  load: sql<Row>`
    SELECT id::text AS id, task, payload, run_at_ms::text AS run_at_ms, attempts, max_attempts, job_key, state
    FROM queue_jobs ORDER BY id`.pipe(
    Effect.map((rows) =>
      rows.map((row): StoredJob => ({
        id: row.id,
        task: row.task,
        payload: typeof row.payload === "string" ? JSON.parse(row.payload) as unknown : row.payload,
        runAt: Number(row.run_at_ms),
        attempts: row.attempts,
        maxAttempts: row.max_attempts,
        key: row.job_key ?? undefined,
        running: row.state === "running"
      }))
    ),
    Effect.orDie
  )
}))
