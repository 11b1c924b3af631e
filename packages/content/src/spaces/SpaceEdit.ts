/**
 * What the space use cases (creation, listings, settings, the trash, moves) share: the ports,
 * the clock, the caller's resolver in an organization and the write of a space's record.
 */
import { AuditLog } from "@quire/audit"
import { Clock, Effect, Option } from "effect"
import { Errors, Ids, Transactor } from "@quire/kernel"
import { CollectionsRepo } from "../CollectionsRepo.ts"
import { ContentAccess } from "../ContentAccess.ts"
import { PermissionsRepo } from "../PermissionsRepo.ts"
import { RevisionsRepo } from "../RevisionsRepo.ts"
import { ImportRunsRepo } from "../ImportRunsRepo.ts"
import { SearchIndex } from "../SearchIndex.ts"
import { SpaceDependents } from "../SpaceDependents.ts"
import { type SpacePatch, SpacesRepo } from "../SpacesRepo.ts"
import { StorageUsageRepo } from "../StorageUsageRepo.ts"
import { EndPositions } from "../Placement.ts"
import { memberResolver } from "../Tree.ts"

/** Built once by the Spaces layer and handed to each group of use cases. */
export const make = Effect.gen(function*() {
  const repo = yield* SpacesRepo
  const collections = yield* CollectionsRepo
  const revisions = yield* RevisionsRepo
  const searchIndex = yield* SearchIndex
  const importRuns = yield* ImportRunsRepo
  const usage = yield* StorageUsageRepo
  const dependents = yield* SpaceDependents
  const grants = yield* PermissionsRepo
  const access = yield* ContentAccess
  const ids = yield* Ids.Ids
  const transactor = yield* Transactor.Transactor
  const audit = yield* AuditLog
  const endPosition = (yield* EndPositions).next
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  /** The caller's (or the member `userId`'s) resolver in the organization; NotFound when not a member. */
  const organization = (organizationId: string, userId?: string) => memberResolver(access, organizationId, userId)

  /** Writes the space's record and answers it as the caller sees it; NotFound when it is gone. */
  const updated = Effect.fnUntraced(function*(spaceId: string, patch: SpacePatch) {
    const space = yield* repo.update(spaceId, patch)
    if (Option.isNone(space)) return yield* new Errors.NotFound({ resource: "Space", id: spaceId })
    return yield* access.ofSpace(space.value)
  })

  return { audit, repo, collections, revisions, searchIndex, importRuns, usage, dependents, grants, access, ids, transactor, endPosition, now, organization, updated }
})

export type SpaceEdit = Effect.Success<typeof make>
