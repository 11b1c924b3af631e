/** Background jobs of the sites package. */
import { Effect, Schema } from "effect"
import { define } from "@quire/queue"
import { SiteContextConnections, syncTask } from "./findings/SiteContextConnections.ts"
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

/**
 * Every minute: the few context connections not synced for `QUIRE_CONTEXT_SYNC_MINUTES` (360 by
 * default; 0 turns the schedule off) pull their sources again, through the outbound guard; a
 * failure is recorded on the connection (its status, message and reason) and waits its interval.
 */
export const syncContextConnections = define(syncTask, {
  payload: Schema.Struct({}),
  schedule: { every: "1 minute" },
  handler: () =>
    Effect.gen(function*() {
      const synced = yield* (yield* SiteContextConnections).syncDue
      if (synced > 0) yield* Effect.logInfo(`Synced ${synced} site context connection(s) on schedule`)
    })
})

/** A style guide check run: checks its change requests, comments and records its findings (its outcome is recorded on the run, never retried). */
export const runStyleguideCheck = define(runTask, {
  payload: RunJob,
  maxAttempts: 1,
  handler: (job) => Styleguides.use((styleguides) => styleguides.execute(job.runId))
})

export const jobs = [purgeExpiredSiteEvents, scanSite, syncContextConnections, runStyleguideCheck] as const
