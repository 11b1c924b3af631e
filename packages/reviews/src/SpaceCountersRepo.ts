/** Port: the reviews package's counters of each space (change requests by status, open comments). */
import { Context, Effect, Layer } from "effect"
import { MemoryStore } from "@quire/kernel"
import { addCounters, noCounters, type SpaceCounters } from "./domain/SpaceCounters.ts"

export interface SpaceCountersRepoShape {
  /** Adds `delta` to the space's counters (never below zero); a space without counters starts at zero. */
  readonly add: (spaceId: string, delta: Partial<SpaceCounters>) => Effect.Effect<void>
  /** The counters of each given space (zeros for a space nothing was counted in). */
  readonly forSpaces: (spaceIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, SpaceCounters>>
  readonly removeSpace: (spaceId: string) => Effect.Effect<void>
}

export class SpaceCountersRepo extends Context.Service<SpaceCountersRepo, SpaceCountersRepoShape>()("@quire/reviews/SpaceCountersRepo") {
  static readonly layerMemory = Layer.sync(SpaceCountersRepo, () => {
    const rows = new MemoryStore.TxMap<string, SpaceCounters>()
    return SpaceCountersRepo.of({
      add: (spaceId, delta) => Effect.sync(() => void rows.set(spaceId, addCounters(rows.get(spaceId) ?? noCounters, delta))),
      forSpaces: (spaceIds) => Effect.sync(() => new Map(spaceIds.map((id) => [id, rows.get(id) ?? noCounters]))),
      removeSpace: (spaceId) => Effect.sync(() => void rows.delete(spaceId))
    })
  })
}
