/**
 * How the graphile queue takes back the jobs of a dead worker. graphile-worker 0.18 releases a
 * lock only after 4 hours (a fixed interval in its `resetLockedAt`), so a job whose worker was
 * killed stayed `running` that long. Here a running job renews its lock every quarter of the
 * lock timeout, and every consuming process releases locks older than the timeout.
 */
import { Duration, Effect, Schedule } from "effect"
import type { JobHelpers, WorkerUtils } from "graphile-worker"
import type { JobDefinition } from "../JobQueue.ts"
import { giveUp, lostReason, schedulePayload } from "./jobs.ts"

const renewQuery = "update graphile_worker._private_jobs set locked_at = now() where id = $1 and locked_by = $2"

/**
 * Releases the locks of jobs whose worker stopped renewing them. Those with attempts left run
 * again; the others are failed for good (`last_error` says why) and returned for their give-up hook.
 */
const reclaimQuery = `with reclaimed as (
  update graphile_worker._private_jobs as jobs
  set locked_at = null, locked_by = null, run_at = greatest(run_at, now()),
    last_error = case when attempts >= max_attempts then $2 else last_error end
  from graphile_worker._private_tasks as tasks
  where tasks.id = jobs.task_id and jobs.locked_at < now() - make_interval(secs => $1::double precision)
  returning jobs.id, jobs.attempts, jobs.max_attempts, jobs.payload, tasks.identifier
)
select id, payload, identifier from reclaimed where attempts >= max_attempts`

/** Renews the running job's lock until interrupted (never succeeds). */
export const renewLock = (helpers: JobHelpers, lockTimeout: Duration.Duration): Effect.Effect<never> =>
  Effect.tryPromise(() => helpers.withPgClient((client) => client.query(renewQuery, [helpers.job.id, helpers.job.locked_by]))).pipe(
    Effect.catch((error) => Effect.logWarning("Job queue: cannot renew a job's lock", error)),
    Effect.delay(Duration.divideUnsafe(lockTimeout, 4)),
    Effect.forever
  )

/** One sweep: stale locks released, the jobs that had used their attempts given up through their hook. */
const reclaimOnce = <R>(
  utils: WorkerUtils,
  jobs: ReadonlyMap<string, { readonly job: JobDefinition<R>; readonly schedule: unknown }>,
  lockTimeout: Duration.Duration
): Effect.Effect<void, never, R> =>
  Effect.gen(function*() {
    const { rows } = yield* Effect.tryPromise(() =>
      utils.withPgClient((client) =>
        client.query<{ id: string; payload: unknown; identifier: string }>(reclaimQuery, [Duration.toSeconds(lockTimeout), lostReason])
      )
    )
    for (const row of rows) {
      yield* Effect.logError("Job given up: its worker stopped during its last attempt").pipe(
        Effect.annotateLogs({ job: row.identifier, jobId: row.id })
      )
      const definition = jobs.get(row.identifier)
      if (definition === undefined) continue
      const payload = definition.schedule === undefined ? row.payload : schedulePayload(row.payload)
      yield* giveUp(definition.job, payload, lostReason)
    }
  }).pipe(Effect.catch((error) => Effect.logWarning("Job queue: cannot reclaim stale locks", error)))

/** Sweeps at start and then every half lock timeout (at least every second), until interrupted. */
export const reclaimStale = <R>(
  utils: WorkerUtils,
  jobs: ReadonlyMap<string, { readonly job: JobDefinition<R>; readonly schedule: unknown }>,
  lockTimeout: Duration.Duration
): Effect.Effect<never, never, R> =>
  Effect.repeat(
    reclaimOnce(utils, jobs, lockTimeout),
    Schedule.spaced(Duration.max(Duration.divideUnsafe(lockTimeout, 2), Duration.seconds(1)))
  ).pipe(Effect.andThen(Effect.never))
