/**
 * GitBook's `site-insights` events as a site renderer sends them: checked against GitBook's
 * `SiteInsightsEvent` and acknowledged; Quire does not keep them (yet).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { siteParams } from "./SiteSchemas.ts"
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
  event("search_type_query", { query: Schema.String }),
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
    /** Checks a batch of a site's events and acknowledges it. */
    HttpApiEndpoint.post("trackEventsInSiteById", "/orgs/:organizationId/sites/:siteId/insights/events", {
      params: siteParams,
      payload: Schema.Struct({ events: Schema.Array(SiteInsightsEvent).check(Schema.isMaxLength(500)) }),
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Track a site's events",
        description: "Takes a batch of events of a published site (page views, searches, feedback, link clicks...) as GitBook's `SiteInsightsEvent`s and answers 204. An event that does not match its type's shape, or whose `timestamp` is more than 5 minutes from now, is a 400 naming it. Quire checks the events but does not keep them yet. A member of the site's organization, or the site's reader token, may call it; the site must be published.",
        transform: requestExample({ events: [] })
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
