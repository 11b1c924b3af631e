/**
 * Port: packages that react when a space's main content moves (Git sync exports it), or when the
 * space itself changes (renamed, trashed, restored, moved, transferred: published sites show it
 * again). Called after the write's transaction committed. Required: a composition says who
 * observes (platform: published sites, Git sync, translations), or `MainObservers.layerNone`.
 */
import { Context, Effect, Layer } from "effect"
import type { Revision } from "./domain/Revision.ts"
import type { Space } from "./domain/Space.ts"

export interface MainObserversShape {
  /** The space's main content now points at `revision` (any edit or merge); must not fail. */
  readonly mainMoved: (space: Space, revision: Revision) => Effect.Effect<void>
  /** The space's own record changed (title, trash, place, organization); must not fail. */
  readonly spaceChanged?: ((spaceId: string) => Effect.Effect<void>) | undefined
}

/** Read when the RevisionWriter and Spaces are built. */
export class MainObservers extends Context.Service<MainObservers, MainObserversShape>()("@quire/content/MainObservers") {
  /** Nobody observes: for a composition of content alone (its own tests). */
  static readonly layerNone = Layer.succeed(MainObservers, MainObservers.of({ mainMoved: () => Effect.void }))
}
