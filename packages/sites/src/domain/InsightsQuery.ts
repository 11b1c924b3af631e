/**
 * GitBook's insights queries: `SiteInsightsQueryEventsAggregation` (columns, filters, groups,
 * order, range) and its result, and `AgentFeedbackInput`. Schemas only; `insights/Aggregate.ts`
 * runs a query.
 */
import { Schema } from "effect"

/** Every column GitBook names; Quire adds `eventSearchResultsCount` (how many results a search found). */
export const InsightsColumnName = Schema.Literals([
  "datetime",
  "dayOfWeek",
  "hourOfDay",
  "url",
  "urlPath",
  "eventType",
  "eventsCount",
  "sessionsCount",
  "visitorsCount",
  "siteSection",
  "siteSpace",
  "siteShareKey",
  "displayContext",
  "page",
  "visitorGeoCountry",
  "visitorGeoPoint",
  "visitorDevice",
  "visitorBrowser",
  "visitorOS",
  "visitorBot",
  "visitorLanguage",
  "eventLinkTargetValue",
  "eventLinkTargetKind",
  "eventLinkTargetDomain",
  "eventLinkPosition",
  "eventAPIOperationPath",
  "eventAPIOperationMethod",
  "eventLLMSVariant",
  "eventPageNotFoundType",
  "eventMarkdownSource",
  "eventSearchQuery",
  "eventSearchResultRecordId",
  "eventSearchResultsCount",
  "eventPageFeedbackRating",
  "eventPageFeedbackComment",
  "eventAskResponseRating",
  "pageFeedbackRating",
  "askResponseRating",
  "referrer",
  "referrerDomain",
  "utmSource",
  "utmMedium",
  "utmCampaign",
  "utmTerm",
  "utmContent",
  "visitorAuthenticated",
  "visitorClaimProperty",
  "visitorClaim",
  "eventAdDomain",
  "eventAdPlacement",
  "eventTrademarkPlacement"
])
export type InsightsColumnName = typeof InsightsColumnName.Type

/** The columns counted over a group rather than read from an event. */
export const metricColumns: ReadonlySet<InsightsColumnName> = new Set([
  "eventsCount",
  "sessionsCount",
  "visitorsCount",
  "pageFeedbackRating",
  "askResponseRating"
])

/** GitBook's `SiteInsightsQueryEventsColumn`. */
export const InsightsColumn = Schema.Struct({
  column: InsightsColumnName,
  interval: Schema.optionalKey(Schema.Literals(["hour", "day", "week", "month"])),
  precision: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 15 }))),
  claim: Schema.optionalKey(Schema.String)
})
export type InsightsColumn = typeof InsightsColumn.Type

const FilterValue = Schema.Union([
  Schema.String,
  Schema.Finite,
  Schema.Boolean,
  Schema.Null,
  Schema.Record(Schema.String, Schema.Unknown)
])

/** GitBook's `SiteInsightsQueryOperator`. */
export const InsightsOperator = Schema.Literals(["in", "notIn", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual"])
export type InsightsOperator = typeof InsightsOperator.Type

/** GitBook's `SiteInsightsQueryEventsFilter`. */
export const InsightsFilter = Schema.Struct({
  column: InsightsColumnName,
  values: Schema.Array(FilterValue).check(Schema.isMaxLength(1000)),
  operator: Schema.optionalKey(InsightsOperator),
  claim: Schema.optionalKey(Schema.String)
})
export type InsightsFilter = typeof InsightsFilter.Type

/** GitBook's `SiteInsightsQueryRange`. */
export const InsightsRange = Schema.Union([
  Schema.Literals(["lastYear", "last3Months", "last30Days", "last7Days", "last24Hours"]),
  Schema.Struct({ from: Schema.String, to: Schema.String })
])
export type InsightsRange = typeof InsightsRange.Type

/** GitBook's `SiteInsightsQueryEventsAggregation`. */
export const InsightsQuery = Schema.Struct({
  select: Schema.optionalKey(Schema.Array(InsightsColumn).check(Schema.isMaxLength(60))),
  where: Schema.optionalKey(Schema.Array(InsightsFilter).check(Schema.isMaxLength(60))),
  groupBy: Schema.optionalKey(Schema.Array(InsightsColumn).check(Schema.isMaxLength(10))),
  order: Schema.optionalKey(Schema.Struct({ by: InsightsColumn, direction: Schema.Literals(["asc", "desc"]) })),
  range: InsightsRange,
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 })))
}).annotate({ identifier: "SiteInsightsQueryEventsAggregation" })
export type InsightsQuery = typeof InsightsQuery.Type

/** GitBook's `SiteInsightsQueryEventsAggregationResult`: one column of values per selected column. */
export const InsightsResult = Schema.Struct({
  columns: Schema.Array(Schema.Struct({
    column: InsightsColumnName,
    claim: Schema.optionalKey(Schema.String),
    values: Schema.Array(Schema.Unknown)
  }))
}).annotate({ identifier: "SiteInsightsQueryEventsAggregationResult" })
export type InsightsResult = typeof InsightsResult.Type

/** GitBook's `SiteInsightsVisitorSegment`. */
export const VisitorSegment = Schema.Struct({
  title: Schema.String,
  claims: Schema.Record(Schema.String, Schema.Unknown),
  events: Schema.Finite,
  visitors: Schema.Finite,
  sessions: Schema.Finite
}).annotate({ identifier: "SiteInsightsVisitorSegment" })
export type VisitorSegment = typeof VisitorSegment.Type

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

/** GitBook's `AgentFeedbackSubject`. */
export const AgentFeedbackSubject = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("mcp-tool"), toolName: Text(200), target: Schema.optionalKey(Text(200)) }),
  Schema.Struct({ kind: Schema.Literal("cli-command"), command: Text(200), flags: Schema.optionalKey(Schema.Array(Text(100)).check(Schema.isMaxLength(50))) }),
  Schema.Struct({
    kind: Schema.Literal("api-endpoint"),
    method: Schema.Literals(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]),
    path: Text(500)
  }),
  Schema.Struct({ kind: Schema.Literal("documentation"), url: Text(2048) }),
  Schema.Struct({ kind: Schema.Literal("generic") })
])

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** GitBook's `AgentFeedbackInput`. */
export const AgentFeedbackInput = Schema.Struct({
  reportedBy: Schema.optionalKey(Schema.Struct({
    model: Schema.optionalKey(Text(100)),
    userAgent: Schema.optionalKey(Text(512)),
    correlationId: Schema.optionalKey(Text(100)),
    onDemand: Schema.optionalKey(Schema.Boolean)
  })),
  subject: AgentFeedbackSubject,
  feedback: Schema.Struct({
    category: Schema.Literals(["usability", "reliability", "documentation", "efficiency", "interoperability", "could-not-accomplish"]),
    severity: Schema.optionalKey(Schema.Literals(["low", "medium", "high"])),
    goal: Schema.optionalKey(Text(1024)),
    summary: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(256)),
    detail: Schema.optionalKey(Text(4096)),
    workaround: Schema.optionalKey(Text(2048)),
    metrics: Schema.optionalKey(Schema.Struct({
      callCount: Schema.optionalKey(Count),
      successCount: Schema.optionalKey(Count),
      retryCount: Schema.optionalKey(Count)
    }))
  })
}).annotate({ identifier: "AgentFeedbackInput" })
export type AgentFeedbackInput = typeof AgentFeedbackInput.Type

/** One agent's feedback as the site's editors read it (Quire's `listSiteAgentFeedback`): when, from which page or tool. */
export const AgentFeedbackItem = Schema.Struct({
  id: Schema.String,
  createdAt: Schema.String,
  ...AgentFeedbackInput.fields
})
export type AgentFeedbackItem = typeof AgentFeedbackItem.Type

