/** Port: import runs and the files uploaded for them, with its memory adapter. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { ImportFile, ImportRun, ImportRunStatus } from "./domain/ImportRun.ts"

export type ImportRunPatch = Partial<Pick<ImportRun, "status" | "reason" | "pages" | "progress" | "updatedAt" | "startedAt" | "completedAt">>

/** Which runs a listing keeps. */
export interface ImportRunFilter {
  readonly spaceId?: string | undefined
  /** Runs into one of these spaces (a site's). */
  readonly spaceIds?: ReadonlyArray<string> | undefined
  readonly statuses?: ReadonlyArray<ImportRunStatus> | undefined
  /** Runs into this change request. */
  readonly changeRequestId?: string | undefined
}

export interface ImportRunsRepoShape {
  readonly insert: (run: ImportRun) => Effect.Effect<void>
  readonly find: (runId: string) => Effect.Effect<Option.Option<ImportRun>>
  /** The organization's runs, most recent first (createdAt, id descending). */
  readonly list: (organizationId: string, filter: ImportRunFilter, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<ImportRun>>
  /**
   * Applies `patch` unless the run's status is one of `unless` (or `unless` holds of the run), reading
   * and writing under the run's lock until the caller's transaction ends; answers the run as it then is.
   */
  readonly update: (runId: string, patch: ImportRunPatch, unless?: ImportRunGuard) => Effect.Effect<Option.Option<ImportRun>>
  readonly insertFile: (file: ImportFile) => Effect.Effect<void>
  readonly findFile: (fileId: string) => Effect.Effect<Option.Option<ImportFile>>
  /** Forgets an upload; answers it as it was (none when there was none). */
  readonly removeFile: (fileId: string) => Effect.Effect<Option.Option<ImportFile>>
  /** Whether a pending or running run (other than `exceptRunId`) names the upload in its source. */
  readonly fileInUse: (fileId: string, exceptRunId?: string) => Effect.Effect<boolean>
  /** Uploads kept since before `cutoff` that no pending or running run names, oldest first, at most `limit`. */
  readonly unusedFilesBefore: (cutoff: Date, limit: number) => Effect.Effect<ReadonlyArray<ImportFile>>
  /** A purged space takes its runs with it. */
  readonly removeOfSpace: (spaceId: string) => Effect.Effect<void>
}

/** The statuses, or the test, under which an update leaves the run as it is. */
export type ImportRunGuard = ReadonlyArray<ImportRunStatus> | ((run: ImportRun) => boolean)

export const guarded = (run: ImportRun, unless: ImportRunGuard): boolean =>
  typeof unless === "function" ? unless(run) : unless.includes(run.status)

export const importRunKey = (run: ImportRun): Pagination.CursorKey => [run.createdAt.toISOString(), run.id]
export const importRunKeyShape: Pagination.KeyShape = ["timestamp", "string"]

const activeStatuses: ReadonlyArray<ImportRunStatus> = ["pending", "in-progress"]

const names = (run: ImportRun, fileId: string) => activeStatuses.includes(run.status) && run.source.type === "file" && run.source.files.includes(fileId)

const matches = (run: ImportRun, organizationId: string, filter: ImportRunFilter) =>
  run.organizationId === organizationId &&
  (filter.spaceId === undefined || run.spaceId === filter.spaceId) &&
  (filter.spaceIds === undefined || filter.spaceIds.includes(run.spaceId)) &&
  (filter.statuses === undefined || filter.statuses.includes(run.status)) &&
  (filter.changeRequestId === undefined || run.target.changeRequest === filter.changeRequestId)

export class ImportRunsRepo extends Context.Service<ImportRunsRepo, ImportRunsRepoShape>()("@quire/content/ImportRunsRepo") {
  static readonly layerMemory = Layer.sync(ImportRunsRepo, () => {
    const runs = new MemoryStore.TxMap<string, ImportRun>()
    const files = new MemoryStore.TxMap<string, ImportFile>()
    return ImportRunsRepo.of({
      insert: (run) => Effect.sync(() => void runs.set(run.id, run)),
      find: (runId) => Effect.sync(() => Option.fromNullishOr(runs.get(runId))),
      list: (organizationId, filter, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(
            Array.from(runs.values()).filter((run) => matches(run, organizationId, filter)),
            importRunKey,
            { order: "desc", after, limit }
          )
        ),
      update: (runId, patch, unless = []) =>
        Effect.sync(() => {
          const found = runs.get(runId)
          if (found === undefined) return Option.none()
          if (guarded(found, unless)) return Option.some(found)
          const next: ImportRun = { ...found, ...patch }
          runs.set(runId, next)
          return Option.some(next)
        }),
      insertFile: (file) => Effect.sync(() => void files.set(file.id, file)),
      findFile: (fileId) => Effect.sync(() => Option.fromNullishOr(files.get(fileId))),
      removeFile: (fileId) =>
        Effect.sync(() => {
          const found = Option.fromNullishOr(files.get(fileId))
          files.delete(fileId)
          return found
        }),
      fileInUse: (fileId, exceptRunId) => Effect.sync(() => Array.from(runs.values()).some((run) => run.id !== exceptRunId && names(run, fileId))),
      unusedFilesBefore: (cutoff, limit) =>
        Effect.sync(() => {
          const active = Array.from(runs.values())
          return Array.from(files.values())
            .filter((file) => file.createdAt < cutoff && !active.some((run) => names(run, file.id)))
            .toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
            .slice(0, limit)
        }),
      removeOfSpace: (spaceId) =>
        Effect.sync(() => {
          for (const run of Array.from(runs.values())) if (run.spaceId === spaceId) runs.delete(run.id)
        })
    })
  })
}
