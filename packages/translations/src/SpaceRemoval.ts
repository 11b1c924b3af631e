/** Content's SpaceDependents port over the translations table: a purged space's translations (as source or result) go with it. */
import { Effect, Layer } from "effect"
import { SpaceDependents } from "@quire/content"
import { TranslationsRepo } from "./TranslationsRepo.ts"

export const layer = Layer.effect(
  SpaceDependents,
  Effect.gen(function*() {
    const repo = yield* TranslationsRepo
    return SpaceDependents.of({
      removeSpace: (spaceId) =>
        Effect.gen(function*() {
          const found = [...(yield* repo.ofSource(spaceId)), ...(yield* repo.ofResult(spaceId))]
          yield* Effect.forEach(found, (translation) => repo.remove(translation.id), { discard: true })
        })
    })
  })
)
