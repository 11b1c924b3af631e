/**
 * The job queue of a running server: in-process when embedded, graphile-worker on PostgreSQL.
 * The use cases enqueue on it (their layers require `JobQueue`); who runs the jobs is decided here.
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Database } from "@quire/db"
import {
  type JobQueue,
  type JobQueueError,
  type JobRunner,
  layerGraphileQueue,
  layerInProcessDurableQueue,
  layerInProcessQueue,
  layerInProcessRunner
} from "@quire/queue"
import type { SqlError } from "effect/sql/SqlError"
import type { StoredLiveMarkdown } from "@quire/reviews"
import { jobs } from "./Jobs.ts"
import * as Services from "./Services.ts"

/**
 * `services` over an in-process queue in memory that runs every job with them (the memory
 * server, tests): they enqueue on it, and its jobs use them.
 */
export const layerInProcessWith = <E, R>(services: Layer.Layer<Services.Services, E, R>) =>
  layerInProcessRunner(jobs).pipe(Layer.provideMerge(services), Layer.provideMerge(layerInProcessQueue(jobs)))

/** A queue in memory on which jobs are enqueued and not run: for tests and tools that run no jobs. */
export const layerEnqueueOnly = layerInProcessQueue(jobs)

/**
 * Enqueues on graphile-worker in the database at `url`, once that database answers: a server
 * that cannot be reached is reported as such, not as the queue's failure.
 */
export const layerGraphileOn = (url: string) =>
  layerGraphileQueue({ connectionString: url, jobs }).pipe(
    Layer.provide(Layer.effectDiscard(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`)))
  )

/**
 * The use cases over the server's database (`Services.layerSqlOn`) and the queue they enqueue on.
 * Embedded: PGlite's single session cannot host graphile-worker, so jobs run in this process,
 * kept in the database's `queue_jobs` so that those a crash interrupted run again at start.
 * PostgreSQL: jobs are stored durably and run by `apps/worker`; the server only enqueues.
 */
export const layerServices = Layer.unwrap(Effect.map(
  Effect.service(Database.DatabaseInfo),
  (info): Layer.Layer<Services.Services | JobQueue | JobRunner, JobQueueError | SqlError, SqlClient.SqlClient | StoredLiveMarkdown> => {
    const services = Services.layerSqlOn(info.kind)
    return info.kind === "embedded"
      ? layerInProcessRunner(jobs).pipe(Layer.provideMerge(services), Layer.provideMerge(layerInProcessDurableQueue(jobs)))
      : services.pipe(Layer.provideMerge(layerGraphileOn(info.url)))
  }
))
