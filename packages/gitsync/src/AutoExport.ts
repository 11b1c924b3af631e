/**
 * Content's MainObservers over Git sync: when main moves in a connected space, an export is queued
 * a few seconds later under one key per space, so a burst of edits makes one export. Revisions that
 * came from Git (`git.createdByService`) are never exported back.
 */
import { Clock, Effect, Layer, Option } from "effect"
import { MainObservers, type Revision, type Space } from "@quire/content"
import { Actor } from "@quire/kernel"
import { JobQueue } from "@quire/queue"
import { debounceKey } from "./GitSync.ts"
import { GitSyncRepo } from "./GitSyncRepo.ts"
import { debounceMillis } from "./sync/SyncDeps.ts"
import { type ExportJob, exportTask } from "./SyncJobs.ts"

export const layerWith = (options: { readonly debounceMillis?: number } = {}) =>
  Layer.effect(
    MainObservers,
    Effect.gen(function*() {
      const repo = yield* GitSyncRepo
      const queue = yield* JobQueue
      const debounce = yield* debounceMillis(options.debounceMillis)
      const mainMoved = (space: Space, revision: Revision) =>
        Effect.gen(function*() {
          if (revision.git?.createdByService === true) return
          const found = yield* repo.find(space.id)
          if (Option.isNone(found) || !found.value.connected) return
          const record = found.value
          const actor = yield* Effect.serviceOption(Actor.Actor)
          const at = yield* Clock.currentTimeMillis
          const job: ExportJob = {
            spaceId: space.id,
            actorId: Option.match(actor, { onNone: () => record.actorId ?? "", onSome: (a) => a.userId }),
            url: null,
            ref: record.ref,
            projectDirectory: record.projectDirectory,
            commitMessage: `Update from Quire (revision ${revision.id})`,
            force: false,
            timestamp: revision.createdAt.toISOString(),
            trigger: "auto"
          }
          yield* repo.updateRun(space.id, { kind: "export", run: { status: "pending", commit: null, at: new Date(at), error: null } })
          yield* queue.enqueue(exportTask, job, { jobKey: debounceKey(exportTask, space.id), runAt: new Date(at + debounce) })
        }).pipe(
          Effect.catchCause((cause) => Effect.logWarning(`Could not queue the Git export of space ${space.id}`, cause))
        )
      return { mainMoved }
    })
  )

export const layer = layerWith()
