/**
 * A site's findings (GitBook's `site-context`): context records (its own unanswered questions,
 * failed searches, bad ratings and 404s; what help desks push; what connections pull), scans that
 * cluster them into topics and check each against the docs, the findings those make where the
 * docs do not answer, and the change request a finding's trigger opens. Members with a role read
 * them; editors of the site change them.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type PublishedContent, PublishedContent as PublishedContentService } from "@quire/content"
import { Actor, Errors, Ids, Pagination } from "@quire/kernel"
import { aiForConversation, aiForOrganization } from "@quire/outbound"
import { JobQueue } from "@quire/queue"
import {
  apiConnection,
  type ContextRecordType,
  insightsConnection,
  type PageRef,
  type SiteFindingOrderBy,
  type SiteFindingSeverity,
  type SiteFindingStatus,
  type SiteFindingType,
  type SiteScanStatus,
  type StoredFinding,
  type StoredRecord,
  type StoredScan,
  type StoredTopic
} from "../domain/Findings.ts"
import { SiteEventRecorder } from "../insights/SiteEventRecorder.ts"
import { insightsReader } from "../insights/SiteInsights.ts"
import { SiteEventsRepo } from "../insights/SiteEventsRepo.ts"
import { type PublishedSite, PublishedSites } from "../PublishedSites.ts"
import { SiteQuestionRecorder } from "../questions/QuestionRecorder.ts"
import { questionView, type QuestionView, statsOf } from "../questions/QuestionViews.ts"
import { SiteQuestionsRepo } from "../questions/SiteQuestionsRepo.ts"
import * as SiteGuard from "../SiteGuard.ts"
import { cluster, labelOf } from "./Clustering.ts"
import { type Coverage, coverage } from "./DocsCheck.ts"
import { FindingsModel, judgePage, type Judgement, maxRecords, nameTopic } from "./FindingsModel.ts"
import { FindingFixes, type OpenedFix } from "./FindingFixes.ts"
import {
  type FindingPageView,
  findingPageView,
  type FindingStats,
  type FindingView,
  findingView,
  type RecordView,
  recordView,
  type ScanView,
  scanView,
  type TopicView,
  topicView
} from "./FindingViews.ts"
import { asStored, fromEvents, fromQuestions } from "./InsightRecords.ts"
import { SiteContextRepo } from "./SiteContextRepo.ts"

/** The job that runs a scan. */
export const scanTask = "findings.scan"

/** How far back a scan reads the site's questions and events. */
const scanWindowDays = 90
const dayMillis = 24 * 60 * 60 * 1000
/** The most records a call of `upsertSiteContextRecords` takes. */
export const maxRecordsPerUpsert = 100
/** The longest record body kept (characters). */
export const maxRecordBody = 20_000

/** A record as `upsertSiteContextRecords` takes it (GitBook's `ContextRecordInput`). */
export interface RecordInput {
  readonly id: string
  readonly type: ContextRecordType
  readonly title: string
  readonly body: string
  readonly url?: string | undefined
  readonly createdAt?: string | undefined
  readonly metadata?: Readonly<Record<string, string | number>> | undefined
}

export interface RecordsQuery extends Pagination.PageRequest {
  readonly type?: ContextRecordType | undefined
  readonly connector?: string | undefined
  readonly connection?: string | undefined
  readonly topic?: string | undefined
}

export interface FindingsFilter {
  readonly topic?: string | undefined
  readonly question?: string | undefined
  readonly status?: SiteFindingStatus | undefined
  readonly type?: ReadonlyArray<SiteFindingType> | undefined
  readonly severity?: SiteFindingSeverity | undefined
  readonly hasChangeRequests?: boolean | undefined
  /** `questions` or `connection:<id>`. */
  readonly source?: ReadonlyArray<string> | undefined
}

export interface FindingsQuery extends FindingsFilter, Pagination.PageRequest {
  readonly updatedAfter?: string | undefined
  readonly updatedBefore?: string | undefined
  readonly orderBy?: SiteFindingOrderBy | undefined
}

type Read<A> = Effect.Effect<A, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>

export interface SiteFindingsShape {
  readonly listRecords: (organizationId: string, siteId: string, query: RecordsQuery) => Read<Pagination.Page<RecordView>>
  readonly getRecord: (organizationId: string, siteId: string, recordId: string) => Read<RecordView>
  /** GitBook's `upsertSiteContextRecords`: records of the `api` connection, by the pusher's id. */
  readonly upsertRecords: (organizationId: string, siteId: string, inputs: ReadonlyArray<RecordInput>) => Read<void>
  readonly listScans: (organizationId: string, siteId: string, query: Pagination.PageRequest & { readonly topic?: string | undefined; readonly status?: SiteScanStatus | undefined }) => Read<Pagination.Page<ScanView>>
  readonly getScan: (organizationId: string, siteId: string, scanId: string) => Read<ScanView>
  /** Quire's: queues a scan of the site (one at a time: a scan pending or running is answered instead). */
  readonly startScan: (organizationId: string, siteId: string) => Read<ScanView>
  /** Runs a queued scan (the job's). */
  readonly runScan: (siteId: string, scanId: string) => Effect.Effect<void>
  readonly listTopics: (organizationId: string, siteId: string, range: { readonly from?: string | undefined; readonly to?: string | undefined }) => Read<ReadonlyArray<TopicView>>
  readonly getTopic: (organizationId: string, siteId: string, topicId: string) => Read<TopicView>
  readonly updateTopic: (organizationId: string, siteId: string, topicId: string, changeRequests: boolean) => Read<TopicView>
  readonly deleteTopicFindings: (organizationId: string, siteId: string, topicId: string) => Read<void>
  readonly listFindings: (organizationId: string, siteId: string, query: FindingsQuery) => Read<Pagination.Page<FindingView>>
  readonly getFinding: (organizationId: string, siteId: string, findingId: string) => Read<FindingView>
  readonly updateFinding: (organizationId: string, siteId: string, findingId: string, status: SiteFindingStatus) => Read<FindingView>
  /** The change requests opened for the finding, newest first. */
  readonly findingChangeRequests: (organizationId: string, siteId: string, findingId: string, page: Pagination.PageRequest) => Read<Pagination.Page<{ readonly spaceId: string; readonly changeRequestId: string }>>
  /** GitBook's `triggerChangeRequestsForSiteFinding`: opens a change request that fixes the finding. */
  readonly trigger: (organizationId: string, siteId: string, findingId: string) => Read<OpenedFix & { readonly spaceId: string }>
  readonly findingPages: (organizationId: string, siteId: string, findingId: string, page: Pagination.PageRequest) => Read<Pagination.Page<FindingPageView>>
  readonly findingQuestions: (organizationId: string, siteId: string, findingId: string, page: Pagination.PageRequest) => Read<Pagination.Page<QuestionView>>
  readonly findingRecords: (organizationId: string, siteId: string, findingId: string, page: Pagination.PageRequest) => Read<Pagination.Page<RecordView>>
  readonly stats: (organizationId: string, siteId: string, filter: FindingsFilter) => Read<FindingStats>
}

const severityRank: Readonly<Record<SiteFindingSeverity, number>> = { low: 0, medium: 1, high: 2 }

/** The evidence a finding stands on: five records or more is high, two or more medium. */
const severityOf = (evidence: number): SiteFindingSeverity => (evidence >= 5 ? "high" : evidence >= 2 ? "medium" : "low")

const dateOf = (value: string | undefined, field: string) =>
  value === undefined
    ? Effect.succeed(undefined)
    : /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value))
    ? Effect.succeed(Date.parse(value))
    : Effect.fail(new Errors.InvalidInput({ field, reason: "must be a date-time" }))

/** The site's published spaces, the default one first. */
const spacesOf = (site: PublishedSite): ReadonlyArray<string> => {
  const all = [...site.rootSiteSpaces, ...site.sections.flatMap((s) => s.siteSpaces)]
  const first = site.sections.find((s) => s.default)?.siteSpaces.find((s) => s.default) ?? site.rootSiteSpaces.find((s) => s.default) ?? all[0]
  return [...new Set([...(first === undefined ? [] : [first.space.id]), ...all.map((s) => s.space.id)])]
}

const bullet = (text: string) => `- ${text.replace(/\s+/g, " ").replace(/([\\`*_[\]<>#|])/g, "\\$1")}`

/** What the parts of the service share: its ports, the access checks and the lookups. */
const context = Effect.gen(function*() {
    const repo = yield* SiteContextRepo
    const questionsRepo = yield* SiteQuestionsRepo
    const eventsRepo = yield* SiteEventsRepo
    const questionRecorder = yield* SiteQuestionRecorder
    const eventRecorder = yield* SiteEventRecorder
    const publishedSites = yield* PublishedSites
    const published: PublishedContent["Service"] = yield* PublishedContentService
    const ids = yield* Ids.Ids
    const queue = yield* JobQueue
    const fixes = yield* FindingFixes
    const { model } = yield* FindingsModel
    const guard = yield* SiteGuard.make
    const readable = insightsReader(guard)
    const editable = (organizationId: string, siteId: string) => guard.editor(organizationId, siteId, "change the site's findings")
    const nowIso = Effect.map(Clock.currentTimeMillis, (n) => new Date(n).toISOString())

    const found = <A>(what: string, id: string) => (effect: Effect.Effect<Option.Option<A>>) =>
      Effect.flatMap(effect, Option.match({ onNone: () => Effect.fail(new Errors.NotFound({ resource: what, id })), onSome: Effect.succeed }))
    const recordOf = (siteId: string, id: string) => found<StoredRecord>("Context record", id)(repo.record(siteId, id))
    const topicOf = (siteId: string, id: string) => found<StoredTopic>("Site topic", id)(repo.topic(siteId, id))
    const findingOf = (siteId: string, id: string) => found<StoredFinding>("Site finding", id)(repo.finding(siteId, id))
    const scanOf = (siteId: string, id: string) => found<StoredScan>("Site scan", id)(repo.scan(siteId, id))

    const newestFirst = <A extends { readonly createdAt: string; readonly id: string }>(items: ReadonlyArray<A>, request: Pagination.PageRequest) =>
      Effect.flatMap(Pagination.afterOf(request, ["string", "string"]), (after) =>
        Pagination.paginateArray(items, (a) => [a.createdAt, a.id], { order: "desc", after, limit: Pagination.limitOf(request) }))
    /** A list in its own order: the position is the key. */
    const inOrder = <A>(items: ReadonlyArray<A>, request: Pagination.PageRequest) =>
      Effect.flatMap(Pagination.afterOf(request, ["number"]), (after) =>
        Pagination.paginateArray(items.map((item, n) => ({ item, n })), ({ n }) => [n], { order: "asc", after, limit: Pagination.limitOf(request) }))
        .pipe(Effect.map((page) => ({ ...page, items: page.items.map(({ item }) => item) })))

    /** The answers of the site's questions in the scan window (what was just asked included). */
    const recentAnswers = (siteId: string) =>
      Effect.gen(function*() {
        yield* questionRecorder.flush
        const now = yield* Clock.currentTimeMillis
        return yield* questionsRepo.answers(siteId, new Date(now - scanWindowDays * dayMillis), new Date(now + 1), 50_000)
      })

    const topicStats = (topic: StoredTopic, records: ReadonlyArray<StoredRecord>, answers: Effect.Success<ReturnType<typeof recentAnswers>>, now: number) => {
      const asked = new Set(records.filter((r) => topic.records.includes(r.id) && r.questionId !== null).map((r) => r.questionId!))
      return statsOf(answers.filter((a) => asked.has(a.questionId)), asked.size, now)
    }

    const topicViewOf = (siteId: string, topic: StoredTopic) =>
      Effect.gen(function*() {
        const [records, findings, answers] = yield* Effect.all([repo.records(siteId), repo.findings(siteId), recentAnswers(siteId)])
        return topicView(topic, findings, topicStats(topic, records, answers, yield* Clock.currentTimeMillis))
      })

    const matchesFilter = (f: StoredFinding, filter: FindingsFilter) =>
      (filter.topic === undefined || f.topicId === filter.topic) &&
      (filter.question === undefined || f.questions.includes(filter.question)) &&
      (filter.status === undefined || f.status === filter.status) &&
      (filter.type === undefined || filter.type.length === 0 || filter.type.includes(f.type)) &&
      (filter.severity === undefined || f.severity === filter.severity) &&
      (filter.hasChangeRequests === undefined || (f.changeRequests.length > 0) === filter.hasChangeRequests) &&
      (filter.source === undefined || filter.source.length === 0 || filter.source.some((s) =>
        s === "questions" ? f.questions.length > 0 : s.startsWith("connection:") && f.connections.includes(s.slice("connection:".length))))

    const checkSources = (sources: ReadonlyArray<string> | undefined) =>
      Effect.forEach(sources ?? [], (s) =>
        s === "questions" || /^connection:[A-Za-z0-9_-]+$/.test(s)
          ? Effect.void
          : Effect.fail(new Errors.InvalidInput({ field: "source", reason: "is `questions` or `connection:<id>`" })), { discard: true })

  return { repo, questionsRepo, eventsRepo, questionRecorder, eventRecorder, publishedSites, published, ids, queue, fixes, model, guard, readable, editable, nowIso, found, recordOf, topicOf, findingOf, scanOf, newestFirst, inOrder, recentAnswers, topicStats, topicViewOf, matchesFilter, checkSources }
})
type Ctx = Effect.Success<typeof context>

const recordsPart = (c: Ctx) => {
  const { repo, ids, readable, editable, nowIso, recordOf, newestFirst } = c
  // Records ------------------------------------------------------------------------------------

  const listRecords = Effect.fn("SiteFindings.listRecords")(function*(organizationId: string, siteId: string, query: RecordsQuery) {
    yield* readable(organizationId, siteId)
    const kept = (yield* repo.records(siteId)).filter((r) =>
      (query.type === undefined || r.type === query.type) &&
      (query.connector === undefined || r.connector === query.connector) &&
      (query.connection === undefined || r.connectionId === query.connection) &&
      (query.topic === undefined || r.topics.includes(query.topic)))
    const page = yield* newestFirst(kept, query)
    return { ...page, items: page.items.map(recordView) }
  })

  const getRecord = Effect.fn("SiteFindings.getRecord")(function*(organizationId: string, siteId: string, recordId: string) {
    yield* readable(organizationId, siteId)
    return recordView(yield* recordOf(siteId, recordId))
  })

  const upsertRecords = Effect.fn("SiteFindings.upsertRecords")(function*(organizationId: string, siteId: string, inputs: ReadonlyArray<RecordInput>) {
    yield* editable(organizationId, siteId)
    if (inputs.length > maxRecordsPerUpsert) return yield* new Errors.InvalidInput({ field: "body", reason: `holds at most ${maxRecordsPerUpsert} records` })
    const seen = new Set<string>()
    for (const [i, input] of inputs.entries()) {
      if (seen.has(input.id)) return yield* new Errors.InvalidInput({ field: `${i}.id`, reason: "is given twice" })
      seen.add(input.id)
      if (input.body.length > maxRecordBody) return yield* new Errors.InvalidInput({ field: `${i}.body`, reason: `is at most ${maxRecordBody} characters` })
      if (input.title.trim() === "") return yield* new Errors.InvalidInput({ field: `${i}.title`, reason: "must not be blank" })
      yield* dateOf(input.createdAt, `${i}.createdAt`)
    }
    const now = yield* nowIso
    const known = new Map((yield* repo.records(siteId)).filter((r) => r.connectionId === apiConnection).map((r) => [r.externalId, r]))
    const rows = yield* Effect.forEach(inputs, (input) =>
      Effect.map(ids.make, (newId): StoredRecord => {
        const before = known.get(input.id)
        const createdAt = input.createdAt === undefined ? before?.createdAt ?? now : new Date(Date.parse(input.createdAt)).toISOString()
        const changed = before === undefined || before.title !== input.title.trim() || before.body !== input.body
        return {
          id: before?.id ?? newId,
          organizationId,
          siteId,
          connectionId: apiConnection,
          connector: "builtin:api",
          externalId: input.id,
          origin: "api",
          type: input.type,
          title: input.title.trim(),
          body: input.body,
          url: input.url ?? null,
          metadata: input.metadata ?? {},
          questionId: null,
          topics: before?.topics ?? [],
          createdAt,
          updatedAt: now,
          // A record whose text changed is read again by the next scan.
          processedAt: changed ? null : before?.processedAt ?? null
        }
      }))
    yield* repo.putRecords(rows)
  })

  return { listRecords, getRecord, upsertRecords }
}

/** A change request fixing a page the model judged outdated or wrong: a note atop the page, and what the agent is asked. */
const judgedFix = (finding: StoredFinding, pageTitle: string) => ({
  stub: [
    "{% hint style=\"warning\" %}",
    `Opened from a finding of the site's scan (${finding.type === "content-outdated" ? "outdated" : "incorrect"}): ${finding.description.split("\n").filter((l) => l.startsWith(">")).join(" ").replace(/^>\s*/, "")} Check it against what the record says, fix the page and remove this note.`,
    "{% endhint %}"
  ].join("\n"),
  instructions: [
    `A scan of the documentation found that the page "${pageTitle}" in this change request is ${finding.type === "content-outdated" ? "out of date" : "wrong"}:`,
    "",
    finding.description,
    "",
    `Read the page "${pageTitle}", correct what it says there (keep the rest of the page as it is), and remove the note at its top. Where the records do not give the right fact, write what a writer must check as a short note rather than inventing it.`
  ].join("\n")
})

/** The most topics a scan has the model judge, and name: a scan's cost is bounded whatever the records. */
const maxJudgedTopics = 20
const maxNamedTopics = 20

/** Findings of one family replace each other within a topic: the gap (or broken links) and the model's verdict on a page. */
const familyOf = (type: SiteFindingType) => (type === "content-outdated" || type === "content-incorrect" ? "judged" : "gap")

type FindingBase = Pick<StoredFinding, "title" | "description" | "type" | "severity" | "records" | "questions" | "connectors" | "connections" | "pages" | "updatedAt">

/** What a finding of `records` shares whatever its kind. */
const evidenceOf = (records: ReadonlyArray<StoredRecord>) => ({
  severity: severityOf(records.reduce((n, r) => n + (typeof r.metadata["askings"] === "number" ? r.metadata["askings"] : 1), 0)),
  records: records.map((r) => r.id),
  questions: [...new Set(records.flatMap((r) => (r.questionId === null ? [] : [r.questionId])))],
  connectors: [...new Set(records.map((r) => r.connector))],
  connections: [...new Set(records.map((r) => r.connectionId))]
})

const gapFinding = (label: string, gaps: ReadonlyArray<StoredRecord>, pages: ReadonlyArray<PageRef>, at: string): FindingBase => {
  const type: SiteFindingType = gaps.every((r) => r.origin === "not-found") ? "broken-link" : "content-gap"
  return {
    title: type === "broken-link" ? `Pages not found: ${label}` : label,
    description: [
      type === "broken-link"
        ? `Readers reached ${gaps.length} address(es) where the site has no page.`
        : `The docs do not answer ${gaps.length} record(s) about ${label.toLowerCase()}: no page holds what they ask.`,
      "",
      ...gaps.slice(0, 10).map((r) => bullet(r.title))
    ].join("\n"),
    type,
    ...evidenceOf(gaps),
    pages,
    updatedAt: at
  }
}

const quoted = (text: string) => `> ${text.replace(/\s+/g, " ").replace(/([\\`*_[\]<>#|])/g, "\\$1")}`

/** The model's verdict on a page as a finding citing the page's words and the record that shows them wrong. */
const judgedFinding = (page: PageRef, judgement: Judgement, record: StoredRecord, at: string): FindingBase => ({
  title: `${judgement.verdict === "outdated" ? "Outdated" : "Incorrect"}: ${page.title}`.slice(0, 256),
  description: [
    `The page “${page.title}” (${page.path}) says:`,
    "",
    quoted(judgement.quote),
    "",
    `${judgement.verdict === "outdated" ? "It is out of date" : "It is wrong"}, going by the record “${record.title.replace(/\s+/g, " ")}”${record.url === null ? "" : ` (${record.url})`}${judgement.why === "" ? "." : `: ${judgement.why}`}`,
    "",
    "Judged by the model of the site's scan."
  ].join("\n"),
  type: judgement.verdict === "outdated" ? "content-outdated" : "content-incorrect",
  ...evidenceOf([record]),
  pages: [page],
  updatedAt: at
})

const scanPart = (c: Ctx) => {
  const { repo, questionsRepo, eventsRepo, questionRecorder, eventRecorder, publishedSites, published, ids, model } = c

  /** The records of the scan: those stored, and those the site's insights give since. */
  const recordsOf = (scan: StoredScan, now: number, at: string) =>
    Effect.gen(function*() {
      const { siteId, organizationId } = scan
      yield* eventRecorder.flush
      yield* questionRecorder.flush
      const from = new Date(now - scanWindowDays * dayMillis)
      const [questions, answers, events] = yield* Effect.all([
        questionsRepo.questions(siteId),
        questionsRepo.answers(siteId, from, new Date(now + 1), 50_000),
        eventsRepo.inRange(siteId, from, new Date(now + 1), 200_000)
      ])
      const existing = yield* repo.records(siteId)
      const added = yield* asStored({ organizationId, siteId }, [...fromQuestions(questions, answers), ...fromEvents(events)], existing, ids.make, at)
      return [...existing, ...added]
    })

  /** The model's verdict on the page that best answers the topic's records the docs answer; none without a model. */
  const judge = (covered: ReadonlyArray<{ readonly record: StoredRecord; readonly best: NonNullable<Coverage["best"]> }>) =>
    Effect.gen(function*() {
      if (Option.isNone(model) || covered.length === 0) return Option.none()
      const byPage = new Map<string, { best: NonNullable<Coverage["best"]>; records: Array<StoredRecord> }>()
      for (const { best, record } of covered) {
        const key = `${best.page.spaceId}/${best.page.pageId}`
        const entry = byPage.get(key) ?? { best, records: [] }
        byPage.set(key, entry)
        entry.records.push(record)
      }
      // The page most of the records point to.
      const page = [...byPage.values()].toSorted((a, b) => b.records.length - a.records.length || b.best.share - a.best.share)[0]!
      const sent = page.records.slice(0, maxRecords)
      const judgement = yield* judgePage(model.value, page.best.page.title, page.best.passages, sent)
      return Option.map(judgement, (j) => ({ page: page.best.page, judgement: j, record: sent[j.record]! }))
    })

  const scanOnce = (scan: StoredScan) =>
    Effect.gen(function*() {
      const { siteId, organizationId } = scan
      const now = yield* Clock.currentTimeMillis
      const at = new Date(now).toISOString()
      const records = yield* recordsOf(scan, now, at)
      const site = Option.getOrUndefined(yield* publishedSites.byId(siteId))
      const spaceIds = site === undefined ? [] : spacesOf(site)
      const topics = yield* repo.topics(siteId)
      const findings = yield* repo.findings(siteId)
      const clusters = cluster(records, topics.map((t) => ({ key: t.id, keywords: t.keywords })))

      const savedTopics: Array<StoredTopic> = []
      const savedFindings: Array<StoredFinding> = []
      const topicsOfRecord = new Map<string, Array<string>>()
      const counts = { low: 0, medium: 0, high: 0 }
      let judged = 0
      let named = 0
      /** The topic's finding of `base`'s family: the open one updated, else a new one, unless one closed already stands on the same records. */
      const keep = (topicId: string, base: FindingBase) =>
        Effect.gen(function*() {
          const family = familyOf(base.type)
          const own = findings.filter((f) => f.topicId === topicId && familyOf(f.type) === family)
          const open = own.find((f) => f.status === "open" || f.status === "candidate")
          if (open === undefined && own.some((f) => (f.status === "done" || f.status === "canceled") && base.records.every((r) => f.records.includes(r)))) return
          savedFindings.push(open === undefined
            ? { id: yield* ids.make, organizationId, siteId, scanId: scan.id, topicId, status: "open", changeRequests: [], createdAt: at, ...base }
            : { ...open, ...base, scanId: scan.id })
          counts[base.severity]++
        })

      for (const c of clusters) {
        const before = c.seed === undefined ? undefined : topics.find((t) => t.id === c.seed)
        const topicId = before?.id ?? (yield* ids.make)
        for (const r of c.members) topicsOfRecord.set(r.id, [...(topicsOfRecord.get(r.id) ?? []), topicId])
        // Each record checked against the docs; the pages about them are the topic's.
        const pages = new Map<string, PageRef>()
        // The pages about the records the docs do not answer: those a fix may change.
        const gapPages = new Map<string, PageRef>()
        const gaps: Array<StoredRecord> = []
        const covered: Array<{ record: StoredRecord; best: NonNullable<Coverage["best"]> }> = []
        for (const r of c.members) {
          const found = yield* coverage(published, spaceIds, r.title)
          for (const p of found.pages) pages.set(`${p.spaceId}/${p.pageId}`, p)
          if (found.answered) {
            if (found.best !== undefined) covered.push({ record: r, best: found.best })
            continue
          }
          gaps.push(r)
          for (const p of found.pages) gapPages.set(`${p.spaceId}/${p.pageId}`, p)
        }
        // The model is asked again only about what changed: a new topic, or records new or changed since the last scan.
        const changed = before === undefined || c.members.some((r) => r.processedAt === null || !before.records.includes(r.id))
        const written = Option.isSome(model) && changed && named < maxNamedTopics
          ? yield* Effect.tap(nameTopic(model.value, c.members.map((r) => r.title)), () => Effect.sync(() => void named++))
          : Option.none<string>()
        const label = Option.getOrElse(written, () => before?.label ?? labelOf(c.words, c.members.map((r) => r.title)))
        const topic: StoredTopic = {
          id: topicId,
          organizationId,
          siteId,
          keywords: c.keywords,
          label,
          summary: `${c.members.length} record(s) about ${c.words.slice(0, 5).join(", ")}; ${gaps.length} the docs do not answer.`,
          changeRequests: before?.changeRequests ?? true,
          pages: [...pages.values()],
          records: c.members.map((r) => r.id),
          createdAt: before?.createdAt ?? at,
          updatedAt: at
        }
        savedTopics.push(topic)
        if (gaps.length > 0) yield* keep(topicId, gapFinding(label, gaps, [...gapPages.values()], at))
        const fresh = covered.filter(({ record }) => record.processedAt === null)
        if (fresh.length > 0 && judged < maxJudgedTopics) {
          judged++
          const verdict = yield* judge(covered)
          if (Option.isSome(verdict)) yield* keep(topicId, judgedFinding(verdict.value.page, verdict.value.judgement, verdict.value.record, at))
        }
      }
      const processed = records.map((r): StoredRecord => ({ ...r, topics: topicsOfRecord.get(r.id) ?? r.topics, processedAt: at }))
      const done: StoredScan = { ...scan, status: "done", finishedAt: new Date(yield* Clock.currentTimeMillis).toISOString(), findings: counts, withModel: Option.isSome(model) }
      yield* repo.saveScan(done, savedTopics, savedFindings, processed)
    }).pipe(aiForOrganization(scan.organizationId), aiForConversation(scan.id, "findings"))

  return { scanOnce }
}

const scansPart = (c: Ctx, scanOnce: (scan: StoredScan) => Effect.Effect<void>) => {
  const { repo, ids, queue, readable, editable, nowIso, scanOf, newestFirst } = c
  // Scans --------------------------------------------------------------------------------------

  const listScans = Effect.fn("SiteFindings.listScans")(function*(
    organizationId: string,
    siteId: string,
    query: Pagination.PageRequest & { readonly topic?: string | undefined; readonly status?: SiteScanStatus | undefined }
  ) {
    yield* readable(organizationId, siteId)
    const scans = (yield* repo.scans(siteId)).filter((s) =>
      (query.status === undefined || s.status === query.status) && (query.topic === undefined || s.topic === query.topic))
    const page = yield* newestFirst(scans, query)
    return { ...page, items: page.items.map(scanView) }
  })

  const getScan = Effect.fn("SiteFindings.getScan")(function*(organizationId: string, siteId: string, scanId: string) {
    yield* readable(organizationId, siteId)
    return scanView(yield* scanOf(siteId, scanId))
  })

  const startScan = Effect.fn("SiteFindings.startScan")(function*(organizationId: string, siteId: string) {
    yield* editable(organizationId, siteId)
    const under = (yield* repo.scans(siteId)).find((s) => s.status === "pending" || s.status === "running")
    if (under !== undefined) return scanView(under)
    const scan: StoredScan = {
      id: yield* ids.make,
      organizationId,
      siteId,
      topic: null,
      status: "pending",
      createdAt: yield* nowIso,
      startedAt: null,
      finishedAt: null,
      findings: { low: 0, medium: 0, high: 0 },
      failureMessage: null
    }
    yield* repo.putScan(scan)
    yield* queue.enqueue(scanTask, { siteId, scanId: scan.id }, { jobKey: `${scanTask}:${scan.id}`, maxAttempts: 3 })
    return scanView(scan)
  })

  /** The scan itself: records from insights, clustered into topics, each checked against the docs. */
  const runScan = Effect.fn("SiteFindings.runScan")(function*(siteId: string, scanId: string) {
    const found = yield* repo.scan(siteId, scanId)
    if (Option.isNone(found) || found.value.status === "done" || found.value.status === "failed") return
    const running: StoredScan = { ...found.value, status: "running", startedAt: yield* nowIso }
    yield* repo.putScan(running)
    yield* scanOnce(running).pipe(
      Effect.catchCause((cause) =>
        Effect.gen(function*() {
          yield* Effect.logWarning("A site scan failed", cause)
          yield* repo.putScan({ ...running, status: "failed", finishedAt: yield* nowIso, failureMessage: "The scan failed; see the server's log." })
        }))
    )
  })

  return { listScans, getScan, startScan, runScan }
}

const topicsPart = (c: Ctx) => {
  const { repo, readable, editable, nowIso, topicOf, recentAnswers, topicStats, topicViewOf } = c
  // Topics -------------------------------------------------------------------------------------

  const listTopics = Effect.fn("SiteFindings.listTopics")(function*(organizationId: string, siteId: string, range: { readonly from?: string | undefined; readonly to?: string | undefined }) {
    yield* readable(organizationId, siteId)
    const from = yield* dateOf(range.from, "from")
    const to = yield* dateOf(range.to, "to")
    const [topics, records, findings, answers] = yield* Effect.all([repo.topics(siteId), repo.records(siteId), repo.findings(siteId), recentAnswers(siteId)])
    const now = yield* Clock.currentTimeMillis
    const kept = answers.filter((a) => (from === undefined || a.at.getTime() >= from) && (to === undefined || a.at.getTime() <= to))
    return topics.map((t) => topicView(t, findings, topicStats(t, records, kept, now)))
  })

  const getTopic = Effect.fn("SiteFindings.getTopic")(function*(organizationId: string, siteId: string, topicId: string) {
    yield* readable(organizationId, siteId)
    return yield* topicViewOf(siteId, yield* topicOf(siteId, topicId))
  })

  const updateTopic = Effect.fn("SiteFindings.updateTopic")(function*(organizationId: string, siteId: string, topicId: string, changeRequests: boolean) {
    yield* editable(organizationId, siteId)
    const topic = { ...(yield* topicOf(siteId, topicId)), changeRequests, updatedAt: yield* nowIso }
    yield* repo.putTopic(topic)
    return yield* topicViewOf(siteId, topic)
  })

  const deleteTopicFindings = Effect.fn("SiteFindings.deleteTopicFindings")(function*(organizationId: string, siteId: string, topicId: string) {
    yield* editable(organizationId, siteId)
    yield* topicOf(siteId, topicId)
    yield* repo.removeTopicFindings(siteId, topicId)
  })

  return { listTopics, getTopic, updateTopic, deleteTopicFindings }
}

const findingsPart = (c: Ctx) => {
  const { repo, questionsRepo, publishedSites, fixes, readable, editable, nowIso, findingOf, inOrder, recentAnswers, matchesFilter, checkSources } = c
  // Findings -----------------------------------------------------------------------------------

  const listFindings = Effect.fn("SiteFindings.listFindings")(function*(organizationId: string, siteId: string, query: FindingsQuery) {
    yield* readable(organizationId, siteId)
    yield* checkSources(query.source)
    const after = yield* dateOf(query.updatedAfter, "updatedAfter")
    const before = yield* dateOf(query.updatedBefore, "updatedBefore")
    const kept = (yield* repo.findings(siteId)).filter((f) =>
      matchesFilter(f, query) &&
      (after === undefined || Date.parse(f.updatedAt) >= after) &&
      (before === undefined || Date.parse(f.updatedAt) < before))
    const orderBy = query.orderBy ?? "createdAt"
    const cursor = yield* Pagination.afterOf(query, orderBy === "severity" ? ["number", "string", "string"] : ["string", "string"])
    const page = yield* Pagination.paginateArray(
      kept,
      (f): Pagination.CursorKey => orderBy === "severity" ? [severityRank[f.severity], f.createdAt, f.id] : [orderBy === "updatedAt" ? f.updatedAt : f.createdAt, f.id],
      { order: "desc", after: cursor, limit: Pagination.limitOf(query) }
    )
    return { ...page, items: page.items.map(findingView) }
  })

  const getFinding = Effect.fn("SiteFindings.getFinding")(function*(organizationId: string, siteId: string, findingId: string) {
    yield* readable(organizationId, siteId)
    return findingView(yield* findingOf(siteId, findingId))
  })

  const updateFinding = Effect.fn("SiteFindings.updateFinding")(function*(organizationId: string, siteId: string, findingId: string, status: SiteFindingStatus) {
    yield* editable(organizationId, siteId)
    const finding = { ...(yield* findingOf(siteId, findingId)), status, updatedAt: yield* nowIso }
    yield* repo.putFinding(finding)
    return findingView(finding)
  })

  const readFinding = (organizationId: string, siteId: string, findingId: string) =>
    Effect.andThen(readable(organizationId, siteId), findingOf(siteId, findingId))

  const findingChangeRequests = Effect.fn("SiteFindings.findingChangeRequests")(function*(organizationId: string, siteId: string, findingId: string, page: Pagination.PageRequest) {
    const finding = yield* readFinding(organizationId, siteId, findingId)
    return yield* inOrder(finding.changeRequests.toReversed().map(({ changeRequestId, spaceId }) => ({ changeRequestId, spaceId })), page)
  })

  const trigger = Effect.fn("SiteFindings.trigger")(function*(organizationId: string, siteId: string, findingId: string) {
    yield* editable(organizationId, siteId)
    const finding = yield* findingOf(siteId, findingId)
    const site = Option.getOrUndefined(yield* publishedSites.byId(siteId))
    const spaceId = finding.pages[0]?.spaceId ?? (site === undefined ? undefined : spacesOf(site)[0])
    if (spaceId === undefined) return yield* new Errors.InvalidInput({ field: "siteFindingId", reason: "the site publishes no space to fix the finding in: publish it first" })
    const records = (yield* repo.records(siteId)).filter((r) => finding.records.includes(r.id))
    const topic = finding.topicId === null ? undefined : Option.getOrUndefined(yield* repo.topic(siteId, finding.topicId))
    const pageTitle = topic?.label ?? finding.title
    const asked = records.map((r) => bullet(r.title))
    const related = finding.pages.map((p) => `- ${p.title} (${p.path})`)
    const stub = [
      "{% hint style=\"info\" %}",
      "Opened from a finding of the site's scan: readers asked what the docs did not answer. No model drafted this page: it holds their questions for a writer to answer. With a model (QUIRE_AI_URL), the agent drafts the page from the space's other pages.",
      "{% endhint %}",
      "",
      "## What readers asked",
      "",
      ...asked,
      ...(related.length === 0 ? [] : ["", "## Pages about it", "", ...related])
    ].join("\n")
    const instructions = [
      `Readers of the documentation asked the following, and no page answered them. The page "${pageTitle}" in this change request holds their questions.`,
      "",
      ...asked,
      "",
      `Rewrite the page "${pageTitle}" so that it answers them, using what the space's other pages say (read them first). Where the docs give no fact, write what a writer must add as a short note rather than inventing it. Keep it brief.`
    ].join("\n")
    const target = familyOf(finding.type) === "judged" ? finding.pages[0] : undefined
    const opened = yield* fixes.open(target === undefined
      ? { spaceId, subject: `Fix: ${finding.title}`.slice(0, 255), pageTitle, stub, instructions }
      : { spaceId, subject: `Fix: ${finding.title}`.slice(0, 255), pageTitle: target.title, pageId: target.pageId, ...judgedFix(finding, target.title) })
    const now = yield* nowIso
    yield* repo.putFinding({
      ...finding,
      changeRequests: [...finding.changeRequests, { spaceId, changeRequestId: opened.changeRequestId, drafted: opened.drafted }],
      updatedAt: now
    })
    return { ...opened, spaceId }
  })

  const findingPages = Effect.fn("SiteFindings.findingPages")(function*(organizationId: string, siteId: string, findingId: string, page: Pagination.PageRequest) {
    const finding = yield* readFinding(organizationId, siteId, findingId)
    return yield* inOrder(finding.pages.map(findingPageView), page)
  })

  const findingQuestions = Effect.fn("SiteFindings.findingQuestions")(function*(organizationId: string, siteId: string, findingId: string, page: Pagination.PageRequest) {
    const finding = yield* readFinding(organizationId, siteId, findingId)
    const answers = yield* recentAnswers(siteId)
    const now = yield* Clock.currentTimeMillis
    const views: Array<QuestionView> = []
    for (const id of finding.questions) {
      const question = yield* questionsRepo.question(siteId, id)
      // A question past the insights' retention is gone.
      if (Option.isSome(question)) views.push(questionView(question.value, answers.filter((a) => a.questionId === id), now))
    }
    return yield* inOrder(views, page)
  })

  const findingRecords = Effect.fn("SiteFindings.findingRecords")(function*(organizationId: string, siteId: string, findingId: string, page: Pagination.PageRequest) {
    const finding = yield* readFinding(organizationId, siteId, findingId)
    const byId = new Map((yield* repo.records(siteId)).map((r) => [r.id, r]))
    return yield* inOrder(finding.records.flatMap((id) => { const r = byId.get(id); return r === undefined ? [] : [recordView(r)] }), page)
  })

  const stats = Effect.fn("SiteFindings.stats")(function*(organizationId: string, siteId: string, filter: FindingsFilter) {
    yield* readable(organizationId, siteId)
    yield* checkSources(filter.source)
    const kept = (yield* repo.findings(siteId)).filter((f) => matchesFilter(f, filter))
    const connectors: Record<string, number> = {}
    for (const f of kept) for (const c of f.connectors) connectors[c] = (connectors[c] ?? 0) + 1
    return {
      total: kept.length,
      statuses: {
        open: kept.filter((f) => f.status === "open" || f.status === "candidate").length,
        done: kept.filter((f) => f.status === "done").length,
        canceled: kept.filter((f) => f.status === "canceled").length
      },
      severities: {
        low: kept.filter((f) => f.severity === "low").length,
        medium: kept.filter((f) => f.severity === "medium").length,
        high: kept.filter((f) => f.severity === "high").length
      },
      connectors,
      questions: new Set(kept.flatMap((f) => f.questions)).size,
      mergedChangeRequests: yield* fixes.merged(kept.flatMap((f) => f.changeRequests))
    }
  })

  return { listFindings, getFinding, updateFinding, findingChangeRequests, trigger, findingPages, findingQuestions, findingRecords, stats }
}

export class SiteFindings extends Context.Service<SiteFindings, SiteFindingsShape>()("@quire/sites/SiteFindings") {
  static readonly layer = Layer.effect(
    SiteFindings,
    Effect.gen(function*() {
      const c = yield* context
      return SiteFindings.of({ ...recordsPart(c), ...scansPart(c, scanPart(c).scanOnce), ...topicsPart(c), ...findingsPart(c) })
    })
  )
}

export { insightsConnection }
