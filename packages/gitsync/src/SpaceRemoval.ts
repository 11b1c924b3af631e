/** Content's SpaceDependents port over gitsync's tables: a purged space leaves its Git sync record and its imported layout. */
import { Effect, Layer } from "effect"
import { SpaceDependents } from "@quire/content"
import { GitSyncRepo } from "./GitSyncRepo.ts"
import { ImportedLayoutRepo } from "./ImportedLayoutRepo.ts"

export const layer = Layer.effect(
  SpaceDependents,
  Effect.gen(function*() {
    const repo = yield* GitSyncRepo
    const layouts = yield* ImportedLayoutRepo
    return SpaceDependents.of({ removeSpace: (spaceId) => Effect.andThen(repo.remove(spaceId), layouts.remove(spaceId)) })
  })
)
