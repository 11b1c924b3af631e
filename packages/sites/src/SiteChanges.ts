/**
 * Counters of changes to what published sites show: this process's writes to sites, main moves of
 * spaces here, and changes other processes announced. The reader's side keeps what it read of a
 * site until one moves (or a short time passes). One set per server (its layer), whatever the
 * store: a change elsewhere only costs another read.
 */
import { Context, Effect, Layer } from "effect"

export interface SiteChangesShape {
  /** Moves the counter of this process's writes to sites. */
  readonly changed: Effect.Effect<void>
  /** Moves with this process's writes and with other processes' (`remoteChanged`). */
  readonly generation: Effect.Effect<number>
  /** Moves the counter once `self` ends, however it ends (after its transaction commits). */
  readonly after: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Moves when a space's main content moves in this process (content's MainObservers, composed in
   * the platform): published sites built with the previous revisions are built again.
   */
  readonly mainMoved: Effect.Effect<void>
  /**
   * Moves when another process wrote to a site or moved a space's main (the server hears it over
   * PostgreSQL's LISTEN/NOTIFY): what this process kept of sites is read again.
   */
  readonly remoteChanged: Effect.Effect<void>
  /** This process's own changes, to tell other processes about (not moved by `remoteChanged`). */
  readonly localStamp: () => string
  /** Every counter at once, synchronously (Node's request event reads it): what a cached page was built under. */
  readonly stamp: () => string
}

/** The counters of one server. */
export class SiteChanges extends Context.Service<SiteChanges, SiteChangesShape>()("@quire/sites/SiteChanges") {
  static readonly layer = Layer.sync(SiteChanges, (): SiteChangesShape => {
    let counter = 0
    let moves = 0
    let remote = 0
    const changed = Effect.sync(() => void counter++)
    return {
      changed,
      generation: Effect.sync(() => counter + remote),
      after: (self) => Effect.ensuring(self, changed),
      mainMoved: Effect.sync(() => void moves++),
      remoteChanged: Effect.sync(() => void remote++),
      localStamp: () => `${counter}:${moves}`,
      stamp: () => `${counter}:${moves}:${remote}`
    }
  })
}
