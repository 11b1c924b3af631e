/** Background jobs of the translations package: a translation's run. */
import { define } from "@quire/queue"
import { TranslationRunner } from "./TranslationRunner.ts"
import { RunJob, runTask } from "./TranslationRuns.ts"

/**
 * Translates the source's changed pages and writes the result space (the outcome is recorded,
 * never retried). Three attempts, for a run whose process died: what failed three times fails
 * the same way again, and a run given up is recorded `failed` rather than left `running`.
 */
export const runTranslation = define(runTask, {
  payload: RunJob,
  maxAttempts: 3,
  handler: (job) => TranslationRunner.use((runner) => runner.run(job)),
  onGiveUp: (job, reason) => TranslationRunner.use((runner) => runner.giveUp(job, reason))
})

export const jobs = [runTranslation] as const
