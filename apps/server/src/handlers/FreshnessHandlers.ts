/** Handlers of the freshness group (Quire's): where a space's or an organization's pages stand. */
import { Clock, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type FreshnessState, type PageFreshness, type SpaceFreshness } from "@quire/api"
import { Freshness, type PageFreshnessEntry, type SpaceFreshness as SpaceFreshnessOf, todayOf } from "@quire/content"
import { Organizations, Users } from "@quire/identity"
import { Actor } from "@quire/kernel"
import * as ContentPresenters from "../ContentPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { PublicUrl } from "../PublicUrl.ts"

interface Filters {
  readonly state?: FreshnessState | undefined
  readonly owner?: "me" | "none" | undefined
}

/** Stale first, longest overdue first; then never verified; then the rest, least recently edited first. */
const rank: Readonly<Record<FreshnessState, number>> = { stale: 0, unverified: 1, untracked: 2, fresh: 3 }
const order = (a: PageFreshnessEntry, b: PageFreshnessEntry) =>
  rank[a.freshness.state] - rank[b.freshness.state] ||
  (a.freshness.due ?? "").localeCompare(b.freshness.due ?? "") ||
  a.page.updatedAt.localeCompare(b.page.updatedAt)

const statsOf = (found: ReadonlyArray<SpaceFreshnessOf>) => {
  const stats = { pages: 0, fresh: 0, stale: 0, unverified: 0, untracked: 0, unowned: 0, brokenLinks: 0 }
  for (const space of found) {
    stats.brokenLinks += space.brokenLinks
    for (const { freshness } of space.pages) {
      stats.pages++
      stats[freshness.state]++
      if (freshness.owners.length === 0) stats.unowned++
    }
  }
  return stats
}

export const layer = HttpApiBuilder.group(Api, "freshness", Effect.fn(function*(handlers) {
  const freshness = yield* Freshness
  const organizations = yield* Organizations
  const users = yield* Users
  const urls = yield* PublicUrl
  const today = Effect.map(Clock.currentTimeMillis, (ms) => todayOf(new Date(ms)))

  /** Whether a page passes the filters, `mine` naming the caller (id and email) when `owner=me`. */
  const keep = (filters: Filters, mine: ReadonlyArray<string>) => (entry: PageFreshnessEntry) =>
    (filters.state === undefined || entry.freshness.state === filters.state) &&
    (filters.owner === undefined ||
      (filters.owner === "none" ? entry.freshness.owners.length === 0 : entry.freshness.owners.some((owner) => mine.includes(owner.toLowerCase()))))

  const callerNames = Effect.gen(function*() {
    const actor = yield* Actor.Actor
    const user = yield* Effect.option(users.get(actor.userId))
    return [actor.userId.toLowerCase(), ...(user._tag === "Some" ? [user.value.email.toLowerCase()] : [])]
  })

  const page = (spaceId: string, entry: PageFreshnessEntry): PageFreshness => ({
    object: "page-freshness",
    id: entry.page.id,
    title: entry.page.title,
    path: entry.path,
    updatedAt: entry.page.updatedAt,
    owners: entry.freshness.owners,
    ...(entry.freshness.verified === undefined ? {} : { verified: entry.freshness.verified }),
    ...(entry.freshness.intervalDays === undefined ? {} : { verifyEvery: entry.freshness.intervalDays }),
    ...(entry.freshness.due === undefined ? {} : { due: entry.freshness.due }),
    state: entry.freshness.state,
    problems: entry.freshness.problems,
    urls: { app: ContentPresenters.pageAppUrl(urls, spaceId, entry.path) }
  })

  const space = (found: SpaceFreshnessOf, filters: Filters, mine: ReadonlyArray<string>): SpaceFreshness => ({
    object: "space-freshness",
    space: { id: found.access.space.id, title: found.access.space.title, urls: { app: urls.app(`/s/${found.access.space.id}`) } },
    revision: found.revisionId,
    stats: statsOf([found]),
    pages: found.pages.filter(keep(filters, mine)).toSorted(order).map((entry) => page(found.access.space.id, entry))
  })

  return handlers
    .handle("getSpaceFreshness", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* freshness.space(params.spaceId, yield* today, urls.base)
        return space(found, query, query.owner === "me" ? yield* callerNames : [])
      }).pipe(DomainErrors.api))
    .handle("getOrganizationFreshness", ({ params, query }) =>
      Effect.gen(function*() {
        // Another organization's is not there for the caller (404), whatever its spaces.
        yield* organizations.access(params.organizationId)
        const found = yield* freshness.organization(params.organizationId, yield* today, urls.base)
        const mine = query.owner === "me" ? yield* callerNames : []
        const spaces = found.map((one) => space(one, query, mine)).toSorted((a, b) => b.stats.stale - a.stats.stale || a.space.title.localeCompare(b.space.title))
        return { object: "organization-freshness" as const, stats: statsOf(found), spaces }
      }).pipe(DomainErrors.api))
}))
