/** Background jobs of the specs package: processing runs, and the re-polling of URL sources. */
import { Effect, Schema } from "effect"
import { define } from "@quire/queue"
import { processTask, Specs } from "./Specs.ts"

/**
 * Fetches, resolves and validates a spec's source; stores a new version when it changed. Three
 * attempts: a document that fails to process fails the same way again (those failures are
 * permanent at once), so retries only help a fetch that failed by chance. A run given up (its
 * worker died on the last attempt) is recorded failed on the spec rather than left in progress.
 */
export const processSpec = define(processTask, {
  payload: Schema.Struct({ specId: Schema.String }),
  maxAttempts: 3,
  handler: ({ specId }) => Specs.use((specs) => specs.process(specId)),
  onGiveUp: ({ specId }, reason) => Specs.use((specs) => specs.giveUp(specId, reason))
})

/** Every minute: URL specs last processed longer ago than `QUIRE_SPECS_POLL_SECONDS` (default 3600) are processed again. */
export const pollSpecs = define("specs.poll", {
  payload: Schema.Struct({}),
  schedule: { every: "1 minute" },
  handler: () =>
    Effect.gen(function*() {
      const polled = yield* Specs.use((specs) => specs.pollDue)
      if (polled > 0) yield* Effect.logInfo(`Re-processed ${polled} OpenAPI specs`)
    })
})

export const jobs = [processSpec, pollSpecs] as const
