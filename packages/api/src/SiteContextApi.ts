/**
 * GitBook's `site-context` operations (findings): context records (a site's unanswered questions,
 * failed searches, bad ratings and 404s; what a help desk pushes; what a connection pulls), the
 * connections, the topics scans cluster records into, the scans, and the findings they make where
 * the docs do not answer, each of which can open a change request that fixes it.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  ContextConnectionFailureReason,
  ContextConnectionStatus,
  ContextConnector,
  ContextRecordType,
  ContextSearchBoost,
  RecordOrigin,
  SiteFindingOrderBy,
  SiteFindingSeverity,
  SiteFindingStatus,
  SiteFindingType,
  SiteScanStatus
} from "@quire/sites/domain/Findings"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { DateTime, EntityId, JSONDocument, ListOf, PageQuery, Text, Timestamp, Url } from "./Schemas.ts"
import { ChangeRequest } from "./ChangeRequestsApi.ts"
import { SiteQuestion, SiteQuestionStats } from "./SiteQuestionsApi.ts"
import { siteParams } from "./SiteSchemas.ts"

const Location = Schema.Struct({ location: Schema.String })
const Counts = Schema.Struct({ low: Schema.Finite, medium: Schema.Finite, high: Schema.Finite })

/** GitBook's `ContextRecord`, with Quire's `origin`. */
export const ContextRecord = Schema.Struct({
  object: Schema.Literal("context-record"),
  id: Schema.String,
  title: Schema.String,
  description: Schema.optionalKey(Schema.String),
  type: ContextRecordType,
  createdAt: Timestamp,
  processedAt: Schema.optionalKey(Timestamp),
  connection: Schema.String,
  connector: Schema.String,
  topics: Schema.Array(Schema.String),
  urls: Schema.Struct({ location: Schema.String, source: Schema.optionalKey(Schema.String) }),
  /** Quire's: where the record came from (`question`, `search`, `feedback`, `not-found` are the site's insights). */
  origin: RecordOrigin
}).annotate({ identifier: "ContextRecord" })
export type ContextRecord = typeof ContextRecord.Type

/** GitBook's `ContextRecordInput`. */
export const ContextRecordInput = Schema.Struct({
  id: Text.check(Schema.isMinLength(1), Schema.isMaxLength(256)),
  type: ContextRecordType,
  title: Text.check(Schema.isMinLength(1), Schema.isMaxLength(256)),
  body: Text,
  url: Schema.optionalKey(Url),
  createdAt: Schema.optionalKey(DateTime),
  metadata: Schema.optionalKey(Schema.Record(Text.check(Schema.isMaxLength(100)), Schema.Union([Text.check(Schema.isMaxLength(1000)), Schema.Finite])))
}).annotate({ identifier: "ContextRecordInput" })

/** GitBook's `SiteScan`, with Quire's `withoutModel`. */
export const SiteScan = Schema.Struct({
  object: Schema.Literal("site-scan"),
  id: Schema.String,
  status: SiteScanStatus,
  topic: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  startedAt: Schema.optionalKey(Timestamp),
  finishedAt: Schema.optionalKey(Timestamp),
  findings: Counts,
  failureMessage: Schema.optionalKey(Schema.String),
  /** Quire's: the scan ran without a model; what one would add and how to set it. */
  withoutModel: Schema.optionalKey(Schema.String),
  urls: Location
}).annotate({ identifier: "SiteScan" })
export type SiteScan = typeof SiteScan.Type

/** GitBook's `SiteFinding`. */
export const SiteFinding = Schema.Struct({
  object: Schema.Literal("site-finding"),
  id: Schema.String,
  scan: Schema.String,
  topic: Schema.NullOr(Schema.String),
  title: Schema.String,
  changeRequests: Schema.Finite,
  pages: Schema.Finite,
  records: Schema.Finite,
  questions: Schema.Finite,
  status: SiteFindingStatus,
  type: SiteFindingType,
  severity: SiteFindingSeverity,
  description: JSONDocument,
  autoFixable: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Location
}).annotate({ identifier: "SiteFinding" })
export type SiteFinding = typeof SiteFinding.Type

/** GitBook's `SiteFindingPage`. */
export const SiteFindingPage = Schema.Struct({
  object: Schema.Literal("site-finding-page"),
  spaceId: Schema.String,
  page: Schema.Struct({ id: Schema.String, type: Schema.Literal("document"), title: Schema.String, path: Schema.String })
}).annotate({ identifier: "SiteFindingPage" })

/** GitBook's `SiteFindingStats`. */
export const SiteFindingStats = Schema.Struct({
  total: Schema.Finite,
  statuses: Schema.Struct({ open: Schema.Finite, done: Schema.Finite, canceled: Schema.Finite }),
  severities: Counts,
  connectors: Schema.Record(Schema.String, Schema.Finite),
  questions: Schema.Finite,
  mergedChangeRequests: Schema.Finite
}).annotate({ identifier: "SiteFindingStats" })
export type SiteFindingStats = typeof SiteFindingStats.Type

/** GitBook's `SiteTopic`. */
export const SiteTopic = Schema.Struct({
  object: Schema.Literal("context-topic"),
  id: Schema.String,
  label: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  icon: Schema.String,
  summary: JSONDocument,
  usageSettings: Schema.Struct({ changeRequests: Schema.Boolean }),
  pages: Schema.Finite,
  records: Schema.Finite,
  findings: Schema.Struct({ open: Schema.Finite, total: Schema.Finite }),
  questions: SiteQuestionStats,
  urls: Location
}).annotate({ identifier: "SiteTopic" })
export type SiteTopic = typeof SiteTopic.Type

/** GitBook's `ContextUsageSettings`. */
export const ContextUsageSettings = Schema.Struct({
  changeRequests: Schema.Boolean,
  search: Schema.Boolean,
  sync: Schema.optionalKey(Schema.Boolean),
  searchBoost: ContextSearchBoost
}).annotate({ identifier: "ContextUsageSettings" })

const Repository = Text.check(Schema.isPattern(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/), Schema.isMaxLength(200))
const Token = Text.check(Schema.isMinLength(1), Schema.isMaxLength(1000))

/** GitBook's `ContextConnectorSetup`, for the connectors that run here: a website, a GitHub repository's issues. */
export const ContextConnectorSetup = Schema.Union([
  Schema.Struct({ connector: Schema.Literal("builtin:website"), setupSettings: Schema.Struct({ url: Url }) }),
  Schema.Struct({
    connector: Schema.Literal("builtin:github-issues"),
    setupSettings: Schema.Struct({
      repository: Repository,
      token: Token,
      /** Quire's: the forge's API (GitHub's by default; a GitHub Enterprise's or a compatible forge's). */
      apiUrl: Schema.optionalKey(Url)
    })
  })
]).annotate({ identifier: "ContextConnectorSetup" })

const Label = Text.check(Schema.isMaxLength(128))
const Filter = Text.check(Schema.isMaxLength(1024))

/** GitBook's `ContextConnection`: its setup without the token. */
export const ContextConnection = Schema.Struct({
  object: Schema.Literal("context-connection"),
  id: Schema.String,
  createdAt: Timestamp,
  syncedAt: Schema.optionalKey(Timestamp),
  label: Schema.optionalKey(Schema.String),
  filter: Schema.optionalKey(Schema.String),
  status: ContextConnectionStatus,
  records: Schema.Finite,
  failureMessage: Schema.optionalKey(Schema.String),
  failureReason: Schema.optionalKey(ContextConnectionFailureReason),
  usageSettings: ContextUsageSettings,
  urls: Location,
  connector: Schema.Literals(["builtin:website", "builtin:github-issues"]),
  /** A GitHub connection's `token` is a mask: the token is kept sealed and never shown. */
  setupSettings: Schema.Struct({ url: Schema.optionalKey(Schema.String), repository: Schema.optionalKey(Schema.String), token: Schema.optionalKey(Schema.String), apiUrl: Schema.optionalKey(Schema.String) })
}).annotate({ identifier: "ContextConnection" })
export type ContextConnection = typeof ContextConnection.Type

/** GitBook's `ContextConnectionTestResult`. */
export const ContextConnectionTestResult = Schema.Struct({
  object: Schema.Literal("context-connection-test-result"),
  success: Schema.Boolean,
  error: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "ContextConnectionTestResult" })

/** 204 answers. */
export const Upserted = Schema.Literal("upserted").pipe(HttpApiSchema.asNoContent({ decode: () => "upserted" as const }), HttpApiSchema.status(204))
/** 202: the change request is opened. */
export const Triggered = Schema.Literal("triggered").pipe(HttpApiSchema.asNoContent({ decode: () => "triggered" as const }), HttpApiSchema.status(202))
/** 205, as GitBook answers a delete. */
export const Deleted = Schema.Literal("deleted").pipe(HttpApiSchema.asNoContent({ decode: () => "deleted" as const }), HttpApiSchema.status(205))
export const Synced = Schema.Literal("synced").pipe(HttpApiSchema.asNoContent({ decode: () => "synced" as const }), HttpApiSchema.status(204))

const many = <S extends Schema.Top>(item: S) => Schema.optional(Schema.Union([item, Schema.Array(item).check(Schema.isMaxLength(20))]))
const Source = Text.check(Schema.isPattern(/^(questions|connection:[A-Za-z0-9_-]+)$/), Schema.isMaxLength(120))
const BooleanQuery = Schema.Literals(["true", "false"])

const findingsFilter = {
  topic: Schema.optional(EntityId),
  status: Schema.optional(SiteFindingStatus),
  type: many(SiteFindingType),
  severity: Schema.optional(SiteFindingSeverity),
  hasChangeRequests: Schema.optional(BooleanQuery),
  source: many(Source)
} as const

const recordParams = { ...siteParams, siteContextRecordId: EntityId } as const
const scanParams = { ...siteParams, siteScanId: EntityId } as const
const findingParams = { ...siteParams, siteFindingId: EntityId } as const
const topicParams = { ...siteParams, siteTopicId: EntityId } as const
const connectionParams = { ...siteParams, siteContextConnectionId: EntityId } as const

const readers = "Members of the site's organization with a role may call it, as they read its insights."
const editors = "Editors of the site may call it."

export class SiteContextApi extends HttpApiGroup.make("siteContext")
  .add(
    /** The site's context records. */
    HttpApiEndpoint.get("listSiteContextRecords", "/orgs/:organizationId/sites/:siteId/context-records", {
      params: siteParams,
      query: { ...PageQuery, type: Schema.optional(ContextRecordType), connector: Schema.optional(ContextConnector), connection: Schema.optional(EntityId), topic: Schema.optional(EntityId) },
      success: ListOf(ContextRecord),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "List a site's context records",
      description:
        "Newest first. Records are what readers and customers asked: the site's own questions its Ask did not answer, searches that found nothing, pages rated bad with a comment and addresses that found no page " +
        "(connection `site-insights`, taken by each scan), records pushed with `upsertSiteContextRecords` (connection `api`), and those a connection pulls. " + readers
    }))
  )
  .add(
    /** Adds or replaces records by the pusher's ids. */
    HttpApiEndpoint.put("upsertSiteContextRecords", "/orgs/:organizationId/sites/:siteId/context-records", {
      params: siteParams,
      payload: Schema.Array(ContextRecordInput),
      success: Upserted,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Add or replace a site's context records",
      description: "Records of the `api` connection (any help desk's tickets), by the `id` the caller gives: a record pushed again is replaced, and read again by the next scan when its text changed. At most 100 a call. " + editors
    }))
  )
  .add(
    HttpApiEndpoint.get("getSiteContextRecordById", "/orgs/:organizationId/sites/:siteId/context-records/:siteContextRecordId", {
      params: recordParams,
      success: ContextRecord,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Get a site's context record", description: readers }))
  )
  .add(
    HttpApiEndpoint.get("listSiteScans", "/orgs/:organizationId/sites/:siteId/scans", {
      params: siteParams,
      query: { ...PageQuery, topic: Schema.optional(EntityId), status: Schema.optional(SiteScanStatus) },
      success: ListOf(SiteScan),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "List a site's scans", description: `Newest first. ${readers}` }))
  )
  .add(
    HttpApiEndpoint.post("startSiteScan", "/orgs/:organizationId/sites/:siteId/scans", {
      params: siteParams,
      success: SiteScan.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Scan a site",
      description:
        "Quire's own. Queues a scan: it takes the records of the site's insights, clusters every record into topics by their words (a topic keeps its id from scan to scan), searches the site's published pages for each record, " +
        "and makes a `content-gap` finding for a topic whose records no page answers (`broken-link` when they are all 404s), severity by how often they were asked. " +
        "Outdated and incorrect content need a model to judge and are not found yet. A scan pending or running is answered instead of a new one. " + editors
    }))
  )
  .add(
    HttpApiEndpoint.get("getSiteScanById", "/orgs/:organizationId/sites/:siteId/scans/:siteScanId", {
      params: scanParams,
      success: SiteScan,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Get a site's scan", description: readers }))
  )
  .add(
    HttpApiEndpoint.get("listSiteFindings", "/orgs/:organizationId/sites/:siteId/findings", {
      params: siteParams,
      query: {
        ...PageQuery,
        ...findingsFilter,
        question: Schema.optional(EntityId),
        updatedAfter: Schema.optional(DateTime),
        updatedBefore: Schema.optional(DateTime),
        orderBy: Schema.optional(SiteFindingOrderBy)
      },
      success: ListOf(SiteFinding),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "List a site's findings", description: `Newest first, or by \`orderBy\` (most severe first). ${readers}` }))
  )
  .add(
    HttpApiEndpoint.get("getSiteFindingById", "/orgs/:organizationId/sites/:siteId/findings/:siteFindingId", {
      params: findingParams,
      success: SiteFinding,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Get a site's finding", description: readers }))
  )
  .add(
    HttpApiEndpoint.patch("updateSiteFindingById", "/orgs/:organizationId/sites/:siteId/findings/:siteFindingId", {
      params: findingParams,
      payload: Schema.Struct({ status: SiteFindingStatus }),
      success: SiteFinding,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Update a site's finding", description: `Its status: a finding done or canceled is not made again from the same records. ${editors}` }))
  )
  .add(
    HttpApiEndpoint.get("listChangeRequestsForSiteFinding", "/orgs/:organizationId/sites/:siteId/findings/:siteFindingId/change-requests", {
      params: findingParams,
      query: PageQuery,
      success: ListOf(ChangeRequest),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "List the change requests of a site's finding", description: `The change requests its trigger opened, newest first, those the caller can read. ${readers}` }))
  )
  .add(
    HttpApiEndpoint.post("triggerChangeRequestsForSiteFinding", "/orgs/:organizationId/sites/:siteId/findings/:siteFindingId/change-requests", {
      params: findingParams,
      success: Triggered,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Open a change request that fixes a site's finding",
      description:
        "Opens a change request in the space of the pages the finding is about (else the site's default space) as the caller, adding a page that holds what the records asked. " +
        "With a model (QUIRE_AI_URL), the change request's agent then drafts that page from the space's other pages; without one, the page stays a stub for a writer. " +
        "The change request is open when this answers. " + editors
    }))
  )
  .add(
    HttpApiEndpoint.get("listPagesForSiteFinding", "/orgs/:organizationId/sites/:siteId/findings/:siteFindingId/pages", {
      params: findingParams,
      query: PageQuery,
      success: ListOf(SiteFindingPage),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "List the pages of a site's finding", description: `The pages about its records (none answers them), best first. ${readers}` }))
  )
  .add(
    HttpApiEndpoint.get("listQuestionsForSiteFinding", "/orgs/:organizationId/sites/:siteId/findings/:siteFindingId/questions", {
      params: findingParams,
      query: PageQuery,
      success: ListOf(SiteQuestion),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "List the questions of a site's finding", description: `The site's questions among its evidence. ${readers}` }))
  )
  .add(
    HttpApiEndpoint.get("listRecordsForSiteFinding", "/orgs/:organizationId/sites/:siteId/findings/:siteFindingId/records", {
      params: findingParams,
      query: PageQuery,
      success: ListOf(ContextRecord),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "List the records of a site's finding", description: readers }))
  )
  .add(
    HttpApiEndpoint.get("getSiteFindingStats", "/orgs/:organizationId/sites/:siteId/stats/findings", {
      params: siteParams,
      query: findingsFilter,
      success: SiteFindingStats,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Get a site's finding stats", description: `Over the findings the filters keep; \`connectors\` counts them by the connector of their evidence. ${readers}` }))
  )
  .add(
    HttpApiEndpoint.get("listSiteContextConnections", "/orgs/:organizationId/sites/:siteId/context-connections", {
      params: siteParams,
      query: PageQuery,
      success: ListOf(ContextConnection),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "List a site's context connections", description: `Oldest first; a token is never read back. ${readers}` }))
  )
  .add(
    HttpApiEndpoint.post("createSiteContextConnection", "/orgs/:organizationId/sites/:siteId/context-connections", {
      params: siteParams,
      payload: Schema.Union([
        Schema.Struct({ ...ContextConnectorSetup.members[0].fields, usageSettings: Schema.optionalKey(ContextUsageSettings), filter: Schema.optionalKey(Filter) }),
        Schema.Struct({ ...ContextConnectorSetup.members[1].fields, usageSettings: Schema.optionalKey(ContextUsageSettings), filter: Schema.optionalKey(Filter) })
      ]),
      success: ContextConnection.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Connect a site to a source of records",
      description:
        "The connectors that run here: `builtin:website` (its pages, fetched through the server's outbound guard, are `document` records) and `builtin:github-issues` " +
        "(a repository's open issues through the forge's API with a token, sealed under the instance secret, are `ticket` records). The first sync is queued at once. " + editors
    }))
  )
  .add(
    HttpApiEndpoint.get("getSiteContextConnectionById", "/orgs/:organizationId/sites/:siteId/context-connections/:siteContextConnectionId", {
      params: connectionParams,
      success: ContextConnection,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Get a site's context connection", description: readers }))
  )
  .add(
    HttpApiEndpoint.patch("updateSiteContextConnectionById", "/orgs/:organizationId/sites/:siteId/context-connections/:siteContextConnectionId", {
      params: connectionParams,
      payload: Schema.Struct({ usageSettings: Schema.optionalKey(ContextUsageSettings), label: Schema.optionalKey(Label), filter: Schema.optionalKey(Filter) }),
      success: ContextConnection,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Update a site's context connection", description: `Its label, filter and usage. ${editors}` }))
  )
  .add(
    HttpApiEndpoint.delete("deleteSiteContextConnectionById", "/orgs/:organizationId/sites/:siteId/context-connections/:siteContextConnectionId", {
      params: connectionParams,
      success: Deleted,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Delete a site's context connection", description: `With its records. ${editors}` }))
  )
  .add(
    HttpApiEndpoint.post("syncSiteContextConnection", "/orgs/:organizationId/sites/:siteId/context-connections/:siteContextConnectionId/sync", {
      params: connectionParams,
      success: Synced,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Sync a site's context connection", description: `Pulls its records now; the connection's \`status\` and \`failureMessage\` say how it went. ${editors}` }))
  )
  .add(
    HttpApiEndpoint.post("testSiteContextConnection", "/orgs/:organizationId/sites/:siteId/context-connections/:siteContextConnectionId/test", {
      params: connectionParams,
      success: ContextConnectionTestResult,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Test a site's context connection", description: `Reaches its source once, keeping nothing. ${editors}` }))
  )
  .add(
    HttpApiEndpoint.get("listSiteTopics", "/orgs/:organizationId/sites/:siteId/topics", {
      params: siteParams,
      query: { from: Schema.optional(DateTime), to: Schema.optional(DateTime) },
      success: Schema.Struct({ items: Schema.Array(SiteTopic) }),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "List a site's topics", description: `The topics scans clustered the records into, oldest first; \`from\` and \`to\` bound the askings their question stats count. ${readers}` }))
  )
  .add(
    HttpApiEndpoint.get("getSiteTopicById", "/orgs/:organizationId/sites/:siteId/topics/:siteTopicId", {
      params: topicParams,
      success: SiteTopic,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Get a site's topic", description: readers }))
  )
  .add(
    HttpApiEndpoint.patch("updateSiteTopicById", "/orgs/:organizationId/sites/:siteId/topics/:siteTopicId", {
      params: topicParams,
      payload: Schema.Struct({ usageSettings: Schema.Struct({ changeRequests: Schema.Boolean }) }),
      success: SiteTopic,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Update a site's topic", description: `Whether its findings may open change requests. ${editors}` }))
  )
  .add(
    HttpApiEndpoint.delete("deleteSiteTopicFindings", "/orgs/:organizationId/sites/:siteId/topics/:siteTopicId/findings", {
      params: topicParams,
      success: Deleted,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Delete a site topic's findings", description: `The next scan makes them again where the docs still do not answer. ${editors}` }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
