/** Background jobs of the gitsync package: imports and exports, run by the worker (or in-process when embedded). */
import { define } from "@quire/queue/JobQueue"
import { ExportJob, exportTask, ImportJob, importTask, SyncJobs } from "./SyncJobs.ts"

/** Fetches a branch and writes it as one revision of the space (a failure is recorded, not retried). */
export const importRepository = define(importTask, {
  payload: ImportJob,
  handler: (job) => SyncJobs.use((sync) => sync.runImport(job))
})

/** Renders the space's main content and pushes it as one commit. */
export const exportRepository = define(exportTask, {
  payload: ExportJob,
  handler: (job) => SyncJobs.use((sync) => sync.runExport(job))
})

export const jobs = [importRepository, exportRepository] as const
