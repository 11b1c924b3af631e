/**
 * A published site's recorded event (GitBook's `SiteInsightsEvent` as Quire keeps it): no cookie,
 * no address, no user agent; the visitor and the session are hashes with the day's salt.
 */
import { Schema } from "effect"

/** GitBook's `SiteInsightsEventType`. */
export const SiteEventType = Schema.Literals([
  "page_view",
  "page_markdown_request",
  "search_open",
  "search_type_query",
  "search_open_result",
  "page_post_feedback",
  "page_post_feedback_comment",
  "agent_feedback",
  "ask_question",
  "ask_view",
  "ask_rate_response",
  "link_click",
  "api_client_open",
  "api_client_request",
  "ad_click",
  "ad_display",
  "trademark_click",
  "llms_request",
  "mcp_request",
  "rss_request"
])
export type SiteEventType = typeof SiteEventType.Type

/** GitBook's `PageFeedbackRating`. */
export const PageRating = Schema.Literals(["bad", "ok", "good"])
export type PageRating = typeof PageRating.Type

/** GitBook's `SiteInsightsDisplayContext`. */
export const DisplayContext = Schema.Literals(["site", "server", "embed", "mcp"])
export type DisplayContext = typeof DisplayContext.Type

/** One stored event. `data` holds the type's own fields (`query`, `resultsCount`, `feedback`, `link`, ...). */
export interface SiteEvent {
  readonly id: string
  readonly organizationId: string
  readonly siteId: string
  readonly type: SiteEventType
  readonly at: Date
  /** The visitor: a hash of the site, the address and the user agent with the day's salt. */
  readonly visitor: string
  /** The visitor's half hour: the visitor's hash with the half hour's number. */
  readonly session: string
  readonly url: string
  readonly urlPath: string
  readonly displayContext: DisplayContext
  readonly siteSection: string | null
  readonly siteSpace: string | null
  readonly siteShareKey: string | null
  readonly spaceId: string | null
  readonly pageId: string | null
  readonly referrer: string | null
  readonly language: string | null
  readonly data: Readonly<Record<string, unknown>>
}
