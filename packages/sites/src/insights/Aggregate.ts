/**
 * Runs GitBook's insights aggregation over a site's events, in memory: filters on event columns,
 * groups, counts (events, distinct sessions and visitors, page ratings), filters on counts, order
 * and limit. The same code over the memory and the Postgres adapters.
 */
import type { InsightsColumn, InsightsFilter, InsightsQuery, InsightsResult } from "../domain/InsightsQuery.ts"
import { metricColumns } from "../domain/InsightsQuery.ts"
import type { SiteEvent } from "../domain/SiteEvent.ts"

type Value = unknown

const record = (value: unknown): Readonly<Record<string, unknown>> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined

const text = (value: unknown): string | null => (typeof value === "string" ? value : null)

/** The start of the `interval` holding `at`, as an ISO date-time (UTC; weeks start on Monday). */
export const bucketOf = (at: Date, interval: "hour" | "day" | "week" | "month"): string => {
  const d = new Date(at.getTime())
  d.setUTCMinutes(0, 0, 0)
  if (interval !== "hour") d.setUTCHours(0)
  if (interval === "week") d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7))
  if (interval === "month") d.setUTCDate(1)
  return d.toISOString()
}

const domainOf = (url: string | null): string | null => {
  if (url === null) return null
  try {
    return new URL(url).hostname
  } catch {
    return null
  }
}

const utm = (event: SiteEvent, name: string): string | null => {
  try {
    return new URL(event.url).searchParams.get(name)
  } catch {
    return null
  }
}

const linkTarget = (event: SiteEvent) => record(record(event.data["link"])?.["target"])

/** An event's value of a column that is read from events (not a count). */
const valueOf = (event: SiteEvent, column: InsightsColumn): Value => {
  const feedback = record(event.data["feedback"])
  switch (column.column) {
    case "datetime":
      return bucketOf(event.at, column.interval ?? "day")
    case "dayOfWeek":
      return ((event.at.getUTCDay() + 6) % 7) + 1
    case "hourOfDay":
      return event.at.getUTCHours()
    case "url":
      return event.url
    case "urlPath":
      return event.urlPath
    case "eventType":
      return event.type
    case "siteSection":
      return event.siteSection
    case "siteSpace":
      return event.siteSpace
    case "siteShareKey":
      return event.siteShareKey
    case "displayContext":
      return event.displayContext
    case "page":
      // No page is a 404 (GitBook's definition), whatever space the address was under.
      return event.spaceId === null || event.pageId === null ? null : { page: event.pageId, space: event.spaceId }
    case "visitorLanguage":
      return event.language
    case "visitorDevice":
    case "visitorBrowser":
    case "visitorOS":
      return "unknown"
    case "eventLinkTargetValue":
      return linkTarget(event) ?? null
    case "eventLinkTargetKind":
      return text(linkTarget(event)?.["kind"])
    case "eventLinkTargetDomain": {
      const target = linkTarget(event)
      return target?.["kind"] === "url" ? domainOf(text(target["url"])) : null
    }
    case "eventLinkPosition":
      return text(record(event.data["link"])?.["position"])
    case "eventAPIOperationPath":
      return text(record(event.data["operation"])?.["path"])
    case "eventAPIOperationMethod":
      return text(record(event.data["operation"])?.["method"])
    case "eventLLMSVariant":
      return text(event.data["llmsVariant"])
    case "eventMarkdownSource":
      return text(event.data["markdownSource"])
    case "eventSearchQuery":
      return text(event.data["query"])
    case "eventSearchResultRecordId": {
      const result = record(event.data["result"])
      return text(result?.["recordId"]) ?? text(result?.["pageId"])
    }
    case "eventSearchResultsCount":
      return typeof event.data["resultsCount"] === "number" ? event.data["resultsCount"] : null
    case "eventPageFeedbackRating":
      return text(feedback?.["rating"])
    case "eventPageFeedbackComment":
      return text(feedback?.["comment"])
    case "eventAskResponseRating":
      return typeof event.data["rating"] === "number" ? event.data["rating"] : null
    case "referrer":
      return event.referrer
    case "referrerDomain":
      return domainOf(event.referrer)
    case "utmSource":
      return utm(event, "utm_source")
    case "utmMedium":
      return utm(event, "utm_medium")
    case "utmCampaign":
      return utm(event, "utm_campaign")
    case "utmTerm":
      return utm(event, "utm_term")
    case "utmContent":
      return utm(event, "utm_content")
    case "eventAdDomain":
      return text(record(event.data["ad"])?.["domain"])
    case "eventAdPlacement":
      return text(record(event.data["ad"])?.["placement"])
    case "eventTrademarkPlacement":
      return text(event.data["placement"])
    // Quire keeps no address, claims, bot names or 404 reasons: these read as unknown.
    case "visitorGeoCountry":
    case "visitorGeoPoint":
    case "visitorBot":
    case "visitorAuthenticated":
    case "visitorClaimProperty":
    case "visitorClaim":
    case "eventPageNotFoundType":
      return null
    case "eventsCount":
    case "sessionsCount":
    case "visitorsCount":
    case "pageFeedbackRating":
    case "askResponseRating":
      return null
  }
}

/** A group's value of a count column. */
const countOf = (events: ReadonlyArray<SiteEvent>, column: InsightsColumn): Value => {
  switch (column.column) {
    case "eventsCount":
      return events.length
    case "sessionsCount":
      return new Set(events.map((e) => e.session)).size
    case "visitorsCount":
      return new Set(events.map((e) => e.visitor)).size
    case "pageFeedbackRating": {
      const counts = { ok: 0, good: 0, bad: 0 }
      for (const e of events) {
        if (e.type !== "page_post_feedback") continue
        const rating = record(e.data["feedback"])?.["rating"]
        if (rating === "ok" || rating === "good" || rating === "bad") counts[rating]++
      }
      return counts
    }
    case "askResponseRating": {
      const counts = { positive: 0, negative: 0 }
      for (const e of events) {
        if (e.type !== "ask_rate_response") continue
        if (e.data["rating"] === 1) counts.positive++
        if (e.data["rating"] === -1) counts.negative++
      }
      return counts
    }
    default:
      return valueOf(events[0]!, column)
  }
}

const keyOf = (value: Value): string => (typeof value === "object" && value !== null ? JSON.stringify(value) : `${typeof value}:${String(value)}`)

/** Orders values as GitBook does: nulls first, numbers by value, the rest by their text. */
export const compare = (a: Value, b: Value): number => {
  if (a === b) return 0
  if (a === null || a === undefined) return -1
  if (b === null || b === undefined) return 1
  if (typeof a === "number" && typeof b === "number") return a - b
  const x = typeof a === "string" ? a : JSON.stringify(a)
  const y = typeof b === "string" ? b : JSON.stringify(b)
  return x < y ? -1 : x > y ? 1 : 0
}

const matches = (filter: InsightsFilter, value: Value): boolean => {
  const operator = filter.operator ?? "in"
  const normalized = filter.column === "datetime" && typeof value === "string" ? Date.parse(value) : value
  const values = filter.column === "datetime" ? filter.values.map((v) => (typeof v === "string" ? Date.parse(v) : v)) : filter.values
  switch (operator) {
    case "in":
      return values.some((v) => keyOf(v) === keyOf(normalized))
    case "notIn":
      return !values.some((v) => keyOf(v) === keyOf(normalized))
    default: {
      if (normalized === null || normalized === undefined) return false
      return values.every((v) => {
        const c = compare(normalized, v)
        return operator === "greaterThan" ? c > 0 : operator === "greaterThanOrEqual" ? c >= 0 : operator === "lessThan" ? c < 0 : c <= 0
      })
    }
  }
}

/** A datetime filter compares the event's time, not its bucket. */
const eventValue = (event: SiteEvent, filter: InsightsFilter): Value =>
  filter.column === "datetime" ? event.at.toISOString() : valueOf(event, { column: filter.column })

const sameColumn = (a: InsightsColumn, b: InsightsColumn) => a.column === b.column && (a.interval ?? "day") === (b.interval ?? "day")

/** A group's value of a column: counted over the group, or read from its first event. */
const columnValue = (group: ReadonlyArray<SiteEvent>, column: InsightsColumn): Value =>
  metricColumns.has(column.column) ? countOf(group, column) : valueOf(group[0]!, column)

/**
 * Why `query` cannot be run, as the field at fault: an order by a column that is neither counted
 * nor grouped (a group has many values of it).
 */
export const invalidField = (query: InsightsQuery): { readonly field: string; readonly reason: string } | undefined => {
  const by = query.order?.by
  if (by === undefined || metricColumns.has(by.column)) return undefined
  const grouped = (query.groupBy ?? []).some((column) => sameColumn(column, by) && column.claim === by.claim)
  return grouped ? undefined : { field: "order.by", reason: `must be a count or one of groupBy's columns, not ${by.column}` }
}

/** Runs `query` over `events` (already within its range). */
export const aggregate = (events: ReadonlyArray<SiteEvent>, query: InsightsQuery): InsightsResult => {
  const filters = query.where ?? []
  const eventFilters = filters.filter((f) => !metricColumns.has(f.column))
  const groupFilters = filters.filter((f) => metricColumns.has(f.column))
  const groupBy = (query.groupBy ?? []).filter((c) => !metricColumns.has(c.column))
  const select = query.select ?? [...groupBy, { column: "eventsCount" as const }]

  const groups = new Map<string, Array<SiteEvent>>()
  for (const event of events) {
    if (!eventFilters.every((f) => matches(f, eventValue(event, f)))) continue
    const key = groupBy.map((c) => keyOf(valueOf(event, c))).join("\u0000")
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [event])
    else group.push(event)
  }

  let rows = Array.from(groups.values()).filter((group) => groupFilters.every((f) => matches(f, columnValue(group, { column: f.column }))))
  const order = query.order ?? (groupBy[0] === undefined ? undefined : { by: groupBy[0], direction: "asc" as const })
  if (order !== undefined) {
    const sign = order.direction === "asc" ? 1 : -1
    // Ties follow the groups' own columns, ascending: the same query answers rows in the same order.
    const decorated = rows.map((group) => ({ group, key: columnValue(group, order.by), ties: groupBy.map((column) => columnValue(group, column)) }))
    decorated.sort((a, b) => {
      const first = sign * compare(a.key, b.key)
      if (first !== 0) return first
      for (let i = 0; i < a.ties.length; i++) {
        const next = compare(a.ties[i], b.ties[i])
        if (next !== 0) return next
      }
      return 0
    })
    rows = decorated.map((d) => d.group)
  }
  rows = rows.slice(0, query.limit ?? 1000)
  return {
    columns: select.map((column) => ({
      column: column.column,
      ...(column.claim === undefined ? {} : { claim: column.claim }),
      values: rows.map((group) => {
        const grouped = groupBy.find((g) => sameColumn(g, column))
        return columnValue(group, grouped ?? column)
      })
    }))
  }
}
