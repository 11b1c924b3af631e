/** GitBook's shapes of a site's context records, topics, scans and findings, without their `urls.location` (the API's). */
import type { ContextRecordType, PageRef, SeverityCounts, SiteFindingSeverity, SiteFindingStatus, SiteFindingType, SiteScanStatus, StoredFinding, StoredRecord, StoredScan, StoredTopic } from "../domain/Findings.ts"
import type { QuestionStats } from "../questions/QuestionViews.ts"
import { withoutModel } from "./FindingsModel.ts"

export interface RecordView {
  readonly object: "context-record"
  readonly id: string
  readonly title: string
  readonly description?: string
  readonly type: ContextRecordType
  readonly createdAt: string
  readonly processedAt?: string
  readonly connection: string
  readonly connector: string
  readonly topics: ReadonlyArray<string>
  /** Where the record is at its source (a ticket's, an issue's page). */
  readonly source: string | undefined
  /** Quire's: where it came from (`question`, `search`, `feedback`, `not-found`, `api`, `website`, `issue`). */
  readonly origin: StoredRecord["origin"]
}

export const recordView = (r: StoredRecord): RecordView => ({
  object: "context-record",
  id: r.id,
  title: r.title,
  ...(r.body === "" ? {} : { description: r.body.length > 512 ? `${r.body.slice(0, 511)}…` : r.body }),
  type: r.type,
  createdAt: r.createdAt,
  ...(r.processedAt === null ? {} : { processedAt: r.processedAt }),
  connection: r.connectionId,
  connector: r.connector,
  topics: r.topics,
  source: r.url ?? undefined,
  origin: r.origin
})

export interface ScanView {
  readonly object: "site-scan"
  readonly id: string
  readonly status: SiteScanStatus
  readonly topic: string | null
  readonly createdAt: string
  readonly startedAt?: string
  readonly finishedAt?: string
  readonly findings: SeverityCounts
  readonly failureMessage?: string
  /** Quire's: the scan ran without a model, and what one would add. */
  readonly withoutModel?: string
}

export const scanView = (s: StoredScan): ScanView => ({
  object: "site-scan",
  id: s.id,
  status: s.status,
  topic: s.topic,
  createdAt: s.createdAt,
  ...(s.startedAt === null ? {} : { startedAt: s.startedAt }),
  ...(s.finishedAt === null ? {} : { finishedAt: s.finishedAt }),
  findings: s.findings,
  ...(s.failureMessage === null ? {} : { failureMessage: s.failureMessage }),
  ...(s.withModel === false ? { withoutModel } : {})
})

export interface TopicView {
  readonly object: "context-topic"
  readonly id: string
  readonly label: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly icon: string
  /** Markdown (the API gives it as a document). */
  readonly summary: string
  readonly usageSettings: { readonly changeRequests: boolean }
  readonly pages: number
  readonly records: number
  readonly findings: { readonly open: number; readonly total: number }
  readonly questions: QuestionStats
}

export const topicView = (t: StoredTopic, findings: ReadonlyArray<StoredFinding>, questions: QuestionStats): TopicView => {
  const own = findings.filter((f) => f.topicId === t.id)
  return {
    object: "context-topic",
    id: t.id,
    label: t.label,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    icon: "lightbulb",
    summary: t.summary,
    usageSettings: { changeRequests: t.changeRequests },
    pages: t.pages.length,
    records: t.records.length,
    findings: { open: own.filter((f) => f.status === "open" || f.status === "candidate").length, total: own.length },
    questions
  }
}

export interface FindingView {
  readonly object: "site-finding"
  readonly id: string
  readonly scan: string
  readonly topic: string | null
  readonly title: string
  readonly changeRequests: number
  readonly pages: number
  readonly records: number
  readonly questions: number
  readonly status: SiteFindingStatus
  readonly type: SiteFindingType
  readonly severity: SiteFindingSeverity
  /** Markdown (the API gives it as a document). */
  readonly description: string
  readonly autoFixable: boolean
  readonly createdAt: string
  readonly updatedAt: string
}

export const findingView = (f: StoredFinding): FindingView => ({
  object: "site-finding",
  id: f.id,
  scan: f.scanId,
  topic: f.topicId,
  title: f.title,
  changeRequests: f.changeRequests.length,
  pages: f.pages.length,
  records: f.records.length,
  questions: f.questions.length,
  status: f.status,
  type: f.type,
  severity: f.severity,
  description: f.description,
  autoFixable: f.type === "content-gap" || f.type === "content-outdated" || f.type === "content-incorrect",
  createdAt: f.createdAt,
  updatedAt: f.updatedAt
})

export interface FindingPageView {
  readonly object: "site-finding-page"
  readonly spaceId: string
  readonly page: { readonly id: string; readonly type: "document"; readonly title: string; readonly path: string }
}

export const findingPageView = (p: PageRef): FindingPageView => ({
  object: "site-finding-page",
  spaceId: p.spaceId,
  page: { id: p.pageId, type: "document", title: p.title, path: p.path }
})

export interface FindingStats {
  readonly total: number
  readonly statuses: { readonly open: number; readonly done: number; readonly canceled: number }
  readonly severities: SeverityCounts
  readonly connectors: Readonly<Record<string, number>>
  readonly questions: number
  readonly mergedChangeRequests: number
}
