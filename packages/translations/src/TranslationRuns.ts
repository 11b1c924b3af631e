/**
 * How the use cases queue a translation's run: on the JobQueue its layer requires, under one job
 * key per translation, so a newer run replaces a pending one.
 */
import { Clock, Context, Effect, Layer, Schema } from "effect"
import { JobQueue } from "@quire/queue"

/** The task name of a translation's run on the durable queue. */
export const runTask = "translations.run"

/** The payload of a run: the translation, and who it runs as. */
export const RunJob = Schema.Struct({ translationId: Schema.String, actorId: Schema.String })
export type RunJob = typeof RunJob.Type

export interface TranslationRunsShape {
  /** Queues a run of the translation as `actorId`, in `delayMillis` (default now); a pending one is replaced. */
  readonly queue: (translationId: string, actorId: string, delayMillis?: number) => Effect.Effect<void>
}

export class TranslationRuns extends Context.Service<TranslationRuns, TranslationRunsShape>()("@quire/translations/TranslationRuns") {
  /** Needs a JobQueue. */
  static readonly layer = Layer.effect(TranslationRuns, Effect.gen(function*() {
    const queue = yield* JobQueue
    return TranslationRuns.of({
      queue: (translationId, actorId, delayMillis = 0) =>
        Effect.flatMap(Clock.currentTimeMillis, (at) =>
          queue.enqueue(runTask, { translationId, actorId } satisfies RunJob, {
            jobKey: `${runTask}:${translationId}`,
            runAt: new Date(at + delayMillis)
          }))
    })
  }))
}
