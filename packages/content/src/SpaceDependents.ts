/**
 * Port: what other packages keep about a space (change requests, comments, sites, Git sync).
 * Content removes a purged space's own rows and calls this port in the same transaction, so the
 * purge leaves nothing of the space behind; each package implements it over its own tables.
 */
import { Context, Effect, Layer } from "effect"

export interface SpaceDependentsShape {
  /** Removes everything the implementing packages keep about the space. */
  readonly removeSpace: (spaceId: string) => Effect.Effect<void>
}

export class SpaceDependents extends Context.Service<SpaceDependents, SpaceDependentsShape>()("@quire/content/SpaceDependents") {
  /** No other package keeps anything about spaces (content used on its own). */
  static readonly layerNone = Layer.succeed(SpaceDependents, SpaceDependents.of({ removeSpace: () => Effect.void }))

  /** Several packages' dependents, removed one after the other. */
  static readonly combine = (all: ReadonlyArray<SpaceDependentsShape>): SpaceDependentsShape => ({
    removeSpace: (spaceId) => Effect.forEach(all, (dependents) => dependents.removeSpace(spaceId), { discard: true })
  })
}
