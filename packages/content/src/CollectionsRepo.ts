/** Port: collections (nested folders of spaces) of organizations. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { Collection, DefaultLevel } from "./domain/Space.ts"

export type CollectionPatch = Partial<{
  readonly title: string
  readonly description: string | null
  readonly defaultLevel: DefaultLevel
  readonly parentId: string | null
  readonly organizationId: string
  readonly position: number
  readonly updatedAt: Date
}>

export interface CollectionsRepoShape {
  readonly insert: (collection: Collection) => Effect.Effect<void>
  readonly find: (collectionId: string) => Effect.Effect<Option.Option<Collection>>
  /** The collection and its ancestors, nearest first (empty when it does not exist). */
  readonly ancestry: (collectionId: string) => Effect.Effect<ReadonlyArray<Collection>>
  /** Collections ordered by (position, createdAt, id); `parentId` absent lists all nesting levels. */
  readonly list: (
    query: { readonly organizationId: string; readonly parentId?: string | null | undefined },
    after: Pagination.CursorKey | undefined,
    limit: number
  ) => Effect.Effect<Pagination.Page<Collection>>
  readonly update: (collectionId: string, patch: CollectionPatch) => Effect.Effect<Option.Option<Collection>>
  readonly remove: (collectionId: string) => Effect.Effect<void>
}

/** Sort key of collection listings: their order among siblings, then creation, then id. */
export const collectionKey = (collection: Collection): Pagination.CursorKey => [
  collection.position,
  collection.createdAt.toISOString(),
  collection.id
]
export const collectionKeyShape: Pagination.KeyShape = ["number", "timestamp", "string"]

export class CollectionsRepo extends Context.Service<CollectionsRepo, CollectionsRepoShape>()("@quire/content/CollectionsRepo") {
  static readonly layerMemory = Layer.sync(CollectionsRepo, () => {
    const collections = new MemoryStore.TxMap<string, Collection>()
    return CollectionsRepo.of({
      insert: (collection) => Effect.sync(() => void collections.set(collection.id, collection)),
      find: (collectionId) => Effect.sync(() => Option.fromNullishOr(collections.get(collectionId))),
      ancestry: (collectionId) =>
        Effect.sync(() => {
          const chain: Array<Collection> = []
          let current = collections.get(collectionId)
          // The use cases never create a cycle; the bound only keeps a corrupted store from hanging.
          while (current !== undefined && chain.length < 1000 && !chain.includes(current)) {
            chain.push(current)
            current = current.parentId === null ? undefined : collections.get(current.parentId)
          }
          return chain
        }),
      list: (query, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(
            Array.from(collections.values()).filter((c) =>
              c.organizationId === query.organizationId && (query.parentId === undefined || c.parentId === query.parentId)
            ),
            collectionKey,
            { order: "asc", after, limit }
          )
        ),
      update: (collectionId, patch) =>
        Effect.sync(() => {
          const found = collections.get(collectionId)
          if (found === undefined) return Option.none()
          const next: Collection = { ...found, ...patch }
          collections.set(collectionId, next)
          return Option.some(next)
        }),
      remove: (collectionId) => Effect.sync(() => void collections.delete(collectionId))
    })
  })
}
