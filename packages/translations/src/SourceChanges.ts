/**
 * Content's MainObservers over translations: when a source space's main moves, each of its
 * translations is marked `pending` and its run queued a few seconds later under one key per
 * translation, so a burst of edits makes one run.
 */
import { Clock, Config, Effect, Layer } from "effect"
import { MainObservers, type MainObserversShape, type Revision, type Space } from "@quire/content"
import { TranslationRuns } from "./TranslationRuns.ts"
import { TranslationsRepo } from "./TranslationsRepo.ts"

/** Delay between a source's change and its translations' run (`QUIRE_TRANSLATE_DEBOUNCE_MS`, default 3000). */
const debounceMillis = Config.Int("QUIRE_TRANSLATE_DEBOUNCE_MS").pipe(Config.withDefault(3000))

/** The observer, for a platform that composes several. */
export const make: Effect.Effect<MainObserversShape, never, TranslationsRepo | TranslationRuns> = Effect.gen(function*() {
    const repo = yield* TranslationsRepo
    const runs = yield* TranslationRuns
    const debounce = yield* Effect.orDie(debounceMillis)
    const mainMoved = (space: Space, _revision: Revision) =>
      Effect.gen(function*() {
        const translations = yield* repo.ofSource(space.id)
        if (translations.length === 0) return
        const at = new Date(yield* Clock.currentTimeMillis)
        for (const translation of translations) {
          yield* repo.update(translation.id, { status: "pending", failure: null, updatedAt: at })
          // Runs write the result space as the translation's actor, whoever edited the source.
          yield* runs.queue(translation.id, translation.actorId, debounce)
        }
      }).pipe(Effect.catchCause((cause) => Effect.logWarning(`Could not queue the translations of space ${space.id}`, cause)))
    return { mainMoved }
  })

export const layer = Layer.effect(MainObservers, make)
