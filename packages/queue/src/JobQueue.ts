/**
 * Background jobs. The port is `JobQueue` (enqueue by task name); a job is a `JobDefinition`
 * (a name, an Effect handler, an optional schedule, attempts, a give-up hook). Two adapters run
 * them: in-process (`layerInProcess`, jobs in memory, for tests; `layerInProcessDurable`, jobs
 * kept in the database, for the embedded server) and `layerGraphile` (graphile-worker on
 * PostgreSQL, durable across restarts and worker deaths).
 */
import { Context, Duration, Effect, Schema } from "effect"

export interface EnqueueOptions {
  /** Do not run before this instant (default: now). */
  readonly runAt?: Date | undefined
  /**
   * A pending job with the same key is replaced (payload, runAt, maxAttempts; attempts reset).
   * If that job is running, it finishes but is not retried, and the new job is queued.
   */
  readonly jobKey?: string | undefined
  /** Attempts before the job is given up (default `defaultMaxAttempts`). */
  readonly maxAttempts?: number | undefined
}

/** Attempts a job gets when `enqueue` does not say otherwise, in both adapters. */
export const defaultMaxAttempts = 10

/**
 * When a job runs on its own. `every` runs at each multiple of the interval since the epoch;
 * `cron` takes a 5-field crontab expression (minute granularity) evaluated in UTC. A
 * scheduled run receives the payload `{}`; a run not started before the next one is due is
 * replaced by it (the schedule uses a job key).
 */
export type JobSchedule =
  | { readonly every: Duration.Input }
  | { readonly cron: string }

/** A kind of job: handlers receive the stored (JSON) payload and may require services `R`. */
export interface JobDefinition<R = never> {
  readonly name: string
  readonly handler: (payload: unknown) => Effect.Effect<void, unknown, R>
  readonly schedule?: JobSchedule | undefined
  /** Attempts when `enqueue` does not say (default `defaultMaxAttempts`). */
  readonly maxAttempts?: number | undefined
  /**
   * Called once when the queue abandons a job: its attempts are used up, it failed with
   * `PermanentJobFailure`, or the worker running its last attempt died. `reason` says why, in a
   * sentence. Its failure is logged, never retried.
   */
  readonly onGiveUp?: ((payload: unknown, reason: string) => Effect.Effect<void, unknown, R>) | undefined
}

/**
 * A failure that retrying cannot fix (a payload that does not decode, a resource that is
 * gone). The queue records it and does not retry, whatever attempts remain.
 */
export class PermanentJobFailure extends Schema.TaggedError<PermanentJobFailure>()("PermanentJobFailure", {
  reason: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {
  override get message(): string {
    return this.reason
  }
}

/** The queue could not start: the database is unreachable, or its migrations failed. */
export class JobQueueError extends Schema.TaggedError<JobQueueError>()("JobQueueError", {
  reason: Schema.String,
  cause: Schema.Defect()
}) {
  override get message(): string {
    return this.reason
  }
}

/** Enqueues background jobs. */
export class JobQueue extends Context.Service<JobQueue, {
  /**
   * Stores a job for `task`; `payload` must be JSON-serialisable (it is stored as JSON).
   * The in-process queue dies on a task it does not define; the graphile queue accepts any
   * name, since another process may run it.
   */
  enqueue(task: string, payload: unknown, options?: EnqueueOptions): Effect.Effect<void>
}>()("@quire/queue/JobQueue") {}

/** The consuming side of a queue, for tests and for the worker process. */
export class JobRunner extends Context.Service<JobRunner, {
  /**
   * Waits until no job is running, due, or waiting for a retry. Jobs whose `runAt` (or next
   * scheduled run) is still in the future do not count.
   */
  readonly drain: Effect.Effect<void>
  /** Never succeeds; dies if the consumer stops on its own (a crash rather than a shutdown). */
  readonly join: Effect.Effect<never>
}>()("@quire/queue/JobRunner") {}

/** A job whose payload is described by a schema; `enqueue` encodes, the handler gets the decoded value. */
export interface TypedJobDefinition<A, R = never> extends JobDefinition<R> {
  readonly enqueue: (payload: A, options?: EnqueueOptions) => Effect.Effect<void, never, JobQueue>
}

/**
 * Defines a job with a payload schema. The stored payload is decoded before the handler
 * runs; a payload that does not decode is a `PermanentJobFailure` (never retried).
 */
export const define = <S extends Schema.Codec<any, any, never, never>, R = never>(
  name: string,
  options: {
    readonly payload: S
    readonly handler: (payload: S["Type"]) => Effect.Effect<void, unknown, R>
    readonly schedule?: JobSchedule | undefined
    readonly maxAttempts?: number | undefined
    /** See `JobDefinition.onGiveUp`; not called for a payload that does not decode. */
    readonly onGiveUp?: ((payload: S["Type"], reason: string) => Effect.Effect<void, unknown, R>) | undefined
  }
): TypedJobDefinition<S["Type"], R> => {
  const decode = Schema.decodeUnknownEffect(options.payload)
  const encode = Schema.encodeEffect(options.payload)
  const onGiveUp = options.onGiveUp
  return {
    name,
    schedule: options.schedule,
    maxAttempts: options.maxAttempts,
    onGiveUp: onGiveUp === undefined
      ? undefined
      : (raw, reason) => decode(raw).pipe(Effect.matchEffect({ onFailure: () => Effect.void, onSuccess: (payload) => onGiveUp(payload, reason) })),
    handler: (raw) =>
      decode(raw).pipe(
        Effect.mapError((cause) =>
          new PermanentJobFailure({ reason: `Invalid payload for job ${name}: ${cause.message}`, cause })
        ),
        Effect.flatMap(options.handler)
      ),
    enqueue: (payload, enqueueOptions) =>
      encode(payload).pipe(
        Effect.orDie,
        Effect.flatMap((encoded) => JobQueue.use((queue) => queue.enqueue(name, encoded, enqueueOptions)))
      )
  }
}
