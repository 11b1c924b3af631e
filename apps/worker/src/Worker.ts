/**
 * The worker process: consumes the durable job queue of a PostgreSQL deployment (graphile-worker
 * on DATABASE_URL) until interrupted, then stops gracefully.
 */
import { defaultLockTimeout, type JobDefinition, JobRunner, layerGraphile } from "@quire/queue"
import { Config, Duration, Effect, Schema } from "effect"

/** The worker has nothing to do without a database. */
export class MissingDatabaseUrl extends Schema.TaggedError<MissingDatabaseUrl>()("MissingDatabaseUrl", {}) {
  override get message(): string {
    return "DATABASE_URL is not set. The worker runs background jobs of a PostgreSQL deployment; " +
      "an embedded server (no DATABASE_URL) runs its jobs itself."
  }
}

export interface WorkerOptions {
  /** How often graphile-worker looks for jobs that became due (default 2 seconds). */
  readonly pollInterval?: Duration.Input | undefined
}

/**
 * Runs `jobs` until interrupted. Reads DATABASE_URL (required), WORKER_CONCURRENCY (jobs at
 * once, default 4) and QUIRE_JOB_LOCK_TIMEOUT_SECONDS (after how long without its worker
 * renewing the lock a job runs again, default 300).
 */
export const run = <R>(jobs: ReadonlyArray<JobDefinition<R>>, options: WorkerOptions = {}) =>
  Effect.gen(function*() {
    const connectionString = yield* Config.NonEmptyString("DATABASE_URL").pipe(
      Effect.mapError(() => new MissingDatabaseUrl())
    )
    const concurrency = yield* Config.Int("WORKER_CONCURRENCY").pipe(Config.withDefault(4))
    const lockTimeout = yield* Config.schema(
      Schema.FiniteFromString.pipe(Schema.check(Schema.isGreaterThan(0))),
      "QUIRE_JOB_LOCK_TIMEOUT_SECONDS"
    ).pipe(
      Config.map((seconds) => Duration.seconds(seconds)),
      Config.withDefault(Duration.fromInputUnsafe(defaultLockTimeout))
    )
    yield* Effect.logInfo("Worker starting", { jobs: jobs.map((job) => job.name), concurrency, lockTimeout: Duration.format(lockTimeout) })
    return yield* Effect.gen(function*() {
      const runner = yield* JobRunner
      yield* Effect.logInfo("Worker started")
      return yield* runner.join
    }).pipe(
      Effect.onInterrupt(() => Effect.logInfo("Worker stopping: letting running jobs finish")),
      Effect.provide(layerGraphile({
        connectionString,
        jobs,
        runWorker: true,
        concurrency,
        lockTimeout,
        pollInterval: options.pollInterval
      }))
    )
  }).pipe(Effect.onInterrupt(() => Effect.logInfo("Worker stopped")))
