/** Port: spaces of organizations (including those in the trash). */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { DefaultLevel, EditMode, Language, MergeRules, Space, Visibility } from "./domain/Space.ts"

export type SpacePatch = Partial<{
  readonly title: string
  readonly emoji: string
  readonly visibility: Visibility
  readonly editMode: EditMode
  readonly defaultLevel: DefaultLevel
  readonly language: Language | null
  readonly mergeRules: MergeRules
  readonly parentId: string | null
  readonly organizationId: string
  readonly position: number
  readonly deletedAt: Date | null
  readonly updatedAt: Date
}>

export interface SpaceQuery {
  readonly organizationId: string
  /** Only spaces directly in this collection (`null`: at the organization's root); absent: all. */
  readonly parentId?: string | null | undefined
  /** Include spaces in the trash (default: no). */
  readonly includeDeleted?: boolean | undefined
  /** Direction of the listing on its sort key (default: ascending). */
  readonly order?: Pagination.Order | undefined
}

export interface SpacesRepoShape {
  readonly insert: (space: Space) => Effect.Effect<void>
  /** The space, in the trash or not. */
  readonly find: (spaceId: string) => Effect.Effect<Option.Option<Space>>
  /** Spaces ordered by (position, createdAt, id), ascending unless `query.order` says otherwise, keyset-paginated on that key. */
  readonly list: (query: SpaceQuery, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<Space>>
  readonly update: (spaceId: string, patch: SpacePatch) => Effect.Effect<Option.Option<Space>>
  /** Points the space at `next` only if it still points at `expected`: false when it moved on. */
  readonly setRevision: (spaceId: string, expected: string, next: string, at: Date) => Effect.Effect<boolean>
  /** Spaces deleted before `before`, for the purge job. */
  readonly listDeletedBefore: (before: Date, limit: number) => Effect.Effect<ReadonlyArray<Space>>
  /** Removes the space row for good (its revisions are removed by RevisionsRepo). */
  readonly remove: (spaceId: string) => Effect.Effect<void>
}

/** Sort key of space listings: their order among siblings, then creation, then id. */
export const spaceKey = (space: Space): Pagination.CursorKey => [space.position, space.createdAt.toISOString(), space.id]
export const spaceKeyShape: Pagination.KeyShape = ["number", "timestamp", "string"]

const matches = (query: SpaceQuery) => (space: Space): boolean =>
  space.organizationId === query.organizationId &&
  (query.parentId === undefined || space.parentId === query.parentId) &&
  (query.includeDeleted === true || space.deletedAt === null)

export class SpacesRepo extends Context.Service<SpacesRepo, SpacesRepoShape>()("@quire/content/SpacesRepo") {
  static readonly layerMemory = Layer.sync(SpacesRepo, () => {
    const spaces = new MemoryStore.TxMap<string, Space>()
    return SpacesRepo.of({
      insert: (space) => Effect.sync(() => void spaces.set(space.id, space)),
      find: (spaceId) => Effect.sync(() => Option.fromNullishOr(spaces.get(spaceId))),
      list: (query, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(Array.from(spaces.values()).filter(matches(query)), spaceKey, {
            order: query.order ?? "asc",
            after,
            limit
          })
        ),
      update: (spaceId, patch) =>
        Effect.sync(() => {
          const found = spaces.get(spaceId)
          if (found === undefined) return Option.none()
          const next: Space = { ...found, ...patch }
          spaces.set(spaceId, next)
          return Option.some(next)
        }),
      setRevision: (spaceId, expected, next, at) =>
        Effect.sync(() => {
          const found = spaces.get(spaceId)
          if (found === undefined || found.revisionId !== expected) return false
          spaces.set(spaceId, { ...found, revisionId: next, updatedAt: at })
          return true
        }),
      listDeletedBefore: (before, limit) =>
        Effect.sync(() =>
          Array.from(spaces.values())
            .filter((space) => space.deletedAt !== null && space.deletedAt < before)
            .toSorted((a, b) => Pagination.compareKeys([a.deletedAt!.toISOString(), a.id], [b.deletedAt!.toISOString(), b.id]))
            .slice(0, limit)
        ),
      remove: (spaceId) => Effect.sync(() => void spaces.delete(spaceId))
    })
  })
}
