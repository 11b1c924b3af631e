/** Content's SpaceDependents port over gitsync's table: a purged space leaves its Git sync record. */
import { Effect, Layer } from "effect"
import { SpaceDependents } from "@quire/content"
import { GitSyncRepo } from "./GitSyncRepo.ts"

export const layer = Layer.effect(
  SpaceDependents,
  Effect.map(Effect.service(GitSyncRepo), (repo) => SpaceDependents.of({ removeSpace: (spaceId) => repo.remove(spaceId) }))
)
