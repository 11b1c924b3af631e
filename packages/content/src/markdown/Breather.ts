/** Long parsing runs give the event loop back now and then, so that other requests are answered meanwhile. */
import { Effect } from "effect"

/** Milliseconds of work after which a breather gives the event loop back. */
export const sliceMillis = 20

/**
 * An effect that gives the event loop back (a macrotask) when more than `sliceMillis` passed since
 * it last did, and does nothing otherwise: yield it between pieces of a long synchronous run.
 */
export const breather = (): Effect.Effect<void> => {
  let since = performance.now()
  return Effect.suspend(() => {
    if (performance.now() - since < sliceMillis) return Effect.void
    return Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve))).pipe(
      Effect.tap(() => Effect.sync(() => { since = performance.now() }))
    )
  })
}
