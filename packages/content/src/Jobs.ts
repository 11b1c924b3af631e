/** Background jobs of the content package. */
import { Effect, Schema } from "effect"
import { define } from "@quire/queue"
import { Imports, importTask } from "./Imports.ts"
import { Spaces } from "./Spaces.ts"

/** Hourly: spaces in the trash for more than 7 days are removed for good, with their revisions. */
export const purgeDeletedSpaces = define("content.purgeDeletedSpaces", {
  payload: Schema.Struct({}),
  schedule: { every: "1 hour" },
  handler: () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const purged = yield* spaces.purgeDeleted
      if (purged > 0) yield* Effect.logInfo(`Purged ${purged} deleted spaces`)
    })
})

/** Hourly: uploads for imports kept past their retention that no active run names are purged (their bytes leave the quota). */
export const purgeImportUploads = define("content.purgeImportUploads", {
  payload: Schema.Struct({}),
  schedule: { every: "1 hour" },
  handler: () =>
    Effect.gen(function*() {
      const purged = yield* (yield* Imports).purgeUploads
      if (purged > 0) yield* Effect.logInfo(`Purged ${purged} uploads for imports`)
    })
})

/**
 * An import run: reads its source and writes the pages, recording the outcome on the run (never
 * retried for a failure of the source). Three attempts, for a run whose process died; a run given
 * up is recorded failed rather than left in progress.
 */
export const importRun = define(importTask, {
  payload: Schema.Struct({ runId: Schema.String }),
  maxAttempts: 3,
  handler: ({ runId }) => Imports.use((imports) => imports.run(runId)),
  onGiveUp: ({ runId }, reason) => Imports.use((imports) => imports.giveUp(runId, reason))
})

export const jobs = [purgeDeletedSpaces, purgeImportUploads, importRun] as const
