/**
 * The Findings tab's reads: GitBook's `listSiteFindings`, `listSiteTopics`, `getSiteFindingStats`
 * and the latest of `listSiteScans`; for a finding opened, its pages, records and change requests.
 * Reactivity keys: `findings:<site>` (a scan, a trigger) and `site:<id>`.
 */
import { Effect } from "effect"
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../../api/client.ts"
import { siteKey } from "../queries.ts"

export const findingsKey = (siteId: string) => `findings:${siteId}`

/** The key of a site's findings: its organization and id. */
export const findingsRef = (organizationId: string, siteId: string) => `${organizationId}\n${siteId}`

export const findingsAtom = Atom.family((ref: string) => {
  const [organizationId = "", siteId = ""] = ref.split("\n")
  const params = { organizationId, siteId }
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const [findings, topics, stats, scans] = yield* Effect.all([
      client.siteContext.listSiteFindings({ params, query: { limit: 100, orderBy: "severity" } }),
      client.siteContext.listSiteTopics({ params, query: {} }),
      client.siteContext.getSiteFindingStats({ params, query: {} }),
      client.siteContext.listSiteScans({ params, query: { limit: 1 } })
    ], { concurrency: 4 })
    return { findings: findings.items, topics: topics.items, stats, lastScan: scans.items[0] }
  })).pipe(Atom.withReactivity([findingsKey(siteId), siteKey(siteId)]))
})

/** A finding's pages, records and the change requests it opened. */
export const findingDetailAtom = Atom.family((ref: string) => {
  const [organizationId = "", siteId = "", siteFindingId = ""] = ref.split("\n")
  const params = { organizationId, siteId, siteFindingId }
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const [pages, records, changeRequests] = yield* Effect.all([
      client.siteContext.listPagesForSiteFinding({ params, query: { limit: 20 } }),
      client.siteContext.listRecordsForSiteFinding({ params, query: { limit: 20 } }),
      client.siteContext.listChangeRequestsForSiteFinding({ params, query: { limit: 20 } })
    ], { concurrency: 3 })
    return { pages: pages.items, records: records.items, changeRequests: changeRequests.items }
  })).pipe(Atom.withReactivity([findingsKey(siteId)]))
})

export const startScan = QuireApi.mutation("siteContext", "startSiteScan")
export const readScan = QuireApi.mutation("siteContext", "getSiteScanById")
export const triggerFinding = QuireApi.mutation("siteContext", "triggerChangeRequestsForSiteFinding")
export const changeRequestsOfFinding = QuireApi.mutation("siteContext", "listChangeRequestsForSiteFinding")
