/**
 * The in-process queue: jobs live in memory and run in fibers of this process. For the
 * embedded server and tests; jobs still pending when the layer closes are lost.
 */
import { Clock, Context, Deferred, Duration, Effect, Exit, type Fiber, FiberSet, Layer, Semaphore } from "effect"
import { isPermanent, nextRun, scheduleKey, validateJobs } from "./internal/jobs.ts"
import { defaultMaxAttempts, type EnqueueOptions, type JobDefinition, JobQueue, JobRunner } from "./JobQueue.ts"

export interface InProcessOptions {
  /** Delay before the first retry; each further retry waits twice as long, at most 5 minutes. Default 1 second. */
  readonly retryDelay?: Duration.Input | undefined
  /** Most jobs running at once (default: no limit). */
  readonly concurrency?: number | undefined
}

interface Entry {
  readonly task: string
  readonly handler: (payload: unknown) => Effect.Effect<void, unknown, any>
  readonly payload: unknown
  runAt: number
  attempts: number
  maxAttempts: number
  key: string | undefined
  /** `waiting` jobs (not started, or between retries) can be replaced through their key. */
  state: "waiting" | "running"
  cancelled: boolean
  fiber: Fiber.Fiber<void> | undefined
}

const maxRetryDelay = 5 * 60 * 1000

/** The queue is as durable as the process: use `layerGraphile` where jobs must survive restarts. */
export const layerInProcess = <R = never>(
  jobs: ReadonlyArray<JobDefinition<R>>,
  options: InProcessOptions = {}
): Layer.Layer<JobQueue | JobRunner, never, R> =>
  Layer.effectContext(Effect.gen(function*() {
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

    const finish = (entry: Entry) =>
      Effect.sync(() => {
        entries.delete(entry)
        if (entry.key !== undefined && keyed.get(entry.key) === entry) keyed.delete(entry.key)
        const waiters = idleWaiters
        idleWaiters = []
        for (const waiter of waiters) Deferred.doneUnsafe(waiter, Effect.void)
      })

    const attempt = (entry: Entry) =>
      Effect.suspend(() => entry.handler(entry.payload)).pipe(
        Effect.withSpan("JobQueue.run", { attributes: { "job.name": entry.task, "job.attempt": entry.attempts } }),
        Effect.annotateLogs({ job: entry.task, attempt: entry.attempts }),
        Effect.exit
      )

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
            return attempt(entry)
          }))
          if (exit === undefined || Exit.isSuccess(exit)) return
          const log = Effect.annotateLogs({ job: entry.task, attempt: entry.attempts, maxAttempts: entry.maxAttempts })
          if (isPermanent(exit.cause) || entry.attempts >= entry.maxAttempts) {
            return yield* Effect.logError("Job failed permanently", exit.cause).pipe(log)
          }
          const delay = Math.min(maxRetryDelay, retryDelay * 2 ** (entry.attempts - 1))
          yield* Effect.logWarning(`Job failed, retrying in ${delay}ms`, exit.cause).pipe(log)
          entry.runAt = (yield* Clock.currentTimeMillis) + delay
          entry.state = "waiting"
        }
      }).pipe(Effect.ensuring(finish(entry)))

    const enqueue = Effect.fn("JobQueue.enqueue")(function*(task: string, payload: unknown, options?: EnqueueOptions) {
      const definition = definitions.get(task)
      if (definition === undefined) return yield* Effect.die(new Error(`Unknown job ${JSON.stringify(task)}`))
      // Stored as JSON, like the durable queue does, so handlers see the same values.
      const stored = yield* Effect.try(() => JSON.parse(JSON.stringify(payload ?? {})) as unknown).pipe(Effect.orDie)
      const now = yield* Clock.currentTimeMillis
      const entry: Entry = {
        task,
        handler: definition.job.handler,
        payload: stored,
        runAt: options?.runAt?.getTime() ?? now,
        attempts: 0,
        maxAttempts: options?.maxAttempts ?? defaultMaxAttempts,
        key: options?.jobKey,
        state: "waiting",
        cancelled: false,
        fiber: undefined
      }
      if (entry.key !== undefined) {
        const existing = keyed.get(entry.key)
        if (existing?.state === "waiting") {
          existing.cancelled = true
          entries.delete(existing)
          existing.fiber?.interruptUnsafe()
        } else if (existing !== undefined) {
          // Running: let it finish, without retries, as graphile-worker does.
          existing.key = undefined
          existing.maxAttempts = existing.attempts
        }
        keyed.set(entry.key, entry)
      }
      entries.add(entry)
      entry.fiber = fork(run(entry))
    })

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
  }))
