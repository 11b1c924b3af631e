/** Background jobs of the translations package: a translation's run. */
import { define } from "@quire/queue/JobQueue"
import { TranslationRunner } from "./TranslationRunner.ts"
import { RunJob, runTask } from "./TranslationRuns.ts"

/** Translates the source's changed pages and writes the result space (the outcome is recorded, never retried). */
export const runTranslation = define(runTask, {
  payload: RunJob,
  handler: (job) => TranslationRunner.use((runner) => runner.run(job))
})

export const jobs = [runTranslation] as const
