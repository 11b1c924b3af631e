/**
 * The in-process queue: jobs run in fibers of this process. With `layerInProcess` they live in
 * memory (tests, the memory server); with `layerInProcessDurable` they are also kept in the
 * database (`queue_jobs`), so an embedded server that crashed or stopped runs them again at start.
 *
 * Each comes in two halves, so that the services the jobs run with can enqueue: the queue
 * (`layerInProcessQueue`, `layerInProcessDurableQueue`: `JobQueue`, needing nothing of the jobs'
 * services) and the runner (`layerInProcessRunner`: `JobRunner`, needing the queue and the jobs'
 * services). Jobs enqueued while no runner is built wait for it, as a durable queue's wait for a worker.
 */
import { Clock, Context, Deferred, Duration, Effect, Exit, type Fiber, FiberSet, Layer, type Scope, Semaphore } from "effect"
import type { SqlClient } from "effect/sql"
import { giveUp, giveUpReason, isPermanent, lostReason, nextRun, observedAttempt, scheduleKey, validateJobs } from "./internal/jobs.ts"
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

type Definitions = ReturnType<typeof validateJobs<any>>

/** The queue half, shared with the runner half of the same queue. */
export interface InProcessJobsShape {
  readonly definitions: Definitions
  readonly store: JobStore.JobStore
  readonly enqueue: (task: string, payload: unknown, options?: EnqueueOptions) => Effect.Effect<void>
  /**
   * Hands each queued job to `start`, until the scope closes: those a previous process left in the
   * store, those queued since, then each new one. Returns the stored jobs that process was running
   * on their last attempt when it stopped, for the runner to give up.
   */
  readonly attach: (start: (entry: Entry) => void) => Effect.Effect<ReadonlyArray<JobStore.StoredJob>, never, Scope.Scope>
  /** The job is done, given up or interrupted: it leaves the queue. */
  readonly finish: (entry: Entry) => Effect.Effect<void>
  readonly drain: Effect.Effect<void>
}

/** The in-process queue's jobs, between its queue half and its runner half. */
export class InProcessJobs extends Context.Service<InProcessJobs, InProcessJobsShape>()("@quire/queue/InProcessJobs") {}

const maxRetryDelay = 5 * 60 * 1000

/** The queue half in memory: as durable as the process. */
export const layerInProcessQueue = <R>(
  jobs: ReadonlyArray<JobDefinition<R>>
): Layer.Layer<JobQueue | InProcessJobs> => Layer.effectContext(makeQueue(jobs, JobStore.none))

/**
 * The queue half kept in `queue_jobs` (the package's `migrations`): a job is stored from `enqueue`
 * (in the caller's transaction, if any) until done or given up, and those left by a previous
 * process run again when the runner starts (one that was running on its last attempt is given
 * up). Building it reads nothing, so it may be built before the migrations run.
 */
export const layerInProcessDurableQueue = <R>(
  jobs: ReadonlyArray<JobDefinition<R>>
): Layer.Layer<JobQueue | InProcessJobs, never, SqlClient.SqlClient> =>
  Layer.effectContext(Effect.flatMap(JobStore.sql, (store) => makeQueue(jobs, store)))

/** The runner half: runs the queue's jobs (the same `jobs` the queue half was given) and their schedules. */
export const layerInProcessRunner = <R>(
  jobs: ReadonlyArray<JobDefinition<R>>,
  options: InProcessOptions = {}
): Layer.Layer<JobRunner, never, R | InProcessJobs> => Layer.effect(JobRunner, makeRunner(jobs, options))

/**
 * Both halves in memory. Jobs whose handlers use services that enqueue on this queue put the
 * halves around those services instead: runner, then the services, over the queue.
 */
export const layerInProcess = <R = never>(
  jobs: ReadonlyArray<JobDefinition<R>>,
  options: InProcessOptions = {}
): Layer.Layer<JobQueue | JobRunner, never, Exclude<R, JobQueue | InProcessJobs>> =>
  layerInProcessRunner(jobs, options).pipe(Layer.provideMerge(layerInProcessQueue(jobs)))

/** Both halves kept in `queue_jobs` (see `layerInProcessDurableQueue`). */
export const layerInProcessDurable = <R = never>(
  jobs: ReadonlyArray<JobDefinition<R>>,
  options: InProcessOptions = {}
): Layer.Layer<JobQueue | JobRunner, never, Exclude<R, JobQueue | InProcessJobs> | SqlClient.SqlClient> =>
  layerInProcessRunner(jobs, options).pipe(Layer.provideMerge(layerInProcessDurableQueue(jobs)))

const newEntry = (job: JobDefinition<any>, payload: unknown, fields: Partial<Entry> & { runAt: number }): Entry => ({
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

const makeQueue = <R>(jobs: ReadonlyArray<JobDefinition<R>>, store: JobStore.JobStore) =>
  Effect.gen(function*() {
    const definitions: Definitions = validateJobs(jobs)
    const entries = new Set<Entry>()
    const keyed = new Map<string, Entry>()
    let idleWaiters: Array<Deferred.Deferred<void>> = []
    // Jobs queued while no runner is attached, and the runner's start once it is.
    let backlog: Array<Entry> = []
    let start: ((entry: Entry) => void) | undefined

    const finish = (entry: Entry) =>
      Effect.sync(() => {
        entries.delete(entry)
        if (entry.key !== undefined && keyed.get(entry.key) === entry) keyed.delete(entry.key)
        const waiters = idleWaiters
        idleWaiters = []
        for (const waiter of waiters) Deferred.doneUnsafe(waiter, Effect.void)
      })

    /** Queues `entry`, replacing a waiting job with its key; a running one finishes without retries. */
    const admit = (entry: Entry) =>
      Effect.gen(function*() {
        const existing = entry.key === undefined ? undefined : keyed.get(entry.key)
        if (existing?.state === "waiting") {
          existing.cancelled = true
          entries.delete(existing)
          existing.fiber?.interruptUnsafe()
          if (existing.id !== undefined) yield* store.remove(existing.id)
        } else if (existing !== undefined) {
          // Running: let it finish, without retries, as graphile-worker does.
          existing.key = undefined
          existing.maxAttempts = existing.attempts
          existing.superseded = true
        }
        if (entry.key !== undefined) keyed.set(entry.key, entry)
        entries.add(entry)
        if (start === undefined) backlog.push(entry)
        else start(entry)
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

    const attach = (run: (entry: Entry) => void) =>
      Effect.acquireRelease(
        Effect.gen(function*() {
          const queued = new Set(Array.from(entries, (entry) => entry.id))
          const lost = yield* restore(store, definitions, queued, admit)
          start = run
          const waiting = backlog
          backlog = []
          for (const entry of waiting) if (!entry.cancelled) run(entry)
          return lost
        }),
        () => Effect.sync(() => void (start = undefined))
      )

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
      Context.add(InProcessJobs, InProcessJobs.of({ definitions, store, enqueue, attach, finish, drain }))
    )
  })

/**
 * Queues what a previous process left (not the jobs of this one, `queued`); returns the jobs it
 * was running on their last attempt.
 */
const restore = (
  store: JobStore.JobStore,
  definitions: Definitions,
  queued: ReadonlySet<string | undefined>,
  admit: (entry: Entry) => Effect.Effect<void>
): Effect.Effect<ReadonlyArray<JobStore.StoredJob>> =>
  Effect.gen(function*() {
    const lost: Array<JobStore.StoredJob> = []
    for (const job of yield* store.load) {
      const definition = definitions.get(job.task)
      if (queued.has(job.id)) continue
      if (definition === undefined) {
        yield* Effect.logWarning(`Stored job ${JSON.stringify(job.task)} has no definition; left in the store`)
      } else if (job.running && job.attempts >= job.maxAttempts) {
        lost.push(job)
      } else {
        const { attempts, id, key, maxAttempts, runAt } = job
        yield* admit(newEntry(definition.job, job.payload, { id, runAt, attempts, maxAttempts, key }))
      }
    }
    return lost
  })

/** `f` on the entry's row in the store, if it has one. */
const stored = (entry: Entry, f: (id: string) => Effect.Effect<void>) => entry.id === undefined ? Effect.void : f(entry.id)

/** The runner's jobs must be the queue's, so that what is queued is what runs. */
const sameJobs = <R>(jobs: ReadonlyArray<JobDefinition<R>>, definitions: Definitions) =>
  jobs.length === definitions.size && jobs.every((job) => definitions.get(job.name)?.job === job)

const makeRunner = <R>(jobs: ReadonlyArray<JobDefinition<R>>, options: InProcessOptions) =>
  Effect.gen(function*() {
    const queue = yield* InProcessJobs
    if (!sameJobs(jobs, queue.definitions)) {
      return yield* Effect.die(new Error("The in-process runner was given other jobs than its queue"))
    }
    const { store } = queue

    const retryDelay = Duration.toMillis(Duration.fromInputUnsafe(options.retryDelay ?? "1 second"))
    const set = yield* FiberSet.make<void>()
    const fork = yield* FiberSet.runtime(set)<R>()
    const semaphore = options.concurrency === undefined ? undefined : yield* Semaphore.make(options.concurrency)
    const withPermit = <A, E, R2>(effect: Effect.Effect<A, E, R2>) =>
      semaphore === undefined ? effect : semaphore.withPermits(1)(effect)

    const attempt = (entry: Entry) =>
      Effect.suspend(() => (entry.job as JobDefinition<R>).handler(entry.payload)).pipe(
        observedAttempt(entry.job.name, entry.attempts, entry.maxAttempts, {}),
        Effect.annotateLogs({ job: entry.job.name, attempt: entry.attempts }),
        Effect.exit
      )

    // Each attempt counts in the store before it runs, so a crash during it counts too. An
    // interruption (the layer closing) leaves the row: the next start runs the job again.
    const run = (entry: Entry): Effect.Effect<void, never, R> =>
      Effect.gen(function*() {
        while (true) {
          // A timer can fire a millisecond before the wall clock reaches runAt: sleep until it has.
          for (let now = yield* Clock.currentTimeMillis; entry.runAt > now; now = yield* Clock.currentTimeMillis) {
            yield* Effect.sleep(entry.runAt - now)
          }
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
            if (!entry.superseded) {
              yield* giveUp(entry.job as JobDefinition<R>, entry.payload, giveUpReason(exit.cause, entry.attempts))
            }
            return yield* stored(entry, store.remove)
          }
          const delay = Math.min(maxRetryDelay, retryDelay * 2 ** (entry.attempts - 1))
          yield* Effect.logWarning(`Job failed, retrying in ${delay}ms`, exit.cause).pipe(log)
          entry.runAt = (yield* Clock.currentTimeMillis) + delay
          entry.state = "waiting"
          yield* stored(entry, (id) => store.waiting(id, entry.runAt, entry.key))
        }
      }).pipe(Effect.ensuring(queue.finish(entry)))

    const lost = yield* queue.attach((entry) => void (entry.fiber = fork(run(entry))))
    for (const job of lost) {
      yield* Effect.logError("Job given up: the process stopped during its last attempt").pipe(
        Effect.annotateLogs({ job: job.task, attempt: job.attempts })
      )
      yield* giveUp(queue.definitions.get(job.task)!.job as JobDefinition<R>, job.payload, lostReason)
      yield* store.remove(job.id)
    }

    for (const [name, { schedule }] of queue.definitions) {
      if (schedule === undefined) continue
      yield* Effect.forkScoped(Effect.gen(function*() {
        while (true) {
          const now = yield* Clock.currentTimeMillis
          yield* Effect.sleep(nextRun(schedule, now) - now)
          yield* queue.enqueue(name, {}, { jobKey: scheduleKey(name) })
        }
      }))
    }

    return JobRunner.of({ drain: queue.drain, join: Effect.never })
  })
