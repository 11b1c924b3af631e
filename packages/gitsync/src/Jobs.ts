/** Background jobs of the gitsync package: imports and exports, run by the worker (or in-process when embedded). */
import { define } from "@quire/queue"
import { ExportJob, exportTask, ImportJob, importTask, SyncJobs } from "./SyncJobs.ts"

/**
 * Fetches a branch and writes it as one revision of the space (a failure is recorded, not
 * retried). Three attempts, for a run whose process died; a run given up is recorded `failed`
 * on the space rather than left `running`.
 */
export const importRepository = define(importTask, {
  payload: ImportJob,
  maxAttempts: 3,
  handler: (job) => SyncJobs.use((sync) => sync.runImport(job)),
  onGiveUp: (job, reason) => SyncJobs.use((sync) => sync.giveUp("import", job.spaceId, reason))
})

/** Renders the space's main content and pushes it as one commit; attempts and give-up as imports. */
export const exportRepository = define(exportTask, {
  payload: ExportJob,
  maxAttempts: 3,
  handler: (job) => SyncJobs.use((sync) => sync.runExport(job)),
  onGiveUp: (job, reason) => SyncJobs.use((sync) => sync.giveUp("export", job.spaceId, reason))
})

export const jobs = [importRepository, exportRepository] as const
