/**
 * What the use cases on a space's content (reading, changes, files, imports) share: the ports,
 * the clock, the options, and a space's current revision or any stored one.
 */
import { Clock, Effect, Option } from "effect"
import { OutboundFetch } from "@quire/outbound"
import { Errors, Ids } from "@quire/kernel"
import { BlobStore } from "../BlobStore.ts"
import { ContentAccess } from "../ContentAccess.ts"
import type { Revision } from "../domain/Revision.ts"
import type { Space } from "../domain/Space.ts"
import { RevisionsRepo } from "../RevisionsRepo.ts"
import { RevisionWriter } from "../RevisionWriter.ts"
import type { SpaceContentOptions } from "./SpaceContentTypes.ts"
import { SpacesRepo } from "../SpacesRepo.ts"
import { OrganizationStorageBytes, StorageUsageRepo } from "../StorageUsageRepo.ts"

/** Built once by the SpaceContent layer and handed to each group of use cases. */
export const make = (options: SpaceContentOptions) =>
  Effect.gen(function*() {
    const access = yield* ContentAccess
    const spaces = yield* SpacesRepo
    const revisions = yield* RevisionsRepo
    const writer = yield* RevisionWriter
    const blobs = yield* BlobStore
    const fetcher = yield* OutboundFetch
    const usage = yield* StorageUsageRepo
    const quota = options.storageQuota ?? (yield* Effect.orDie(OrganizationStorageBytes))
    const ids = yield* Ids.Ids
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const currentOf = (space: Space): Effect.Effect<Revision> =>
      Effect.flatMap(revisions.find(space.revisionId), Option.match({
        onNone: () => Effect.die(new Error(`Space ${space.id} points at a missing revision ${space.revisionId}`)),
        onSome: Effect.succeed
      }))

    /** The space as the caller may see it, with its current revision. */
    const current = Effect.fnUntraced(function*(spaceId: string) {
      const spaceAccess = yield* access.space(spaceId)
      return { access: spaceAccess, revision: yield* currentOf(spaceAccess.space) }
    })

    const revisionById = Effect.fn("SpaceContent.revisionById")(function*(revisionId: string) {
      const found = yield* revisions.find(revisionId)
      if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Revision", id: revisionId })
      return found.value
    })

    return { options, access, spaces, revisions, writer, blobs, fetcher, usage, quota, ids, now, current, revisionById }
  })

export type ContentEdit = Effect.Success<ReturnType<typeof make>>
