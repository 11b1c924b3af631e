/** What the reviews package shows on a space: its counters of change requests and open comments. */
import { Context, Effect, Layer } from "effect"
import type { SpaceCounters } from "./domain/SpaceCounters.ts"
import { SpaceCountersRepo } from "./SpaceCountersRepo.ts"

export class SpaceActivity extends Context.Service<SpaceActivity, {
  /** The counters of each given space (callers present only spaces the caller may view). */
  readonly counters: (spaceIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, SpaceCounters>>
}>()("@quire/reviews/SpaceActivity") {
  static readonly layer = Layer.effect(
    SpaceActivity,
    Effect.map(Effect.service(SpaceCountersRepo), (repo) => SpaceActivity.of({ counters: repo.forSpaces }))
  )
}
