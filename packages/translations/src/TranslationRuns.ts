/**
 * How the use cases queue a translation's run. The queue is built after the use cases, so they
 * hold this handle, which the platform binds to the queue once it exists (`layerBind`), as Git
 * sync's does. Unbound and without a queue in the caller's context, a run is not queued and the
 * translation stays `pending`.
 */
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { JobQueue } from "@quire/queue"

/** The task name of a translation's run on the durable queue. */
export const runTask = "translations.run"

/** The payload of a run: the translation, and who it runs as. */
export const RunJob = Schema.Struct({ translationId: Schema.String, actorId: Schema.String })
export type RunJob = typeof RunJob.Type

export interface TranslationRunsShape {
  /** Queues a run of the translation as `actorId`, in `delayMillis` (default now); a pending one is replaced. */
  readonly queue: (translationId: string, actorId: string, delayMillis?: number) => Effect.Effect<void>
  readonly bindTo: (queue: JobQueue["Service"]) => Effect.Effect<void>
}

export class TranslationRuns extends Context.Service<TranslationRuns, TranslationRunsShape>()("@quire/translations/TranslationRuns") {
  static readonly layer = Layer.sync(TranslationRuns, () => {
    let bound: JobQueue["Service"] | undefined
    const current = Effect.map(Effect.serviceOption(JobQueue), (caller) => bound ?? Option.getOrUndefined(caller))
    return TranslationRuns.of({
      queue: (translationId, actorId, delayMillis = 0) =>
        Effect.flatMap(current, (queue) =>
          queue === undefined
            ? Effect.logWarning(`translation ${translationId}: no job queue is bound, its run is not queued`)
            : Effect.flatMap(Clock.currentTimeMillis, (at) =>
              queue.enqueue(runTask, { translationId, actorId } satisfies RunJob, {
                jobKey: `${runTask}:${translationId}`,
                runAt: new Date(at + delayMillis)
              }))),
      bindTo: (queue) => Effect.sync(() => void (bound = queue))
    })
  })

  /** Binds the handle to the JobQueue of this layer's context (after the queue is built). */
  static readonly layerBind: Layer.Layer<never, never, TranslationRuns | JobQueue> = Layer.effectDiscard(
    Effect.gen(function*() {
      const handle = yield* TranslationRuns
      yield* handle.bindTo(yield* JobQueue)
    })
  )
}
