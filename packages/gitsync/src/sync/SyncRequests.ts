/**
 * Imports and exports asked through the API: the repository of the request worked out (stored
 * credentials serve only the stored branch), the pending run recorded, the job queued.
 */
import { Effect, Option } from "effect"
import { Access } from "@quire/content"
import { Actor, Errors, Redact } from "@quire/kernel"
import type { ExportInput, ImportInput, SyncRun } from "../domain/GitSyncInfo.ts"
import { type ExportJob, exportTask, type ImportJob, importTask } from "../SyncJobs.ts"
import type { SyncDeps } from "./SyncDeps.ts"
import { checkRef, checkUrl, debounceKey, fresh, projectDirectoryOf } from "./SyncRecords.ts"

export const syncRequests = (deps: SyncDeps) => {
  const { access, repo, box, queue, transactor, now } = deps

  /** The space, for a caller who may trigger Git sync on it (`admin` or `triggerGitSync`). */
  const mayTrigger = Effect.fnUntraced(function*(spaceId: string) {
    const spaceAccess = yield* access.space(spaceId)
    yield* Access.ensure(spaceAccess.permissions.admin || spaceAccess.permissions.triggerGitSync, "sync this space with Git")
    return spaceAccess
  })

  /**
   * Records a request's pending run, in one transaction. An admin's request (or the first one of
   * a space) also records its repository, replacing the URL, ref and directory; another
   * caller's leaves the space's repository as it is (changing it is an admin's decision).
   */
  const recordRequest = (
    spaceId: string,
    settings: { readonly url: string; readonly urlSealed: string; readonly ref: string; readonly projectDirectory: string },
    kind: "import" | "export",
    at: Date,
    admin: boolean
  ) =>
    transactor.transaction(Effect.gen(function*() {
      const found = yield* repo.find(spaceId)
      const record = Option.getOrElse(found, () => fresh(spaceId, at))
      const pending: SyncRun = { status: "pending", commit: null, at, error: null }
      const keepsRepository = !admin && record.urlSealed !== ""
      yield* repo.save({
        ...record,
        ...(keepsRepository ? {} : settings),
        ...(kind === "import" ? { lastImport: pending } : { lastExport: pending }),
        updatedAt: at
      })
    }))

  /**
   * The repository of a request. The stored URL as shown (no credentials) names the stored one,
   * credentials included, but only for the stored branch: the stored credentials never serve
   * another ref (a request for one must bring its own), and `force` is an admin's.
   */
  const requestSettings = Effect.fnUntraced(function*(spaceId: string, input: ImportInput | ExportInput, admin: boolean) {
    yield* checkUrl(input.url)
    yield* checkRef(input.ref)
    const projectDirectory = yield* projectDirectoryOf(input.repoProjectDirectory)
    if (input.force === true && !admin) {
      return yield* new Errors.Forbidden({ reason: "force: only an admin of the space may force a Git sync" })
    }
    const url = Redact.withoutCredentials(input.url)
    const found = yield* repo.find(spaceId)
    const stored = Option.isSome(found) && found.value.url === url && url === input.url && found.value.urlSealed !== ""
      ? found.value
      : undefined
    if (stored === undefined) return { url, urlSealed: box.seal(input.url), ref: input.ref, projectDirectory }
    if (stored.ref === input.ref) return { url, urlSealed: stored.urlSealed, ref: input.ref, projectDirectory }
    const storedUrl = box.open(stored.urlSealed)
    if (Option.isSome(storedUrl) && storedUrl.value !== url) {
      return yield* new Errors.Forbidden({
        reason: `ref: the stored credentials of ${url} serve only its branch ${stored.ref}; give credentials in url to use ${input.ref}`
      })
    }
    return { url, urlSealed: box.seal(input.url), ref: input.ref, projectDirectory }
  })

  /** A request accepted: the caller checked, its pending run recorded; answers what its job carries whatever its kind. */
  const accept = Effect.fnUntraced(function*(spaceId: string, input: ImportInput | ExportInput, kind: "import" | "export") {
    const admin = (yield* mayTrigger(spaceId)).permissions.admin
    const actor = yield* Actor.Actor
    const settings = yield* requestSettings(spaceId, input, admin)
    const at = yield* now
    yield* recordRequest(spaceId, settings, kind, at, admin)
    return {
      spaceId,
      actorId: actor.userId,
      url: settings.urlSealed,
      ref: settings.ref,
      projectDirectory: settings.projectDirectory,
      force: input.force === true,
      timestamp: (input.timestamp ?? at).toISOString(),
      trigger: "api" as const
    }
  })

  const importRepository = Effect.fn("GitSync.importRepository")(function*(spaceId: string, input: ImportInput) {
    const job: ImportJob = { ...(yield* accept(spaceId, input, "import")), standalone: input.standalone === true }
    yield* queue.enqueue(importTask, job)
  })

  const exportRepository = Effect.fn("GitSync.exportRepository")(function*(spaceId: string, input: ExportInput) {
    const job: ExportJob = { ...(yield* accept(spaceId, input, "export")), commitMessage: input.commitMessage }
    // An export to the space's own repository takes the place of an automatic one still waiting
    // (its debounce key): one commit, under the message asked for, not an "Update from Quire"
    // commit first and then nothing left to export.
    const record = yield* repo.find(spaceId)
    const ownRepository = Option.isSome(record) && record.value.connected && record.value.urlSealed === job.url &&
      record.value.ref === job.ref && record.value.projectDirectory === job.projectDirectory
    yield* queue.enqueue(exportTask, job, ownRepository ? { jobKey: debounceKey(exportTask, spaceId) } : undefined)
  })

  return { importRepository, exportRepository }
}
