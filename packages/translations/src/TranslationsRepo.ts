/** Port: translations, with their run state and the hashes of the pages their last run translated. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { Translation } from "./domain/Translation.ts"

export type TranslationPatch = Partial<Omit<Translation, "id" | "organizationId" | "createdAt">>

export interface TranslationsRepoShape {
  readonly insert: (translation: Translation) => Effect.Effect<void>
  readonly find: (translationId: string) => Effect.Effect<Option.Option<Translation>>
  /** The organization's translations ordered by (createdAt, id). */
  readonly list: (organizationId: string, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<Translation>>
  /** Translations whose source is this space. */
  readonly ofSource: (spaceId: string) => Effect.Effect<ReadonlyArray<Translation>>
  /** Translations whose result is this space. */
  readonly ofResult: (spaceId: string) => Effect.Effect<ReadonlyArray<Translation>>
  readonly update: (translationId: string, patch: TranslationPatch) => Effect.Effect<Option.Option<Translation>>
  readonly remove: (translationId: string) => Effect.Effect<void>
}

export const translationKey = (t: Translation): Pagination.CursorKey => [t.createdAt.toISOString(), t.id]
export const translationKeyShape: Pagination.KeyShape = ["timestamp", "string"]

export class TranslationsRepo extends Context.Service<TranslationsRepo, TranslationsRepoShape>()("@quire/translations/TranslationsRepo") {
  static readonly layerMemory = Layer.sync(TranslationsRepo, () => {
    const rows = new MemoryStore.TxMap<string, Translation>()
    return TranslationsRepo.of({
      insert: (translation) => Effect.sync(() => void rows.set(translation.id, translation)),
      find: (translationId) => Effect.sync(() => Option.fromNullishOr(rows.get(translationId))),
      list: (organizationId, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(
            Array.from(rows.values()).filter((t) => t.organizationId === organizationId),
            translationKey,
            { order: "asc", after, limit }
          )
        ),
      ofSource: (spaceId) => Effect.sync(() => Array.from(rows.values()).filter((t) => t.sourceSpaceId === spaceId)),
      ofResult: (spaceId) => Effect.sync(() => Array.from(rows.values()).filter((t) => t.resultSpaceId === spaceId)),
      update: (translationId, patch) =>
        Effect.sync(() => {
          const found = rows.get(translationId)
          if (found === undefined) return Option.none()
          const next: Translation = { ...found, ...patch }
          rows.set(translationId, next)
          return Option.some(next)
        }),
      remove: (translationId) => Effect.sync(() => void rows.delete(translationId))
    })
  })
}
