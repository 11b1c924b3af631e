/**
 * The insights screen's reads: GitBook's `aggregateSiteEvents` for views over time, top pages,
 * 404s, searches that found nothing, ratings and comments (last 30 days), and per space of the
 * site its pages (titles and paths) and its broken links. Reactivity key: `site:<id>`.
 */
import { Effect } from "effect"
import { Atom } from "effect/reactivity"
import type { AgentFeedbackItem, RevisionPage, SiteStructure } from "@quire/api"
import { QuireApi } from "../../../api/client.ts"
import { siteKey } from "../queries.ts"

/** A page of a space the site shows: where the screen links it and opens a change request on it. */
export interface PageInfo {
  readonly spaceId: string
  readonly spaceTitle: string
  readonly pageId: string
  readonly title: string
  readonly path: string
}

export interface PageRef {
  readonly page: string | null
  readonly space: string
}

export interface Ratings {
  readonly good: number
  readonly ok: number
  readonly bad: number
}

export interface Insights {
  readonly days: ReadonlyArray<{ readonly day: string; readonly views: number; readonly visitors: number }>
  readonly topPages: ReadonlyArray<{ readonly page: PageRef; readonly path: string; readonly views: number }>
  readonly notFound: ReadonlyArray<{ readonly path: string; readonly views: number }>
  readonly emptySearches: ReadonlyArray<{ readonly query: string; readonly count: number }>
  readonly ratings: ReadonlyArray<{ readonly page: PageRef; readonly ratings: Ratings }>
  readonly comments: ReadonlyArray<{ readonly page: PageRef; readonly comment: string; readonly rating: string }>
  readonly brokenLinks: ReadonlyArray<{ readonly target: string; readonly from: ReadonlyArray<PageInfo> }>
  /** What AI agents reported (`submitAgentFeedbackToSite`, the site MCP server's `sendFeedback`), newest first. */
  readonly agentFeedback: ReadonlyArray<AgentFeedbackItem>
  readonly pages: ReadonlyMap<string, PageInfo>
}

const range = "last30Days"
const type = (name: string) => ({ column: "eventType" as const, values: [name] })

const column = (result: { readonly columns: ReadonlyArray<{ readonly values: ReadonlyArray<unknown> }> }, index: number) =>
  result.columns[index]?.values ?? []

/** The site spaces anywhere in a site's structure (sections, groups, variants). */
const spacesOf = (structure: SiteStructure): ReadonlyArray<{ readonly id: string; readonly title: string }> => {
  const found = new Map<string, string>()
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk)
    else if (typeof value === "object" && value !== null) {
      const record = value as Record<string, unknown>
      if (record["object"] === "site-space") {
        const space = record["space"] as { readonly id: string; readonly title: string }
        found.set(space.id, space.title)
      } else Object.values(record).forEach(walk)
    }
  }
  walk(structure.structure)
  return Array.from(found, ([id, title]) => ({ id, title }))
}

const flatten = (pages: ReadonlyArray<RevisionPage>, into: Array<RevisionPage> = []): Array<RevisionPage> => {
  for (const page of pages) {
    into.push(page)
    if (page.pages !== undefined) flatten(page.pages, into)
  }
  return into
}

const pageKey = (spaceId: string, pageId: string) => `${spaceId}/${pageId}`

/** The page a reference names, if the site still shows it. */
export const pageOf = (pages: ReadonlyMap<string, PageInfo>, ref: PageRef): PageInfo | undefined =>
  ref.page === null ? undefined : pages.get(pageKey(ref.space, ref.page))

export const insightsAtom = Atom.family((ref: string) => {
  const [organizationId = "", siteId = ""] = ref.split("\n")
  const params = { organizationId, siteId }
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const aggregate = (payload: Parameters<typeof client.siteInsights.aggregateSiteEvents>[0]["payload"]) =>
      client.siteInsights.aggregateSiteEvents({ params, payload })
    const [days, top, notFound, searches, ratings, comments, structure, agents] = yield* Effect.all([
      aggregate({
        range,
        where: [type("page_view")],
        groupBy: [{ column: "datetime", interval: "day" }],
        select: [{ column: "datetime", interval: "day" }, { column: "eventsCount" }, { column: "visitorsCount" }]
      }),
      aggregate({
        range,
        where: [type("page_view"), { column: "page", values: [null], operator: "notIn" }],
        groupBy: [{ column: "page" }],
        select: [{ column: "page" }, { column: "urlPath" }, { column: "eventsCount" }],
        order: { by: { column: "eventsCount" }, direction: "desc" },
        limit: 10
      }),
      aggregate({
        range,
        where: [type("page_view"), { column: "page", values: [null] }, { column: "displayContext", values: ["site"] }],
        groupBy: [{ column: "urlPath" }],
        select: [{ column: "urlPath" }, { column: "eventsCount" }],
        order: { by: { column: "eventsCount" }, direction: "desc" },
        limit: 20
      }),
      aggregate({
        range,
        where: [type("search_type_query"), { column: "eventSearchResultsCount", values: [0] }],
        groupBy: [{ column: "eventSearchQuery" }],
        select: [{ column: "eventSearchQuery" }, { column: "eventsCount" }],
        order: { by: { column: "eventsCount" }, direction: "desc" },
        limit: 20
      }),
      aggregate({ range, where: [type("page_post_feedback")], groupBy: [{ column: "page" }], select: [{ column: "page" }, { column: "pageFeedbackRating" }] }),
      aggregate({
        range,
        where: [type("page_post_feedback_comment")],
        groupBy: [{ column: "page" }, { column: "eventPageFeedbackComment" }, { column: "eventPageFeedbackRating" }],
        select: [{ column: "page" }, { column: "eventPageFeedbackComment" }, { column: "eventPageFeedbackRating" }],
        limit: 100
      }),
      client.sites.getSiteStructure({ params, query: {} }),
      client.siteInsights.listSiteAgentFeedback({ params })
    ], { concurrency: 4 })

    const spaces = spacesOf(structure)
    const pages = new Map<string, PageInfo>()
    const brokenLinks: Array<{ target: string; from: Array<PageInfo> }> = []
    yield* Effect.forEach(spaces, (space) =>
      Effect.gen(function*() {
        const [list, links] = yield* Effect.all([
          client.spaceContent.listPages({ params: { spaceId: space.id }, query: {} }),
          client.links.listSpaceLinks({ params: { spaceId: space.id }, query: { status: "broken", limit: 100 } })
        ], { concurrency: 2 })
        for (const page of flatten(list.pages)) {
          pages.set(pageKey(space.id, page.id), { spaceId: space.id, spaceTitle: space.title, pageId: page.id, title: page.title, path: page.path })
        }
        for (const link of links.items) {
          const target = link.targetReference.kind === "url" ? link.targetReference.url : link.targetReference.kind === "page" ? link.targetReference.page.title : link.targetReference.file.name
          const from = (link.locationReferences ?? []).flatMap((location) =>
            location.kind === "page" ? [{ spaceId: space.id, spaceTitle: space.title, pageId: location.page.id, title: location.page.title, path: location.page.path }] : []
          )
          brokenLinks.push({ target, from })
        }
      }), { concurrency: 2, discard: true })

    return {
      days: column(days, 0).map((day, i) => ({ day: String(day), views: Number(column(days, 1)[i]), visitors: Number(column(days, 2)[i]) })),
      topPages: column(top, 0).map((page, i) => ({ page: page as PageRef, path: String(column(top, 1)[i]), views: Number(column(top, 2)[i]) })),
      notFound: column(notFound, 0).map((path, i) => ({ path: String(path), views: Number(column(notFound, 1)[i]) })),
      emptySearches: column(searches, 0).map((query, i) => ({ query: String(query), count: Number(column(searches, 1)[i]) })),
      ratings: column(ratings, 0)
        .map((page, i) => ({ page: page as PageRef, ratings: column(ratings, 1)[i] as Ratings }))
        .filter((row) => row.page !== null && row.ratings.bad + row.ratings.ok > 0)
        .toSorted((a, b) => score(a.ratings) - score(b.ratings)),
      comments: column(comments, 0).flatMap((page, i) =>
        page === null ? [] : [{ page: page as PageRef, comment: String(column(comments, 1)[i]), rating: String(column(comments, 2)[i]) }]
      ),
      brokenLinks,
      agentFeedback: agents.items,
      pages
    } satisfies Insights
  })).pipe(Atom.withReactivity([siteKey(siteId)]))
})

/** The page a documentation URL (an agent's subject) names: the page whose path ends the URL's, the longest such. */
export const pageAt = (pages: ReadonlyMap<string, PageInfo>, url: string): PageInfo | undefined => {
  let path: string
  try {
    path = decodeURIComponent(new URL(url).pathname).replace(/\/+$/, "")
  } catch {
    return undefined
  }
  let found: PageInfo | undefined
  for (const page of pages.values()) {
    if (page.path !== "" && path.endsWith(`/${page.path}`) && page.path.length > (found?.path.length ?? -1)) found = page
  }
  return found
}

/** A page's rating from 0 (every reader said no) to 1 (every reader said yes). */
export const score = (ratings: Ratings): number => {
  const total = ratings.good + ratings.ok + ratings.bad
  return total === 0 ? 1 : (ratings.good + ratings.ok / 2) / total
}

/** The overview's headline: views and daily visitors over the last 30 days, one `aggregateSiteEvents` (the insights tab's first). */
export const headlineAtom = Atom.family((ref: string) => {
  const [organizationId = "", siteId = ""] = ref.split("\n")
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const days = yield* client.siteInsights.aggregateSiteEvents({
      params: { organizationId, siteId },
      payload: {
        range,
        where: [type("page_view")],
        groupBy: [{ column: "datetime", interval: "day" }],
        select: [{ column: "datetime", interval: "day" }, { column: "eventsCount" }, { column: "visitorsCount" }]
      }
    })
    const sum = (index: number) => column(days, index).reduce<number>((total, n) => total + Number(n), 0)
    return { views: sum(1), visitors: sum(2) }
  })).pipe(Atom.withReactivity([siteKey(siteId)]))
})
