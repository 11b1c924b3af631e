/**
 * A site's findings (GitBook's `site-context`): context records (tickets, issues, questions readers
 * could not get answered), the connections that bring them in, the topics a scan clusters them
 * into, the scans, and the findings a scan makes where the docs do not answer a topic. Instants
 * are ISO strings: these are stored as JSON.
 */
import { Schema } from "effect"

/** GitBook's `ContextRecordType`. */
export const ContextRecordType = Schema.Literals(["ticket", "document"])
export type ContextRecordType = typeof ContextRecordType.Type

/** GitBook's built-in connectors. */
export const BuiltinConnector = Schema.Literals([
  "builtin:email",
  "builtin:api",
  "builtin:website",
  "builtin:youtube",
  "builtin:github-discussions",
  "builtin:github-issues",
  "builtin:intercom",
  "builtin:front",
  "builtin:zendesk",
  "builtin:zoho-desk",
  "builtin:freshdesk",
  "builtin:pylon",
  "builtin:hubspot",
  "builtin:linear",
  "builtin:jira"
])
/** GitBook's `ContextConnector`: a built-in one or `integration:<name>`. */
export const ContextConnector = Schema.Union([BuiltinConnector, Schema.TemplateLiteral(["integration:", Schema.String])])
export type ContextConnector = typeof ContextConnector.Type

/** The connection of records Quire derives from the site's own insights (its questions, searches, feedback, 404s). */
export const insightsConnection = "site-insights"
export const insightsConnector = "integration:site-insights" as const
/** The connection of records pushed through `upsertSiteContextRecords` (any help desk). */
export const apiConnection = "api"

/** Where a record came from, in the site's insights or elsewhere. */
export const RecordOrigin = Schema.Literals(["question", "search", "feedback", "not-found", "api", "website", "issue"])
export type RecordOrigin = typeof RecordOrigin.Type

/** GitBook's `SiteScanStatus`. */
export const SiteScanStatus = Schema.Literals(["pending", "running", "done", "failed"])
export type SiteScanStatus = typeof SiteScanStatus.Type

/** GitBook's `SiteFindingStatus`. */
export const SiteFindingStatus = Schema.Literals(["candidate", "open", "done", "canceled"])
export type SiteFindingStatus = typeof SiteFindingStatus.Type

/** GitBook's `SiteFindingType`. */
export const SiteFindingType = Schema.Literals(["content-outdated", "content-incorrect", "content-gap", "broken-link", "outbound-link-error", "other"])
export type SiteFindingType = typeof SiteFindingType.Type

/** GitBook's `SiteFindingSeverity`. */
export const SiteFindingSeverity = Schema.Literals(["low", "medium", "high"])
export type SiteFindingSeverity = typeof SiteFindingSeverity.Type

/** GitBook's `SiteFindingOrderBy`. */
export const SiteFindingOrderBy = Schema.Literals(["createdAt", "updatedAt", "severity"])
export type SiteFindingOrderBy = typeof SiteFindingOrderBy.Type

/** GitBook's `ContextConnectionStatus`. */
export const ContextConnectionStatus = Schema.Literals(["pending", "syncing", "succeeded", "failed"])
export type ContextConnectionStatus = typeof ContextConnectionStatus.Type

/** GitBook's `ContextConnectionFailureReason`. */
export const ContextConnectionFailureReason = Schema.Literals(["authentication", "misconfigured", "rate_limited", "upstream_unavailable", "unknown"])
export type ContextConnectionFailureReason = typeof ContextConnectionFailureReason.Type

/** GitBook's `ContextSearchBoost`. */
export const ContextSearchBoost = Schema.Literals(["x0.8", "x1.0", "x1.2"])

/** GitBook's `ContextUsageSettings`. */
export const ContextUsageSettings = Schema.Struct({
  changeRequests: Schema.Boolean,
  search: Schema.Boolean,
  sync: Schema.optionalKey(Schema.Boolean),
  searchBoost: ContextSearchBoost
})
export type ContextUsageSettings = typeof ContextUsageSettings.Type

/** A page of the docs a topic or a finding is about. */
export const PageRef = Schema.Struct({ spaceId: Schema.String, pageId: Schema.String, title: Schema.String, path: Schema.String })
export type PageRef = typeof PageRef.Type

/** One record of context. */
export const StoredRecord = Schema.Struct({
  id: Schema.String,
  organizationId: Schema.String,
  siteId: Schema.String,
  connectionId: Schema.String,
  connector: Schema.String,
  /** Its id where it came from (the pusher's, the number, the question's id): one record per connection and id. */
  externalId: Schema.String,
  origin: RecordOrigin,
  type: ContextRecordType,
  title: Schema.String,
  body: Schema.String,
  url: Schema.NullOr(Schema.String),
  metadata: Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Finite])),
  /** The site question it stands for, when it is one. */
  questionId: Schema.NullOr(Schema.String),
  topics: Schema.Array(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  processedAt: Schema.NullOr(Schema.String)
})
export type StoredRecord = typeof StoredRecord.Type

/** A cluster of records about one subject. */
export const StoredTopic = Schema.Struct({
  id: Schema.String,
  organizationId: Schema.String,
  siteId: Schema.String,
  /** Its words, which the next scan matches its clusters against. */
  keywords: Schema.Array(Schema.String),
  label: Schema.String,
  summary: Schema.String,
  changeRequests: Schema.Boolean,
  pages: Schema.Array(PageRef),
  records: Schema.Array(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type StoredTopic = typeof StoredTopic.Type

export const SeverityCounts = Schema.Struct({ low: Schema.Finite, medium: Schema.Finite, high: Schema.Finite })
export type SeverityCounts = typeof SeverityCounts.Type

/** A scan of the site's records against its docs. */
export const StoredScan = Schema.Struct({
  id: Schema.String,
  organizationId: Schema.String,
  siteId: Schema.String,
  topic: Schema.NullOr(Schema.String),
  status: SiteScanStatus,
  createdAt: Schema.String,
  startedAt: Schema.NullOr(Schema.String),
  finishedAt: Schema.NullOr(Schema.String),
  findings: SeverityCounts,
  failureMessage: Schema.NullOr(Schema.String),
  /** Whether it ran with a model (judging pages, naming topics); absent before it ran. */
  withModel: Schema.optionalKey(Schema.Boolean)
})
export type StoredScan = typeof StoredScan.Type

export const ChangeRequestRef = Schema.Struct({ spaceId: Schema.String, changeRequestId: Schema.String, drafted: Schema.Boolean })
export type ChangeRequestRef = typeof ChangeRequestRef.Type

/** Something the docs lack or get wrong, with the records and questions that show it. */
export const StoredFinding = Schema.Struct({
  id: Schema.String,
  organizationId: Schema.String,
  siteId: Schema.String,
  scanId: Schema.String,
  topicId: Schema.NullOr(Schema.String),
  title: Schema.String,
  /** Markdown. */
  description: Schema.String,
  status: SiteFindingStatus,
  type: SiteFindingType,
  severity: SiteFindingSeverity,
  records: Schema.Array(Schema.String),
  questions: Schema.Array(Schema.String),
  connectors: Schema.Array(Schema.String),
  connections: Schema.Array(Schema.String),
  pages: Schema.Array(PageRef),
  changeRequests: Schema.Array(ChangeRequestRef),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type StoredFinding = typeof StoredFinding.Type

/** How a connection is set up: the connectors that can run here. */
export const ConnectionSetup = Schema.Union([
  Schema.Struct({ connector: Schema.Literal("builtin:website"), url: Schema.String }),
  Schema.Struct({ connector: Schema.Literal("builtin:github-issues"), repository: Schema.String, sealedToken: Schema.String, apiUrl: Schema.NullOr(Schema.String) })
])
export type ConnectionSetup = typeof ConnectionSetup.Type

/** A source of records the site pulls from. */
export const StoredConnection = Schema.Struct({
  id: Schema.String,
  organizationId: Schema.String,
  siteId: Schema.String,
  setup: ConnectionSetup,
  label: Schema.NullOr(Schema.String),
  filter: Schema.NullOr(Schema.String),
  usage: ContextUsageSettings,
  status: ContextConnectionStatus,
  failureMessage: Schema.NullOr(Schema.String),
  failureReason: Schema.NullOr(ContextConnectionFailureReason),
  syncedAt: Schema.NullOr(Schema.String),
  /** When its last sync started, however it went: the schedule waits from it. */
  attemptedAt: Schema.optionalKey(Schema.String),
  createdAt: Schema.String
})
export type StoredConnection = typeof StoredConnection.Type
