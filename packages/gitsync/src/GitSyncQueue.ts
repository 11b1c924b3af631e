/**
 * How Git sync reaches the job queue. The queue is built after the use cases (the in-process queue
 * runs jobs with them), so the use cases hold this handle, which the platform binds to the queue
 * once it exists (`layerBind`). Unbound, it uses the JobQueue of the calling fiber, if any.
 */
import { Context, Effect, Layer, Option } from "effect"
import { type EnqueueOptions, JobQueue } from "@quire/queue"

export interface GitSyncQueueShape {
  /** Enqueues on the bound queue (or the caller's); dies when there is none. */
  readonly enqueue: (task: string, payload: unknown, options?: EnqueueOptions) => Effect.Effect<void>
  /** Whether a queue is reachable from here (automatic exports are skipped, with a warning, where none is). */
  readonly available: Effect.Effect<boolean>
  readonly bindTo: (queue: JobQueue["Service"]) => Effect.Effect<void>
}

export class GitSyncQueue extends Context.Service<GitSyncQueue, GitSyncQueueShape>()("@quire/gitsync/GitSyncQueue") {
  static readonly layer = Layer.sync(GitSyncQueue, () => {
    let bound: JobQueue["Service"] | undefined
    const current = Effect.map(Effect.serviceOption(JobQueue), (caller) => bound ?? Option.getOrUndefined(caller))
    return GitSyncQueue.of({
      enqueue: (task, payload, options) =>
        Effect.flatMap(current, (queue) =>
          queue === undefined
            ? Effect.die(new Error(`Git sync cannot queue ${task}: no job queue is bound (GitSyncQueue.layerBind)`))
            : queue.enqueue(task, payload, options)),
      available: Effect.map(current, (queue) => queue !== undefined),
      bindTo: (queue) => Effect.sync(() => void (bound = queue))
    })
  })

  /** Binds the handle to the JobQueue of this layer's context (after the queue is built). */
  static readonly layerBind: Layer.Layer<never, never, GitSyncQueue | JobQueue> = Layer.effectDiscard(
    Effect.gen(function*() {
      const handle = yield* GitSyncQueue
      yield* handle.bindTo(yield* JobQueue)
    })
  )
}
