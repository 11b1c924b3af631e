/**
 * GitBook's `site-insights` (a site's events: tracked, aggregated, visitor segments) and
 * `site-agent-feedback` (feedback an agent leaves a site) operations.
 */
import { Schema } from "effect"
import { AgentFeedbackInput, AgentFeedbackItem, InsightsQuery, InsightsResult, VisitorSegment } from "@quire/sites/domain/InsightsQuery"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { siteParams } from "./SiteSchemas.ts"
import { ListOf } from "./Schemas.ts"
import { ContentRef } from "./SpaceContentApi.ts"

const Url = Schema.String.check(Schema.isMaxLength(2048))
const Id = Schema.NullOr(Schema.String)

/** GitBook's `SiteInsightsEventSession`. */
const Session = Schema.Struct({
  visitorId: Schema.String,
  sessionId: Schema.String,
  cookies: Schema.Record(Schema.String, Schema.String),
  ip: Schema.optionalKey(Schema.String),
  userAgent: Schema.String,
  language: Schema.NullOr(Schema.String),
  referrer: Schema.NullOr(Url),
  visitorAuthToken: Schema.optionalKey(Schema.NullOr(Schema.String)),
  visitorAuthClaims: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})

/** GitBook's `SiteInsightsEventLocation`. */
const Location = Schema.Struct({
  url: Url,
  displayContext: Schema.optionalKey(Schema.Literals(["site", "server", "embed", "mcp"])),
  siteSection: Id,
  siteSpace: Id,
  siteShareKey: Id,
  space: Id,
  revision: Id,
  page: Id
})

const base = { session: Session, location: Location, timestamp: Schema.optionalKey(Schema.String) } as const

const event = <T extends string, F extends Schema.Struct.Fields>(type: T, fields: F) =>
  Schema.Struct({ ...base, type: Schema.Literal(type), ...fields })

const Rating = Schema.Literals(["bad", "ok", "good"])
const Operation = Schema.Struct({ path: Schema.String, method: Schema.String })
const Ad = Schema.Struct({ domain: Schema.String, zoneId: Schema.String, placement: Schema.Literal("aside") })

/** GitBook's `SiteInsightsEvent`, by `type`. */
export const SiteInsightsEvent = Schema.Union([
  event("page_view", {}),
  event("page_markdown_request", { markdownSource: Schema.optionalKey(Schema.Literal("page-action")) }),
  event("search_open", {}),
  // `resultsCount` is Quire's: how many results the search found (searches that found nothing).
  event("search_type_query", { query: Schema.String.check(Schema.isMaxLength(512)), resultsCount: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))) }),
  event("search_open_result", {
    query: Schema.String,
    result: Schema.Union([Schema.Struct({ spaceId: Schema.String, pageId: Schema.String }), Schema.Struct({ recordId: Schema.String })])
  }),
  event("page_post_feedback", { feedback: Schema.Struct({ rating: Rating }) }),
  event("page_post_feedback_comment", {
    feedback: Schema.Struct({ rating: Rating, comment: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(512)) })
  }),
  event("agent_feedback", {}),
  event("ask_question", { query: Schema.String, goal: Schema.optionalKey(Schema.String) }),
  event("ask_view", {}),
  event("ask_rate_response", { query: Schema.String, rating: Schema.Literals([1, -1]), responseId: Schema.String }),
  event("link_click", {
    link: Schema.Struct({ target: ContentRef, position: Schema.Literals(["announcement", "header", "footer", "sidebar", "content"]) })
  }),
  event("api_client_open", { operation: Operation }),
  event("api_client_request", { operation: Operation }),
  event("trademark_click", { placement: Schema.Literals(["sidebar", "ad", "footer", "pdf", "embed"]) }),
  event("ad_click", { ad: Ad }),
  event("ad_display", { ad: Ad }),
  event("llms_request", { llmsVariant: Schema.Literals(["standard", "full"]) }),
  event("mcp_request", {}),
  event("rss_request", {})
]).annotate({ identifier: "SiteInsightsEvent" })
export type SiteInsightsEvent = typeof SiteInsightsEvent.Type

export class SiteInsightsApi extends HttpApiGroup.make("siteInsights")
  .add(
    /** Records a batch of a site's events. */
    HttpApiEndpoint.post("trackEventsInSiteById", "/orgs/:organizationId/sites/:siteId/insights/events", {
      params: siteParams,
      payload: Schema.Struct({ events: Schema.Array(SiteInsightsEvent).check(Schema.isMaxLength(500)) }),
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Track a site's events",
        description: "Takes a batch of events of a published site (page views, searches, feedback, link clicks...) as GitBook's `SiteInsightsEvent`s and answers 204. An event that does not match its type's shape, or whose `timestamp` is more than 5 minutes from now, is a 400 naming it. Events are kept without cookies or personal data: the visitor is a hash of `session.visitorId` (or the caller's address and user agent) with a salt that changes every day, and the address, user agent and cookies are not kept. They are written in batches shortly after the answer. A `search_type_query` may carry Quire's `resultsCount`. A member of the site's organization, or the site's reader token, may call it; the site must be published. Without a token (as GitBook's renderer posts its visitors' events from their browsers), a published site open to everyone (public or unlisted) takes the events it records of an anonymous reader (views when it records views, ratings when it asks for feedback), as its own pages' script posts them; any other site answers 404. Every batch spends its sender's budget (its token's, else its address's) and the site's: past either, 429.",
        transform: requestExample({ events: [] })
      }))
  )
  .add(
    /** GitBook's aggregation of a site's events. */
    HttpApiEndpoint.post("aggregateSiteEvents", "/orgs/:organizationId/sites/:siteId/insights/events/aggregate", {
      params: siteParams,
      payload: InsightsQuery,
      success: InsightsResult,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Query a site's events",
        description: "Groups a site's events within `range` by the `groupBy` columns, keeps those matching `where` (on event columns before grouping, on counts after), orders and limits the groups, and answers one column of values per `select` column. Counts: `eventsCount`, `sessionsCount`, `visitorsCount` (distinct daily visitor hashes), `pageFeedbackRating`. Quire keeps no geography, device, claims or bot names: those columns read as null or `unknown`. Quire adds `eventSearchResultsCount`. Members of the site's organization with a role may call it.",
        transform: requestExample({ range: "last7Days", groupBy: [{ column: "urlPath" }], select: [{ column: "urlPath" }, { column: "eventsCount" }] })
      }))
  )
  .add(
    /** Quire's own (GitBook's API has no reading of it): the agents' feedback of the site, newest first. */
    HttpApiEndpoint.get("listSiteAgentFeedback", "/orgs/:organizationId/sites/:siteId/agents/feedback", {
      params: siteParams,
      success: ListOf(AgentFeedbackItem),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List agents' feedback on a site",
        description: "Quire's own: the feedback AI agents left on the site over the last 30 days (`submitAgentFeedbackToSite` and the site MCP server's `sendFeedback`), newest first, at most 100. Members of the site's organization with a role may call it."
      }))
  )
  .add(
    /** GitBook's visitor segments of a site. */
    HttpApiEndpoint.get("listSiteVisitorSegments", "/orgs/:organizationId/sites/:siteId/insights/visitor-segments", {
      params: siteParams,
      success: ListOf(VisitorSegment),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a site's visitor segments",
        description: "The site's visitors over the last 30 days by segment. Quire keeps no visitor claims, so there is one segment, all visitors (none before the first event). Members of the site's organization with a role may call it."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}

export { AgentFeedbackItem }

/** GitBook's `submitAgentFeedbackToSite`'s answer. */
const AgentFeedbackResult = Schema.Struct({ id: Schema.String, result: Schema.String })

/** 204: GitBook's answer to `submitSiteAgentFeedback`. */
const FeedbackSubmitted = Schema.Literal("submitted").pipe(
  HttpApiSchema.asNoContent({ decode: () => "submitted" as const }),
  HttpApiSchema.status(204)
)

export class SiteAgentFeedbackApi extends HttpApiGroup.make("siteAgentFeedback")
  .add(
    /** Feedback an agent leaves a site about a page, a tool, a command or an endpoint. */
    HttpApiEndpoint.post("submitAgentFeedbackToSite", "/orgs/:organizationId/sites/:siteId/agents/feedback", {
      params: siteParams,
      payload: AgentFeedbackInput,
      success: AgentFeedbackResult.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Submit agent feedback",
        description: "Records an AI agent's feedback (GitBook's `AgentFeedbackInput`): what it is about (`subject`), its category, severity and summary. The site's editors read it on the site's insights. A member of the site's organization, or the site's reader token, may call it.",
        transform: requestExample({ subject: { kind: "generic" }, feedback: { category: "documentation", summary: "The page on tokens does not say how long they last." } })
      }))
  )
  .add(
    /** GitBook's older feedback about a page of the site (deprecated there for submitAgentFeedbackToSite). */
    HttpApiEndpoint.post("submitSiteAgentFeedback", "/orgs/:organizationId/sites/:siteId/agent-feedback", {
      params: siteParams,
      payload: Schema.Struct({
        feedback: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2048)),
        goal: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1024))),
        url: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2048)),
        spaceId: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)),
        pageId: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)),
        source: Schema.optionalKey(Schema.Literals(["mcp", "assistant"]))
      }),
      success: FeedbackSubmitted,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Submit agent feedback about a page of a site",
        description:
          "GitBook's older form of submitAgentFeedbackToSite: an agent's feedback about a page (its URL, space and page), recorded as documentation feedback " +
          "with the page, and read by the site's editors with the rest of the agents' feedback on the site's insights. A member of the site's organization, or the site's reader token, may call it.",
        transform: requestExample({ feedback: "The page on tokens does not say how long they last.", url: "https://docs.example.com/tokens", spaceId: "space-id", pageId: "page-id" })
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
