/**
 * The in-process queue: jobs run in fibers of this process. With `layerInProcess` they live in
 * memory (tests, the memory server); with `layerInProcessDurable` they are also kept in the
 * database (`queue_jobs`), so an embedded server that crashed or stopped runs them again at start.
 */
import { Clock, Context, Deferred, Duration, Effect, Exit, type Fiber, FiberSet, Layer, Semaphore } from "effect"
import type { SqlClient } from "effect/sql"
import { giveUp, giveUpReason, isPermanent, lostReason, nextRun, scheduleKey, validateJobs } from "./internal/jobs.ts"
import { defaultMaxAttempts, type EnqueueOptions, type JobDefinition, JobQueue, JobRunner } from "./JobQueue.ts"
import * as JobStore from "./JobStore.ts"

export interface InProcessOptions {
  /** Delay before the first retry; each further retry waits twice as long, at most 5 minutes. Default 1 second. */
  readonly retryDelay?: Duration.Input | undefined
  /** Most jobs running at once (default: no limit). */
  readonly concurrency?: number | undefined
}

interface Entry {
  readonly job: JobDefinition<any>
  readonly payload: unknown
  /** Its row in the store, if it has one. */
  id: string | undefined
  runAt: number
  attempts: number
  maxAttempts: number
  key: string | undefined
  /** `waiting` jobs (not started, or between retries) can be replaced through their key. */
  state: "waiting" | "running"
  cancelled: boolean
  /** A newer job took its key while it ran: it finishes, is not retried and is not given up. */
  superseded: boolean
  fiber: Fiber.Fiber<void> | undefined
}

const maxRetryDelay = 5 * 60 * 1000

/** The queue is as durable as the process: use `layerInProcessDurable` or `layerGraphile` where jobs must survive restarts. */
export const layerInProcess = <R = never>(
  jobs: ReadonlyArray<JobDefinition<R>>,
  options: InProcessOptions = {}
): Layer.Layer<JobQueue | JobRunner, never, R> => Layer.effectContext(make(jobs, options, JobStore.none))

/**
 * Jobs are kept in `queue_jobs` (the package's `migrations`) from `enqueue` (in the caller's
 * transaction, if any) until done or given up, and those left by a previous process are run
 * again when the layer starts (one that was running on its last attempt is given up).
 */
export const layerInProcessDurable = <R = never>(
  jobs: ReadonlyArray<JobDefinition<R>>,
  options: InProcessOptions = {}
): Layer.Layer<JobQueue | JobRunner, never, R | SqlClient.SqlClient> =>
  Layer.effectContext(Effect.flatMap(JobStore.sql, (store) => make(jobs, options, store)))

const newEntry = <R>(job: JobDefinition<R>, payload: unknown, fields: Partial<Entry> & { runAt: number }): Entry => ({
  job,
  payload,
  id: undefined,
  attempts: 0,
  maxAttempts: job.maxAttempts ?? defaultMaxAttempts,
  key: undefined,
  state: "waiting",
  cancelled: false,
  superseded: false,
  fiber: undefined,
  ...fields
})

/** Queues what a previous process left (jobs waiting, and those it was running when it stopped). */
const restore = <R>(
  store: JobStore.JobStore,
  definitions: ReturnType<typeof validateJobs<R>>,
  admit: (entry: Entry) => Effect.Effect<void>
): Effect.Effect<void, never, R> =>
  Effect.gen(function*() {
    for (const job of yield* store.load) {
      const definition = definitions.get(job.task)
      if (definition === undefined) {
        yield* Effect.logWarning(`Stored job ${JSON.stringify(job.task)} has no definition; left in the store`)
        continue
      }
      if (job.running && job.attempts >= job.maxAttempts) {
        yield* Effect.logError("Job given up: the process stopped during its last attempt").pipe(
          Effect.annotateLogs({ job: job.task, attempt: job.attempts })
        )
        yield* giveUp(definition.job, job.payload, lostReason)
        yield* store.remove(job.id)
        continue
      }
      const { attempts, id, key, maxAttempts, runAt } = job
      yield* admit(newEntry(definition.job, job.payload, { id, runAt, attempts, maxAttempts, key }))
    }
  })

const make = <R>(jobs: ReadonlyArray<JobDefinition<R>>, options: InProcessOptions, store: JobStore.JobStore) =>
  Effect.gen(function*() {
    const definitions = validateJobs(jobs)
    const retryDelay = Duration.toMillis(Duration.fromInputUnsafe(options.retryDelay ?? "1 second"))
    const set = yield* FiberSet.make<void>()
    const fork = yield* FiberSet.runtime(set)<R>()
    const semaphore = options.concurrency === undefined ? undefined : yield* Semaphore.make(options.concurrency)
    const withPermit = <A, E, R2>(effect: Effect.Effect<A, E, R2>) =>
      semaphore === undefined ? effect : semaphore.withPermits(1)(effect)

    const entries = new Set<Entry>()
    const keyed = new Map<string, Entry>()
    let idleWaiters: Array<Deferred.Deferred<void>> = []
    const stored = (entry: Entry, f: (id: string) => Effect.Effect<void>) =>
      entry.id === undefined ? Effect.void : f(entry.id)

    const finish = (entry: Entry) =>
      Effect.sync(() => {
        entries.delete(entry)
        if (entry.key !== undefined && keyed.get(entry.key) === entry) keyed.delete(entry.key)
        const waiters = idleWaiters
        idleWaiters = []
        for (const waiter of waiters) Deferred.doneUnsafe(waiter, Effect.void)
      })

    const attempt = (entry: Entry) =>
      Effect.suspend(() => entry.job.handler(entry.payload)).pipe(
        Effect.withSpan("JobQueue.run", { attributes: { "job.name": entry.job.name, "job.attempt": entry.attempts } }),
        Effect.annotateLogs({ job: entry.job.name, attempt: entry.attempts }),
        Effect.exit
      )

    // Each attempt counts in the store before it runs, so a crash during it counts too. An
    // interruption (the layer closing) leaves the row: the next start runs the job again.
    const run = (entry: Entry): Effect.Effect<void, never, R> =>
      Effect.gen(function*() {
        while (true) {
          const now = yield* Clock.currentTimeMillis
          if (entry.runAt > now) yield* Effect.sleep(entry.runAt - now)
          const exit = yield* withPermit(Effect.suspend(() => {
            // The check and the state change happen in one synchronous step, so `enqueue`
            // never replaces a job that has started.
            if (entry.cancelled) return Effect.succeed(undefined)
            entry.state = "running"
            entry.attempts++
            return stored(entry, (id) => store.started(id, entry.attempts)).pipe(Effect.andThen(attempt(entry)))
          }))
          if (exit === undefined) return
          if (Exit.isSuccess(exit)) return yield* stored(entry, store.remove)
          const log = Effect.annotateLogs({ job: entry.job.name, attempt: entry.attempts, maxAttempts: entry.maxAttempts })
          if (isPermanent(exit.cause) || entry.attempts >= entry.maxAttempts) {
            yield* Effect.logError("Job failed permanently", exit.cause).pipe(log)
            if (!entry.superseded) yield* giveUp(entry.job, entry.payload, giveUpReason(exit.cause, entry.attempts))
            return yield* stored(entry, store.remove)
          }
          const delay = Math.min(maxRetryDelay, retryDelay * 2 ** (entry.attempts - 1))
          yield* Effect.logWarning(`Job failed, retrying in ${delay}ms`, exit.cause).pipe(log)
          entry.runAt = (yield* Clock.currentTimeMillis) + delay
          entry.state = "waiting"
          yield* stored(entry, (id) => store.waiting(id, entry.runAt, entry.key))
        }
      }).pipe(Effect.ensuring(finish(entry)))

    /** Queues `entry`, replacing a waiting job with its key; a running one finishes without retries. */
    const admit = (entry: Entry) =>
      Effect.gen(function*() {
        const existing = entry.key === undefined ? undefined : keyed.get(entry.key)
        if (existing?.state === "waiting") {
          existing.cancelled = true
          entries.delete(existing)
          existing.fiber?.interruptUnsafe()
          yield* stored(existing, store.remove)
        } else if (existing !== undefined) {
          // Running: let it finish, without retries, as graphile-worker does.
          existing.key = undefined
          existing.maxAttempts = existing.attempts
          existing.superseded = true
        }
        if (entry.key !== undefined) keyed.set(entry.key, entry)
        entries.add(entry)
        entry.fiber = fork(run(entry))
      })

    const enqueue = Effect.fn("JobQueue.enqueue")(function*(task: string, payload: unknown, options?: EnqueueOptions) {
      const definition = definitions.get(task)
      if (definition === undefined) return yield* Effect.die(new Error(`Unknown job ${JSON.stringify(task)}`))
      // Stored as JSON, like the durable queue does, so handlers see the same values.
      const json = yield* Effect.try(() => JSON.parse(JSON.stringify(payload ?? {})) as unknown).pipe(Effect.orDie)
      const entry = newEntry(definition.job, json, {
        runAt: options?.runAt?.getTime() ?? (yield* Clock.currentTimeMillis),
        key: options?.jobKey,
        ...(options?.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts })
      })
      entry.id = yield* store.insert({
        task,
        payload: json,
        runAt: entry.runAt,
        attempts: 0,
        maxAttempts: entry.maxAttempts,
        key: entry.key
      })
      yield* admit(entry)
    })

    yield* restore(store, definitions, admit)

    for (const [name, { schedule }] of definitions) {
      if (schedule === undefined) continue
      yield* Effect.forkScoped(Effect.gen(function*() {
        while (true) {
          const now = yield* Clock.currentTimeMillis
          yield* Effect.sleep(nextRun(schedule, now) - now)
          yield* enqueue(name, {}, { jobKey: scheduleKey(name) })
        }
      }))
    }

    const isIdle = (now: number) => {
      for (const entry of entries) {
        if (entry.state === "running" || entry.attempts > 0 || entry.runAt <= now) return false
      }
      return true
    }

    const drain = Effect.gen(function*() {
      while (!isIdle(yield* Clock.currentTimeMillis)) {
        const waiter = yield* Deferred.make<void>()
        idleWaiters.push(waiter)
        yield* Deferred.await(waiter)
      }
    })

    return Context.make(JobQueue, JobQueue.of({ enqueue })).pipe(
      Context.add(JobRunner, JobRunner.of({ drain, join: Effect.never }))
    )
  })
