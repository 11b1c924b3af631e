/** The job queue of a running server: in-process when embedded, graphile-worker on PostgreSQL. */
import { Effect, Layer } from "effect"
import { Database } from "@quire/db"
import { layerGraphile, layerInProcessDurable } from "@quire/queue"
import { jobs } from "./Jobs.ts"

/**
 * Embedded: PGlite's single session cannot host graphile-worker, so jobs run in this process,
 * kept in the database's `queue_jobs` so that those a crash interrupted run again at start.
 * PostgreSQL: jobs are stored durably and run by `apps/worker`; the server only enqueues.
 */
export const layer = Layer.unwrap(Effect.map(Effect.service(Database.DatabaseInfo), (info) =>
  info.kind === "embedded"
    ? layerInProcessDurable(jobs)
    : layerGraphile({ connectionString: info.url, jobs, runWorker: false })
))
