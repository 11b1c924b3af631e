/**
 * What the collection use cases share: the ports, the clock, the caller's resolver in an
 * organization, the write of a collection's record and what a collection directly contains.
 */
import { Clock, Effect, Option } from "effect"
import { Errors, Ids, Transactor } from "@quire/kernel"
import { collectionKey, type CollectionPatch, CollectionsRepo } from "../CollectionsRepo.ts"
import { ContentAccess } from "../ContentAccess.ts"
import type { Collection } from "../domain/Space.ts"
import { PermissionsRepo } from "../PermissionsRepo.ts"
import { EndPositions } from "../Placement.ts"
import { spaceKey, SpacesRepo } from "../SpacesRepo.ts"
import { StorageUsageRepo } from "../StorageUsageRepo.ts"
import { allPages, memberResolver } from "../Tree.ts"

/** Built once by the Collections layer and handed to each group of use cases. */
export const make = Effect.gen(function*() {
  const repo = yield* CollectionsRepo
  const spaces = yield* SpacesRepo
  const usage = yield* StorageUsageRepo
  const grants = yield* PermissionsRepo
  const access = yield* ContentAccess
  const ids = yield* Ids.Ids
  const transactor = yield* Transactor.Transactor
  const endPosition = (yield* EndPositions).next
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  /** The caller's resolver in the organization; NotFound when not a member. */
  const organization = (organizationId: string) => memberResolver(access, organizationId)

  /** Writes the collection's record and answers it as the caller sees it; NotFound when it is gone. */
  const updated = Effect.fnUntraced(function*(collectionId: string, patch: CollectionPatch) {
    const collection = yield* repo.update(collectionId, patch)
    if (Option.isNone(collection)) return yield* new Errors.NotFound({ resource: "Collection", id: collectionId })
    return yield* access.ofCollection(collection.value)
  })

  /** The spaces directly in a collection, those in the trash included. */
  const spacesIn = (collection: Collection) =>
    allPages(
      (after, limit) =>
        spaces.list({ organizationId: collection.organizationId, parentId: collection.id, includeDeleted: true }, after, limit),
      spaceKey
    )

  /** The collections directly in a collection. */
  const childrenOf = (collection: Collection) =>
    allPages(
      (after, limit) => repo.list({ organizationId: collection.organizationId, parentId: collection.id }, after, limit),
      collectionKey
    )

  return { repo, spaces, usage, grants, access, ids, transactor, endPosition, now, organization, updated, spacesIn, childrenOf }
})

export type CollectionEdit = Effect.Success<typeof make>
