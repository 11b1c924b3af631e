/** Helpers both adapters share: validating definitions, schedules, failure classification, a run's span and metrics. */
import { Cause, Clock, Cron, Duration, Effect, Exit, Metric, Result } from "effect"
import { type JobDefinition, PermanentJobFailure } from "../JobQueue.ts"

/** Job key under which scheduled runs of `name` are enqueued (so they never pile up). */
export const scheduleKey = (name: string): string => `quire:schedule:${name}`

export type ParsedSchedule =
  | { readonly kind: "every"; readonly millis: number }
  | { readonly kind: "cron"; readonly expression: string; readonly cron: Cron.Cron }

/** Throws on duplicate names and malformed schedules: both are programming errors. */
export const validateJobs = <R>(
  jobs: ReadonlyArray<JobDefinition<R>>
): ReadonlyMap<string, { readonly job: JobDefinition<R>; readonly schedule: ParsedSchedule | undefined }> => {
  const byName = new Map<string, { readonly job: JobDefinition<R>; readonly schedule: ParsedSchedule | undefined }>()
  for (const job of jobs) {
    if (byName.has(job.name)) throw new Error(`Job ${JSON.stringify(job.name)} is defined twice`)
    byName.set(job.name, { job, schedule: job.schedule === undefined ? undefined : parseSchedule(job) })
  }
  return byName
}

const parseSchedule = <R>(job: JobDefinition<R>): ParsedSchedule => {
  const schedule = job.schedule!
  if ("every" in schedule) {
    const millis = Duration.toMillis(Duration.fromInputUnsafe(schedule.every))
    if (!(millis > 0) || !Number.isFinite(millis)) {
      throw new Error(`Job ${JSON.stringify(job.name)}: schedule.every must be a positive, finite duration`)
    }
    return { kind: "every", millis }
  }
  const expression = schedule.cron.trim()
  // graphile-worker's crontab has five fields (no seconds); accept the same everywhere.
  if (expression.split(/\s+/).length !== 5) {
    throw new Error(`Job ${JSON.stringify(job.name)}: cron ${JSON.stringify(expression)} must have 5 fields`)
  }
  const parsed = Cron.parse(expression, "UTC")
  if (Result.isFailure(parsed)) {
    throw new Error(`Job ${JSON.stringify(job.name)}: invalid cron ${JSON.stringify(expression)}`, {
      cause: parsed.failure
    })
  }
  return { kind: "cron", expression, cron: parsed.success }
}

/** The first run of a schedule strictly after `now` (epoch millis). */
export const nextRun = (schedule: ParsedSchedule, now: number): number =>
  schedule.kind === "every"
    ? (Math.floor(now / schedule.millis) + 1) * schedule.millis
    : Cron.next(schedule.cron, new Date(now)).getTime()

/** True when the handler failed with `PermanentJobFailure` (as opposed to a retryable error or a defect). */
export const isPermanent = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) => Cause.isFailReason(reason) && reason.error instanceof PermanentJobFailure)

/** Scheduled runs get `{}`; graphile's cron adds `_cron` to it, which handlers should not see. */
export const schedulePayload = (payload: unknown): unknown => {
  if (typeof payload !== "object" || payload === null || !("_cron" in payload)) return payload
  const { _cron: _, ...rest } = payload as Record<string, unknown>
  return rest
}

/** The reason a job was abandoned, in a sentence, from the cause of its last failure. */
export const giveUpReason = (cause: Cause.Cause<unknown>, attempts: number): string => {
  const error = Cause.squash(cause)
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof PermanentJobFailure) return message
  return `Failed ${attempts} time${attempts === 1 ? "" : "s"}: ${message}`
}

/** What a job that died with its worker (or its process) is given up with. */
export const lostReason = "The process running it stopped (killed, out of memory or crashed) on its last attempt"

/** Runs the definition's give-up hook, if any; its failure is logged and goes no further. */
export const giveUp = <R>(job: JobDefinition<R>, payload: unknown, reason: string): Effect.Effect<void, never, R> =>
  job.onGiveUp === undefined
    ? Effect.void
    : Effect.suspend(() => job.onGiveUp!(payload, reason)).pipe(
      Effect.catchCause((cause) => Effect.logError("Job give-up hook failed", cause)),
      Effect.annotateLogs({ job: job.name })
    )

/** How an attempt ended: done, to be run again, abandoned, or stopped with its process (it runs again at start). */
export type Outcome = "succeeded" | "retried" | "failed" | "interrupted"

/** The outcome of an attempt that ended with `exit`, the `attempt`th of `maxAttempts`. */
export const outcomeOf = (exit: Exit.Exit<unknown, unknown>, attempt: number, maxAttempts: number): Outcome =>
  Exit.isSuccess(exit)
    ? "succeeded"
    : Cause.hasInterruptsOnly(exit.cause)
    ? "interrupted"
    : isPermanent(exit.cause) || attempt >= maxAttempts
    ? "failed"
    : "retried"

const attempts = Metric.counter("quire_job_attempts_total", {
  description: "Job attempts by job and outcome (succeeded, retried, failed: given up, interrupted: stopped with the process)",
  incremental: true
})
const durations = Metric.histogram("quire_job_duration_seconds", {
  description: "Time of a job attempt, by job",
  boundaries: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300]
})

/**
 * One attempt of `name` as a span (`JobQueue.run`, with `attributes` and its `job.outcome`) and in
 * the attempts counter and duration histogram of the registry in context.
 */
export const observedAttempt = (name: string, attempt: number, maxAttempts: number, attributes: Record<string, unknown>) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Clock.currentTimeMillis, (start) =>
    Effect.onExit(effect, (exit) =>
      Effect.flatMap(Clock.currentTimeMillis, (end) => {
        const outcome = outcomeOf(exit, attempt, maxAttempts)
        return Effect.all([
          Effect.annotateCurrentSpan("job.outcome", outcome),
          Metric.update(Metric.withAttributes(attempts, { job: name, outcome }), 1),
          Metric.update(Metric.withAttributes(durations, { job: name }), (end - start) / 1000)
        ], { discard: true })
      }))).pipe(
    Effect.withSpan("JobQueue.run", { attributes: { "job.name": name, "job.attempt": attempt, ...attributes } })
  )
