/**
 * Counters of changes to what published sites show: this process's writes to sites, main moves of
 * spaces here, and changes other processes announced. The reader's side keeps what it read of a
 * site until one moves (or a short time passes). One set per process, whatever the store: a
 * change elsewhere only costs another read.
 */
import { Effect } from "effect"

let counter = 0

/** Moves the counter. */
export const changed: Effect.Effect<void> = Effect.sync(() => void counter++)

/** Moves with this process's writes and with other processes' (`remoteChanged`). */
export const generation: Effect.Effect<number> = Effect.sync(() => counter + remote)

/** Moves the counter once `self` ends, however it ends (after its transaction commits). */
export const after = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => Effect.ensuring(self, changed)

let moves = 0

/**
 * Moves when a space's main content moves in this process (content's MainObservers, composed in
 * the platform): published sites built with the previous revisions are built again.
 */
export const mainMoved: Effect.Effect<void> = Effect.sync(() => void moves++)

let remote = 0

/**
 * Moves when another process wrote to a site or moved a space's main (the server hears it over
 * PostgreSQL's LISTEN/NOTIFY): what this process kept of sites is read again.
 */
export const remoteChanged: Effect.Effect<void> = Effect.sync(() => void remote++)

/** This process's own changes, to tell other processes about (not moved by `remoteChanged`). */
export const localStamp = (): string => `${counter}:${moves}`

/** Every counter at once, synchronously: what a cached page was built under. */
export const stamp = (): string => `${counter}:${moves}:${remote}`
