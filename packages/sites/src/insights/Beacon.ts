/**
 * What the published site's own insights script sends to `~insights`: a few events of the page
 * read, in a small shape of GitBook's events (the server knows the site and the session itself).
 */
import { Schema } from "effect"
import { PageRating } from "../domain/SiteEvent.ts"
import type { TrackedEvent } from "./SiteInsights.ts"

/** The first language the reader's browser asks for (`en-GB`), nothing else of the header: what insights and questions keep of it. */
export const languageOf = (header: string | undefined): string | null => {
  const first = header?.split(",")[0]?.split(";")[0]?.trim()
  return first === undefined || first === "" || first === "*" || first.length > 35 ? null : first
}

const Id = Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100)))
const Url = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2048))

const common = {
  url: Url,
  page: Id,
  space: Id,
  siteSpace: Id,
  siteSection: Id,
  referrer: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2048)))
} as const

/** One event of the script. */
export const BeaconEvent = Schema.Union([
  Schema.Struct({ type: Schema.Literal("page_view"), ...common }),
  Schema.Struct({
    type: Schema.Literal("search_type_query"),
    ...common,
    query: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(512)),
    resultsCount: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100_000 }))
  }),
  Schema.Struct({
    type: Schema.Literal("link_click"),
    ...common,
    link: Schema.Struct({
      target: Schema.Struct({ kind: Schema.Literal("url"), url: Url }),
      position: Schema.Literals(["announcement", "header", "footer", "sidebar", "content"])
    })
  }),
  Schema.Struct({ type: Schema.Literal("page_post_feedback"), ...common, feedback: Schema.Struct({ rating: PageRating }) }),
  Schema.Struct({
    type: Schema.Literal("page_post_feedback_comment"),
    ...common,
    feedback: Schema.Struct({ rating: PageRating, comment: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(512)) })
  })
])
export type BeaconEvent = typeof BeaconEvent.Type

/** The body the script posts. */
export const BeaconBody = Schema.Struct({ events: Schema.Array(BeaconEvent).check(Schema.isMinLength(1), Schema.isMaxLength(20)) })

export { isFeedback, recordedBy } from "./Recorded.ts"

/** A script's event as the insights take it. */
export const trackedOfBeacon = (event: BeaconEvent, language: string | null): TrackedEvent => {
  const { type, url, page, space, siteSpace, siteSection, referrer, ...data } = event
  return {
    type,
    location: { url, displayContext: "site", page: page ?? null, space: space ?? null, siteSpace: siteSpace ?? null, siteSection: siteSection ?? null },
    referrer: referrer ?? null,
    language,
    data
  }
}
