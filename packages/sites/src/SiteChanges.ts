/**
 * A counter of this process's writes to sites: the reader's side keeps what it read of a site
 * until the counter moves (or a short time passes, for writes made by other processes). One
 * counter per process, whatever the store: a write elsewhere only costs another read.
 */
import { Effect } from "effect"

let counter = 0

/** Moves the counter. */
export const changed: Effect.Effect<void> = Effect.sync(() => void counter++)

export const generation: Effect.Effect<number> = Effect.sync(() => counter)

/** Moves the counter once `self` ends, however it ends (after its transaction commits). */
export const after = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => Effect.ensuring(self, changed)

let moves = 0

/**
 * Moves when a space's main content moves in this process (content's MainObservers, composed in
 * the platform): published sites built with the previous revisions are built again.
 */
export const mainMoved: Effect.Effect<void> = Effect.sync(() => void moves++)

/** The two counters at once, synchronously: what a cached page was built under. */
export const stamp = (): string => `${counter}:${moves}`
