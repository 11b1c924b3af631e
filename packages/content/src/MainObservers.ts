/**
 * Port: packages that react when a space's main content moves (Git sync exports it), or when the
 * space itself changes (renamed, trashed, restored, moved, transferred: published sites show it
 * again). Called after the write's transaction committed; by default nobody observes.
 */
import { Context, Effect } from "effect"
import type { Revision } from "./domain/Revision.ts"
import type { Space } from "./domain/Space.ts"

export interface MainObserversShape {
  /** The space's main content now points at `revision` (any edit or merge); must not fail. */
  readonly mainMoved: (space: Space, revision: Revision) => Effect.Effect<void>
  /** The space's own record changed (title, trash, place, organization); must not fail. */
  readonly spaceChanged?: ((spaceId: string) => Effect.Effect<void>) | undefined
}

/** Read when the RevisionWriter is built; provide a layer of it to observe (default: nobody). */
export const MainObservers = Context.Reference<MainObserversShape>("@quire/content/MainObservers", {
  defaultValue: () => ({ mainMoved: () => Effect.void })
})
