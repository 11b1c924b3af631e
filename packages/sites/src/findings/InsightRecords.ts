/**
 * The records a site's own insights give: each question its Ask did not answer (its latest
 * asking), each search that found nothing (a session's last such query), each page rated bad with
 * a comment, each address that found no page (a 404). They are records of the `site-insights`
 * connection, kept under an id of where they came from, so a scan takes each once.
 */
import { Effect } from "effect"
import type { SiteEvent } from "../domain/SiteEvent.ts"
import { insightsConnection, insightsConnector, type RecordOrigin, type StoredRecord } from "../domain/Findings.ts"
import type { StoredAnswer, StoredQuestion } from "../domain/SiteQuestion.ts"

/** A record as derived, before it has its id and its scan state. */
export type DerivedRecord = Pick<StoredRecord, "externalId" | "origin" | "title" | "body" | "url" | "questionId" | "createdAt" | "metadata">

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)
const fold = (text: string) => text.trim().replace(/\s+/g, " ")

const derived = (origin: RecordOrigin, externalId: string, title: string, at: Date, rest: Partial<DerivedRecord> = {}): DerivedRecord => ({
  origin,
  externalId,
  title: clip(fold(title), 256),
  body: "",
  url: null,
  questionId: null,
  metadata: {},
  createdAt: at.toISOString(),
  ...rest
})

/** The unanswered questions: those whose latest asking did not cite the pages. */
export const fromQuestions = (questions: ReadonlyArray<StoredQuestion>, answers: ReadonlyArray<StoredAnswer>): ReadonlyArray<DerivedRecord> => {
  const latest = new Map<string, StoredAnswer>()
  const count = new Map<string, number>()
  for (const a of answers) {
    count.set(a.questionId, (count.get(a.questionId) ?? 0) + 1)
    const seen = latest.get(a.questionId)
    if (seen === undefined || a.at.getTime() > seen.at.getTime()) latest.set(a.questionId, a)
  }
  return questions.flatMap((q) => {
    const last = latest.get(q.id)
    if (last === undefined || last.outcome === "answered") return []
    return [derived("question", `question:${q.id}`, q.text, q.createdAt, {
      questionId: q.id,
      body: `Asked ${count.get(q.id) ?? 1} time(s) on the site; the last answer: ${last.outcome}.`,
      metadata: { askings: count.get(q.id) ?? 1, outcome: last.outcome }
    })]
  })
}

const data = (event: SiteEvent, key: string): unknown => event.data[key]
const feedbackOf = (event: SiteEvent) => {
  const f = data(event, "feedback")
  return typeof f === "object" && f !== null ? f as { readonly rating?: unknown; readonly comment?: unknown } : undefined
}

/** Failed searches, bad ratings with a comment, and 404s, from the site's events. */
export const fromEvents = (events: ReadonlyArray<SiteEvent>): ReadonlyArray<DerivedRecord> => {
  const out = new Map<string, DerivedRecord>()
  // A reader types a query letter by letter: a session's query that a later one of it extends is not a query of its own.
  const bySession = new Map<string, Array<{ readonly query: string; readonly event: SiteEvent }>>()
  for (const event of events) {
    if (event.type === "search_type_query" && data(event, "resultsCount") === 0 && typeof data(event, "query") === "string") {
      const query = fold(String(data(event, "query"))).toLowerCase()
      if (query.length < 3) continue
      const list = bySession.get(event.session) ?? []
      list.push({ query, event })
      bySession.set(event.session, list)
    } else if (event.type === "page_post_feedback_comment") {
      const feedback = feedbackOf(event)
      if (feedback?.rating !== "bad" || typeof feedback.comment !== "string" || fold(feedback.comment) === "") continue
      out.set(`feedback:${event.id}`, derived("feedback", `feedback:${event.id}`, feedback.comment, event.at, {
        url: event.url,
        body: `Rated bad on ${event.urlPath}.`,
        metadata: { page: event.pageId ?? "", rating: "bad" }
      }))
    } else if (event.type === "page_view" && event.pageId === null && event.urlPath !== "") {
      const key = `not-found:${event.urlPath}`
      if (out.has(key)) continue
      const words = event.urlPath.split(/[/\-_.]+/).filter((w) => w !== "").join(" ")
      out.set(key, derived("not-found", key, `Page not found: ${event.urlPath}`, event.at, { url: event.url, body: words, metadata: { path: event.urlPath } }))
    }
  }
  for (const list of bySession.values()) {
    for (const [i, { query, event }] of list.entries()) {
      if (list.slice(i + 1).some((later) => later.query.startsWith(query))) continue
      const key = `search:${query}`
      if (!out.has(key)) out.set(key, derived("search", key, query, event.at, { body: "A search on the site that found no page.", metadata: { query } }))
    }
  }
  return [...out.values()]
}

/** Derived records as stored, keeping the id, creation and scan state of those stored before. */
export const asStored = (
  site: { readonly organizationId: string; readonly siteId: string },
  records: ReadonlyArray<DerivedRecord>,
  existing: ReadonlyArray<StoredRecord>,
  newId: Effect.Effect<string>,
  now: string
): Effect.Effect<ReadonlyArray<StoredRecord>> => {
  const known = new Map(existing.filter((r) => r.connectionId === insightsConnection).map((r) => [r.externalId, r]))
  return Effect.forEach(records.filter((r) => !known.has(r.externalId)), (r) =>
    Effect.map(newId, (id): StoredRecord => ({
      ...r,
      id,
      organizationId: site.organizationId,
      siteId: site.siteId,
      connectionId: insightsConnection,
      connector: insightsConnector,
      type: "ticket",
      topics: [],
      updatedAt: now,
      processedAt: null
    })))
}
