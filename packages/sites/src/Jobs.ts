/** Background jobs of the sites package. */
import { Effect, Schema } from "effect"
import { define } from "@quire/queue"
import { scanTask, SiteFindings } from "./findings/SiteFindings.ts"
import { SiteInsights } from "./insights/SiteInsights.ts"
import { SiteQuestions } from "./questions/SiteQuestions.ts"
import { RunJob, runTask } from "./styleguides/StyleguideJob.ts"
import { Styleguides } from "./styleguides/Styleguides.ts"

/** Hourly: sites' insights events and questions asked older than the retention setting (`QUIRE_INSIGHTS_RETENTION_DAYS`) are deleted. */
export const purgeExpiredSiteEvents = define("insights.purgeExpired", {
  payload: Schema.Struct({}),
  schedule: { every: "1 hour" },
  handler: () =>
    Effect.gen(function*() {
      const purged = yield* (yield* SiteInsights).purgeExpired
      if (purged > 0) yield* Effect.logInfo(`Purged ${purged} site insights events past their retention`)
      const asked = yield* (yield* SiteQuestions).purgeExpired
      if (asked > 0) yield* Effect.logInfo(`Purged ${asked} questions asked on sites past their retention`)
    })
})

/** A scan of a site's records against its docs, queued by `startScan`. */
export const scanSite = define(scanTask, {
  payload: Schema.Struct({ siteId: Schema.String, scanId: Schema.String }),
  handler: ({ scanId, siteId }) => Effect.gen(function*() {
    yield* (yield* SiteFindings).runScan(siteId, scanId)
  })
})

/** A style guide check run: checks its change requests, comments and records its findings (its outcome is recorded on the run, never retried). */
export const runStyleguideCheck = define(runTask, {
  payload: RunJob,
  maxAttempts: 1,
  handler: (job) => Styleguides.use((styleguides) => styleguides.execute(job.runId))
})

export const jobs = [purgeExpiredSiteEvents, scanSite, runStyleguideCheck] as const
