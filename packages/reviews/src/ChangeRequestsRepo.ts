/** Port: change requests of spaces, with their numbers allocated per space. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { ChangeRequest, ChangeRequestLink, ChangeRequestStatus } from "./domain/ChangeRequest.ts"
import type { ConflictsFound, MergeConflict } from "./domain/MergeConflict.ts"

/** A change request before the repository numbers it (it starts without description, links, comments or conflicts). */
export type NewChangeRequest = Omit<ChangeRequest, "number" | "description" | "links" | "comments" | "conflicts" | "conflictsFound" | "mergedBy" | "mergedAt">

/** The conflicts a merge or an update found, and between which revisions. */
export interface FoundConflicts extends ConflictsFound {
  readonly conflicts: ReadonlyArray<MergeConflict>
}

export interface ChangeRequestQuery {
  readonly spaceId: string
  /** Any of these statuses; absent: every status. */
  readonly statuses?: ReadonlyArray<ChangeRequestStatus> | undefined
  /** Only those created by this user. */
  readonly creator?: string | undefined
  /** Only those this user edited. */
  readonly contributor?: string | undefined
  /** Only these change requests. */
  readonly ids?: ReadonlyArray<string> | undefined
}

/** A query over several spaces' change requests (an organization's), most recent first. */
export interface SpacesChangeRequestQuery {
  readonly spaceIds: ReadonlyArray<string>
  /** Any of these statuses. */
  readonly statuses: ReadonlyArray<ChangeRequestStatus>
  readonly creator?: string | undefined
  readonly contributor?: string | undefined
  /** Only these change requests. */
  readonly ids?: ReadonlyArray<string> | undefined
  /** Most recently updated (default) or created first. */
  readonly orderBy: "updatedAt" | "createdAt"
}

export type ChangeRequestPatch = Partial<{
  readonly subject: string
  readonly description: string | null
  readonly links: ReadonlyArray<ChangeRequestLink>
  readonly revisionMergedAncestor: string
  readonly revisionMerged: string | null
  readonly mergedBy: string
  readonly mergedAt: Date
  readonly updatedAt: Date
}>

export interface ChangeRequestsRepoShape {
  /** Stores a change request with the next number of its space (distinct under concurrency); answers it numbered. */
  readonly insert: (changeRequest: NewChangeRequest) => Effect.Effect<ChangeRequest>
  readonly find: (id: string) => Effect.Effect<Option.Option<ChangeRequest>>
  readonly findByNumber: (spaceId: string, number: number) => Effect.Effect<Option.Option<ChangeRequest>>
  /** The change request of the space whose merge wrote revision `revisionId` (its `revisionMerged`). */
  readonly findMergedInto: (spaceId: string, revisionId: string) => Effect.Effect<Option.Option<ChangeRequest>>
  /** Newest first (by number, descending), keyset-paginated on the number. */
  readonly list: (query: ChangeRequestQuery, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<ChangeRequest>>
  /** Keyset-paginated on (`orderBy`'s instant, id), newest first. */
  readonly listInSpaces: (query: SpacesChangeRequestQuery, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<ChangeRequest>>
  readonly update: (id: string, patch: ChangeRequestPatch) => Effect.Effect<Option.Option<ChangeRequest>>
  /** Moves the status only if it still is `expected`: none when it changed meanwhile (or the change request is gone). */
  readonly setStatus: (id: string, expected: ChangeRequestStatus, next: ChangeRequestStatus, at: Date) => Effect.Effect<Option.Option<ChangeRequest>>
  /** Points the change request at `next` only if it still points at `expected`: false when it moved on. */
  readonly setRevision: (id: string, expected: string, next: string, at: Date) => Effect.Effect<boolean>
  /** Records that the user edited the change request (once). */
  readonly addContributor: (id: string, userId: string) => Effect.Effect<void>
  /** Adds `delta` to the change request's count of open comments. */
  readonly addToComments: (id: string, delta: number) => Effect.Effect<void>
  /** Stores the conflicts a merge or an update found, or clears them (null); none when the change request is gone. */
  readonly setConflicts: (id: string, found: FoundConflicts | null) => Effect.Effect<Option.Option<ChangeRequest>>
  /** Removes every change request of the space, with its contributors and its numbering. */
  readonly removeForSpace: (spaceId: string) => Effect.Effect<void>
}

/** Sort key of listings. */
export const changeRequestKey = (changeRequest: ChangeRequest): Pagination.CursorKey => [changeRequest.number]
export const changeRequestKeyShape: Pagination.KeyShape = ["number"]

/** Sort key of listings over several spaces. */
export const spacesChangeRequestKey = (orderBy: SpacesChangeRequestQuery["orderBy"]) => (changeRequest: ChangeRequest): Pagination.CursorKey => [
  (orderBy === "createdAt" ? changeRequest.createdAt : changeRequest.updatedAt).toISOString(),
  changeRequest.id
]
export const spacesChangeRequestKeyShape: Pagination.KeyShape = ["timestamp", "string"]

const matchesInSpaces = (query: SpacesChangeRequestQuery) => {
  const spaces = new Set(query.spaceIds)
  const ids = query.ids === undefined ? undefined : new Set(query.ids)
  return (cr: ChangeRequest): boolean =>
    spaces.has(cr.spaceId) &&
    query.statuses.includes(cr.status) &&
    (ids === undefined || ids.has(cr.id)) &&
    (query.creator === undefined || cr.createdBy === query.creator) &&
    (query.contributor === undefined || cr.contributors.includes(query.contributor))
}

const matches = (query: ChangeRequestQuery) => (cr: ChangeRequest): boolean =>
  cr.spaceId === query.spaceId &&
  (query.statuses === undefined || query.statuses.includes(cr.status)) &&
  (query.ids === undefined || query.ids.includes(cr.id)) &&
  (query.creator === undefined || cr.createdBy === query.creator) &&
  (query.contributor === undefined || cr.contributors.includes(query.contributor))

export class ChangeRequestsRepo extends Context.Service<ChangeRequestsRepo, ChangeRequestsRepoShape>()(
  "@quire/reviews/ChangeRequestsRepo"
) {
  static readonly layerMemory = Layer.sync(ChangeRequestsRepo, () => {
    const rows = new MemoryStore.TxMap<string, ChangeRequest>()
    const numbers = new MemoryStore.TxMap<string, number>()
    const patch = (id: string, f: (cr: ChangeRequest) => ChangeRequest | undefined) => {
      const found = rows.get(id)
      if (found === undefined) return Option.none()
      const next = f(found)
      if (next === undefined) return Option.none()
      rows.set(id, next)
      return Option.some(next)
    }
    return ChangeRequestsRepo.of({
      insert: (input) =>
        Effect.sync(() => {
          const number = (numbers.get(input.spaceId) ?? 0) + 1
          numbers.set(input.spaceId, number)
          const stored: ChangeRequest = { ...input, number, description: null, links: [], comments: 0, conflicts: null, conflictsFound: null, mergedBy: null, mergedAt: null }
          rows.set(stored.id, stored)
          return stored
        }),
      find: (id) => Effect.sync(() => Option.fromNullishOr(rows.get(id))),
      findByNumber: (spaceId, number) =>
        Effect.sync(() => Option.fromNullishOr(Array.from(rows.values()).find((cr) => cr.spaceId === spaceId && cr.number === number))),
      findMergedInto: (spaceId, revisionId) =>
        Effect.sync(() => Option.fromNullishOr(Array.from(rows.values()).find((cr) => cr.spaceId === spaceId && cr.revisionMerged === revisionId))),
      list: (query, after, limit) =>
        Effect.suspend(() => Pagination.paginateArray(Array.from(rows.values()).filter(matches(query)), changeRequestKey, { order: "desc", after, limit })),
      listInSpaces: (query, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(Array.from(rows.values()).filter(matchesInSpaces(query)), spacesChangeRequestKey(query.orderBy), { order: "desc", after, limit })
        ),
      update: (id, changes) => Effect.sync(() => patch(id, (cr) => ({ ...cr, ...changes }))),
      setStatus: (id, expected, next, at) =>
        Effect.sync(() => patch(id, (cr) => (cr.status === expected ? { ...cr, status: next, updatedAt: at } : undefined))),
      setRevision: (id, expected, next, at) =>
        Effect.sync(() => Option.isSome(patch(id, (cr) => (cr.revision === expected ? { ...cr, revision: next, updatedAt: at } : undefined)))),
      addContributor: (id, userId) =>
        Effect.sync(() => void patch(id, (cr) => (cr.contributors.includes(userId) ? cr : { ...cr, contributors: [...cr.contributors, userId] }))),
      addToComments: (id, delta) => Effect.sync(() => void patch(id, (cr) => ({ ...cr, comments: Math.max(0, cr.comments + delta) }))),
      setConflicts: (id, found) =>
        Effect.sync(() =>
          patch(id, (cr) => ({
            ...cr,
            conflicts: found === null ? null : found.conflicts,
            conflictsFound: found === null ? null : { main: found.main, head: found.head }
          }))
        ),
      removeForSpace: (spaceId) =>
        Effect.sync(() => {
          for (const cr of Array.from(rows.values())) if (cr.spaceId === spaceId) rows.delete(cr.id)
          numbers.delete(spaceId)
        })
    })
  })
}
