/**
 * Keeps a published site's events in memory and writes them in batches, off the request path:
 * `record` only appends to a bounded buffer; a fiber writes the buffer when it holds `batchSize`
 * events or every `interval`, and the layer's scope writes what is left when it closes (shutdown).
 * A full buffer drops new events (counted) rather than slow a page.
 */
import { Context, Duration, Effect, Latch, Layer } from "effect"
import type { SiteEvent } from "../domain/SiteEvent.ts"
import { SiteEventsRepo } from "./SiteEventsRepo.ts"

export interface SiteEventRecorderOptions {
  /** Events written per batch; a buffer this full is written at once. */
  readonly batchSize: number
  /** The longest an event waits in the buffer. */
  readonly interval: Duration.Input
  /** Events kept at most while the database is slow or away; beyond, new events are dropped. */
  readonly capacity: number
}

export const defaultOptions: SiteEventRecorderOptions = { batchSize: 500, interval: "2 seconds", capacity: 50_000 }

export interface SiteEventRecorderShape {
  /** Queues events; never waits on the database. */
  readonly record: (events: ReadonlyArray<SiteEvent>) => Effect.Effect<void>
  /** Writes every queued event now (tests, and the layer's finalizer). */
  readonly flush: Effect.Effect<void>
  /** Events queued and not written yet, and events dropped for want of room. */
  readonly stats: Effect.Effect<{ readonly pending: number; readonly dropped: number }>
}

export class SiteEventRecorder extends Context.Service<SiteEventRecorder, SiteEventRecorderShape>()("@quire/sites/SiteEventRecorder") {
  static readonly make = (options: SiteEventRecorderOptions = defaultOptions) =>
    Layer.effect(
      SiteEventRecorder,
      Effect.gen(function*() {
        const repo = yield* SiteEventsRepo
        let pending: Array<SiteEvent> = []
        let dropped = 0
        const wake = yield* Latch.make(false)
        const full = yield* Latch.make(false)

        const writeOnce = Effect.suspend(() => {
          if (pending.length === 0) return Effect.void
          const batch = pending.slice(0, options.batchSize)
          pending = pending.slice(batch.length)
          return repo.append(batch).pipe(
            Effect.catchCause((cause) => Effect.logWarning(`Site events could not be written (${batch.length} lost)`, cause))
          )
        })
        const flush = Effect.suspend(function loop(): Effect.Effect<void> {
          return pending.length === 0 ? Effect.void : Effect.andThen(writeOnce, Effect.suspend(loop))
        })

        // Sleeps until there is something to write, then until the batch is full or the interval ends.
        yield* Effect.forkScoped(Effect.forever(
          wake.await.pipe(
            Effect.andThen(Effect.raceFirst(Effect.sleep(options.interval), full.await)),
            Effect.andThen(Effect.suspend(() => Effect.all([wake.close, full.close]))),
            Effect.andThen(flush)
          )
        ))
        yield* Effect.addFinalizer(() => flush)

        return SiteEventRecorder.of({
          record: (events) =>
            Effect.sync(() => {
              const room = Math.max(0, options.capacity - pending.length)
              if (events.length > room) dropped += events.length - room
              for (let i = 0; i < Math.min(room, events.length); i++) pending.push(events[i]!)
              if (pending.length > 0) wake.openUnsafe()
              if (pending.length >= options.batchSize) full.openUnsafe()
            }),
          flush,
          stats: Effect.sync(() => ({ pending: pending.length, dropped }))
        })
      })
    )

  /** The recorder with the default batch size, interval and capacity. */
  static readonly layer = SiteEventRecorder.make()
}
