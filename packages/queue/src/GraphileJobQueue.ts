/**
 * The durable queue: graphile-worker on PostgreSQL, in its own schema `graphile_worker`.
 * Any process can enqueue; processes with `runWorker: true` consume. Jobs survive restarts,
 * retries follow graphile's backoff (exp(min(attempt, 10)) seconds). A job whose worker died
 * is taken back after `lockTimeout` (graphile's own sweep waits 4 hours): running jobs renew
 * their lock, and the consuming processes release locks older than that.
 */
import { Cause, Clock, Context, Duration, Effect, Exit, Layer, type LogLevel } from "effect"
import {
  type CronItem,
  type LogLevel as GraphileLogLevel,
  Logger,
  makeWorkerUtils,
  parseCronItems,
  run,
  type Runner,
  type Task,
  type TaskList,
  type TaskSpec
} from "graphile-worker"
import pg from "pg"
import { giveUp, giveUpReason, isPermanent, nextRun, observedAttempt, type ParsedSchedule, scheduleKey, schedulePayload, validateJobs } from "./internal/jobs.ts"
import { reclaimStale, renewLock } from "./internal/locks.ts"
import {
  defaultMaxAttempts,
  type EnqueueOptions,
  type JobDefinition,
  JobQueue,
  JobQueueError,
  JobRunner
} from "./JobQueue.ts"

export interface GraphileOptions<R> {
  readonly connectionString: string
  /** The jobs this process runs. A process that only enqueues may pass `[]`. */
  readonly jobs: ReadonlyArray<JobDefinition<R>>
  /** Consume jobs (and drive schedules) in this process, or only enqueue. */
  readonly runWorker: boolean
  /** Jobs run at once by this process (default 4). */
  readonly concurrency?: number | undefined
  /** How often to look for jobs that became due (retries, runAt). New jobs are notified at once. Default 2 seconds. */
  readonly pollInterval?: Duration.Input | undefined
  /**
   * A job locked longer than this without its worker renewing the lock (the worker was killed or
   * ran out of memory) runs again, or is given up if that was its last attempt. Running jobs
   * renew their lock every quarter of it. Default `defaultLockTimeout`.
   */
  readonly lockTimeout?: Duration.Input | undefined
}

/** How long a lock is honoured without renewal when `lockTimeout` is not given. */
export const defaultLockTimeout: Duration.Input = "5 minutes"

/** Task identifier of the self-rescheduling job that drives an `every` schedule. */
const tickTask = (name: string) => `quire:tick:${name}`

const busyQuery = `select exists (
  select 1 from graphile_worker._private_jobs
  where locked_at is not null or (attempts < max_attempts and (run_at <= now() or attempts > 0))
) as busy`

const fail = (reason: string) => (cause: unknown) => new JobQueueError({ reason, cause })

/**
 * Runs an `every` schedule: enqueues the job, then the next tick (the key keeps one tick pending),
 * at a time of the layer's `clock` (graphile calls tasks outside any fiber).
 */
const tick = (name: string, schedule: ParsedSchedule, clock: Clock.Clock): Task => async (_payload, helpers) => {
  await helpers.addJob(name, {}, { jobKey: scheduleKey(name), maxAttempts: defaultMaxAttempts })
  await helpers.addJob(tickTask(name), {}, { jobKey: tickTask(name), runAt: new Date(nextRun(schedule, clock.currentTimeMillisUnsafe())) })
}

const severity = (level: GraphileLogLevel, failure: boolean): LogLevel.Severity => {
  switch (level) {
    case "error":
      // Job failures are logged by the task wrapper, with the Effect cause.
      return failure ? "Debug" : "Error"
    case "warning":
      return "Warn"
    case "info":
      return "Debug"
    default:
      return "Trace"
  }
}

/**
 * graphile's task for `job`: runs the handler (renewing the job's lock meanwhile), calls the
 * give-up hook when this failure is final, and rethrows any failure so that graphile records it.
 */
const makeTask = <R>(
  job: JobDefinition<R>,
  scheduled: boolean,
  runPromiseExit: <A, E>(effect: Effect.Effect<A, E, R>, options?: { readonly signal?: AbortSignal }) => Promise<Exit.Exit<A, E>>,
  lockTimeout: Duration.Duration
): Task => async (raw, helpers) => {
  const attempt = helpers.job.attempts
  const payload = scheduled ? schedulePayload(raw) : raw
  const annotate = Effect.annotateLogs({ job: job.name, jobId: helpers.job.id, attempt })
  const exit = await runPromiseExit(
    Effect.suspend(() => job.handler(payload)).pipe(
      (handler) => Effect.raceFirst(handler, renewLock(helpers, lockTimeout)),
      observedAttempt(job.name, attempt, helpers.job.max_attempts, { "job.id": helpers.job.id }),
      annotate
    ),
    { signal: helpers.abortSignal }
  )
  if (Exit.isSuccess(exit)) return
  const cause = exit.cause
  const givenUp = isPermanent(cause) || attempt >= helpers.job.max_attempts
  if (givenUp) await runPromiseExit(giveUp(job, payload, giveUpReason(cause, attempt)).pipe(annotate))
  if (isPermanent(cause)) {
    // graphile has no "do not retry" signal: using up the attempts of the running job
    // makes its failure final (the row stays, with last_error, as permanently failed).
    await helpers.withPgClient((client) =>
      client.query("update graphile_worker._private_jobs set max_attempts = attempts where id = $1", [
        helpers.job.id
      ])
    )
    await runPromiseExit(Effect.logError("Job failed permanently", cause).pipe(annotate))
  } else if (Cause.hasInterruptsOnly(cause)) {
    await runPromiseExit(Effect.logInfo("Job interrupted by shutdown, it will be retried").pipe(annotate))
  } else if (attempt >= helpers.job.max_attempts) {
    await runPromiseExit(Effect.logError("Job failed permanently", cause).pipe(annotate))
  } else {
    await runPromiseExit(Effect.logWarning("Job failed, it will be retried", cause).pipe(annotate))
  }
  throw new Error(Cause.pretty(cause))
}

/**
 * Enqueues with graphile's `addJob`; when `runWorker`, runs graphile's runner with one task
 * per job (handlers run with this layer's context) and drives schedules. Runs graphile's
 * migrations first. Closing the layer stops the runner gracefully: running jobs finish
 * (graphile aborts them after 5 seconds, and they are retried later).
 */
export const layerGraphile = <R = never>(
  options: GraphileOptions<R>
): Layer.Layer<JobQueue | JobRunner, JobQueueError, R> =>
  Layer.effectContext(Effect.gen(function*() {
    const definitions = validateJobs(options.jobs)
    const context = yield* Effect.context<R>()
    const runFork = Effect.runForkWith(context)
    const runPromiseExit = Effect.runPromiseExitWith(context)
    const concurrency = options.concurrency ?? 4

    const logger = new Logger((scope) => (level, message, meta) => {
      const annotations: Record<string, string> = { graphile: scope.label ?? "worker" }
      if (scope.workerId !== undefined) annotations.workerId = scope.workerId
      if (scope.taskIdentifier !== undefined) annotations.job = scope.taskIdentifier
      if (scope.jobId !== undefined) annotations.jobId = scope.jobId
      runFork(Effect.logWithLevel(severity(level, meta.failure === true))(message).pipe(Effect.annotateLogs(annotations)))
    })

    const onError = (error: Error) => runFork(Effect.logWarning("Job queue: PostgreSQL client failed", error))
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const pool = new pg.Pool({ connectionString: options.connectionString, max: Math.max(10, concurrency + 2) })
        pool.on("error", onError)
        pool.on("connect", (client) => client.on("error", onError))
        return pool
      }),
      (pool) => Effect.ignore(Effect.tryPromise(() => pool.end()))
    )
    const utils = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => makeWorkerUtils({ pgPool: pool, logger }),
        catch: fail("Job queue: cannot connect to PostgreSQL")
      }),
      (utils) => Effect.ignore(Effect.tryPromise(async () => { await utils.release() }))
    )
    yield* Effect.tryPromise({ try: () => utils.migrate(), catch: fail("Job queue: graphile-worker migrations failed") })

    const enqueue = Effect.fn("JobQueue.enqueue")(function*(task: string, payload: unknown, options?: EnqueueOptions) {
      const spec: TaskSpec = {
        maxAttempts: options?.maxAttempts ?? definitions.get(task)?.job.maxAttempts ?? defaultMaxAttempts
      }
      if (options?.runAt !== undefined) spec.runAt = options.runAt
      if (options?.jobKey !== undefined) spec.jobKey = options.jobKey
      yield* Effect.tryPromise(() => utils.addJob(task, payload ?? {}, spec)).pipe(Effect.orDie)
    })

    const drain = Effect.gen(function*() {
      while (true) {
        const { rows } = yield* Effect.tryPromise(() =>
          utils.withPgClient((client) => client.query<{ busy: boolean }>(busyQuery))
        ).pipe(Effect.orDie)
        if (rows[0]?.busy !== true) return
        yield* Effect.sleep("25 millis")
      }
    })

    if (!options.runWorker) {
      return Context.make(JobQueue, JobQueue.of({ enqueue })).pipe(
        Context.add(JobRunner, JobRunner.of({ drain, join: Effect.never }))
      )
    }

    const lockTimeout = Duration.fromInputUnsafe(options.lockTimeout ?? defaultLockTimeout)
    const task = (job: JobDefinition<R>, scheduled: boolean) => makeTask(job, scheduled, runPromiseExit, lockTimeout)
    const taskList: TaskList = {}
    const cronItems: Array<CronItem> = []
    const clock = yield* Clock.Clock
    const now = clock.currentTimeMillisUnsafe()
    for (const [name, { job, schedule }] of definitions) {
      taskList[name] = task(job, schedule !== undefined)
      if (schedule?.kind === "every") {
        taskList[tickTask(name)] = tick(name, schedule, clock)
        // Keeps a pending tick's run_at, so one that fell due while no worker ran still runs.
        yield* Effect.tryPromise({
          try: () =>
            utils.addJob(tickTask(name), {}, {
              jobKey: tickTask(name),
              jobKeyMode: "preserve_run_at",
              runAt: new Date(nextRun(schedule, now))
            }),
          catch: fail(`Job queue: cannot schedule ${name}`)
        })
      } else if (schedule?.kind === "cron") {
        cronItems.push({
          task: name,
          match: schedule.expression,
          identifier: name,
          options: { backfillPeriod: 0, jobKey: scheduleKey(name), jobKeyMode: "replace", maxAttempts: defaultMaxAttempts }
        })
      }
    }
    const parsedCronItems = yield* Effect.try({
      try: () => parseCronItems(cronItems),
      catch: fail("Job queue: invalid cron schedule")
    })

    let stopping = false
    const runner: Runner = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () =>
          run({
            pgPool: pool,
            logger,
            concurrency,
            pollInterval: Duration.toMillis(Duration.fromInputUnsafe(options.pollInterval ?? "2 seconds")),
            noHandleSignals: true,
            taskList,
            parsedCronItems
          }),
        catch: fail("Job queue: cannot start graphile-worker")
      }),
      (runner) =>
        Effect.suspend(() => {
          stopping = true
          return Effect.ignore(Effect.tryPromise(() => runner.stop("layer closed")))
        })
    )
    const stopped = runner.promise.then(
      () => undefined,
      (error: unknown) => error
    )
    void stopped.then((error) => {
      if (!stopping) runFork(Effect.logError("graphile-worker stopped unexpectedly", error))
    })
    yield* Effect.logDebug("Job queue: graphile-worker running", { concurrency, jobs: [...definitions.keys()] })
    // Jobs whose worker died run again, or are given up (with their hook) when that was their last attempt.
    yield* Effect.forkScoped(reclaimStale(utils, definitions, lockTimeout))


    const join = Effect.promise(() => stopped).pipe(
      Effect.flatMap((error) =>
        stopping ? Effect.never : Effect.die(new Error("graphile-worker stopped unexpectedly", { cause: error }))
      )
    )

    return Context.make(JobQueue, JobQueue.of({ enqueue })).pipe(
      Context.add(JobRunner, JobRunner.of({ drain, join }))
    )
  }))

/**
 * The queue of a process that only enqueues (jobs run in `apps/worker`): `JobQueue`, and a
 * `JobRunner` whose `drain` waits for the workers. `jobs` give their default attempts; their
 * handlers never run here, so nothing of what they need is required.
 */
export const layerGraphileQueue = <R>(options: {
  readonly connectionString: string
  readonly jobs: ReadonlyArray<JobDefinition<R>>
}): Layer.Layer<JobQueue | JobRunner, JobQueueError> =>
  layerGraphile({
    connectionString: options.connectionString,
    // Without `runWorker`, no handler or hook runs: their requirements are not needed.
    jobs: options.jobs as ReadonlyArray<JobDefinition<never>>,
    runWorker: false
  })

