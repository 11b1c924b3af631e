/** Full-text search of a space's content and of an organization's spaces. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, PageQuery, Text } from "./Schemas.ts"

/** The text to search for (GitBook's parameter name and bound), with the list parameters. */
export const SearchQuery = {
  query: Text.check(Schema.isMinLength(1), Schema.isMaxLength(512)),
  ...PageQuery
} as const

/** A section of a page that matches: `body` is a short excerpt around the match. */
export const SearchSectionResult = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  path: Schema.String,
  body: Schema.String,
  score: Schema.Finite,
  urls: Schema.Struct({ app: Schema.String })
})
export type SearchSectionResult = typeof SearchSectionResult.Type

/** A page that matches, with its best sections. */
export const SearchPageResult = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  /** The page's description ("" without one). */
  description: Schema.String,
  path: Schema.String,
  score: Schema.Finite,
  /** One-based position in the whole ranked result set, kept across pages of results. */
  rank: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  /** The pages above it, top-level first. */
  ancestors: Schema.Array(Schema.Struct({ title: Schema.String })),
  sections: Schema.Array(SearchSectionResult),
  urls: Schema.Struct({ app: Schema.String })
})
export type SearchPageResult = typeof SearchPageResult.Type

/** A space with matching pages (organization search). */
export const SearchSpaceResult = Schema.Struct({
  type: Schema.Literal("space"),
  id: Schema.String,
  title: Schema.String,
  score: Schema.Finite,
  pages: Schema.Array(SearchPageResult)
})
export type SearchSpaceResult = typeof SearchSpaceResult.Type

/** GitBook's `SiteSearchScope`. */
export const SiteSearchScope = Schema.Union([
  Schema.Struct({
    mode: Schema.Literal("default"),
    currentSiteSpace: Schema.optionalKey(EntityId),
    restrictTo: Schema.optionalKey(Schema.Literals(["currentSiteSpace", "otherSiteSpaces"]))
  }),
  Schema.Struct({ mode: Schema.Literal("specific"), siteSpaceIds: Schema.Array(EntityId).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
  Schema.Struct({ mode: Schema.Literal("all") })
]).annotate({ identifier: "SiteSearchScope" })
export type SiteSearchScope = typeof SiteSearchScope.Type

/**
 * The body of a site's search: `query` with a `scope`, or GitBook's deprecated forms (`mode`
 * `specific` with `siteSpaceIds`, `current` with `siteSpaceId`, `all`).
 */
export const SiteSearchBody = Schema.Struct({
  query: Text.check(Schema.isMinLength(1), Schema.isMaxLength(512)),
  scope: Schema.optionalKey(SiteSearchScope),
  mode: Schema.optionalKey(Schema.Literals(["specific", "current", "all"])),
  siteSpaceIds: Schema.optionalKey(Schema.Array(EntityId).check(Schema.isMinLength(1), Schema.isMaxLength(100))),
  siteSpaceId: Schema.optionalKey(EntityId)
})

export class SearchApi extends HttpApiGroup.make("search")
  .add(
    /** Pages of the space's current content matching `query`, best first. */
    HttpApiEndpoint.get("searchSpaceContent", "/spaces/:spaceId/search", {
      params: { spaceId: EntityId },
      query: SearchQuery,
      success: ListOf(SearchPageResult),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Search a space",
        description: "Searches the main content of a space and answers the matching pages with their best sections, ranked. Needs view permission."
      })),
    /**
     * Matching pages of the organization's spaces the caller can view, grouped by space; `limit`
     * counts pages, so a space may continue on the next page of results.
     */
    HttpApiEndpoint.get("searchOrganizationContent", "/orgs/:organizationId/search", {
      params: { organizationId: EntityId },
      query: SearchQuery,
      success: ListOf(SearchSpaceResult),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Search an organization",
        description: "Searches the main content of every space of the organization the caller can view, ranked, grouped by space."
      })),
    /** Matching pages of a published site's spaces in `scope`, grouped by space. */
    HttpApiEndpoint.post("searchSiteContent", "/orgs/:organizationId/sites/:siteId/search", {
      params: { organizationId: EntityId, siteId: EntityId },
      query: PageQuery,
      payload: SiteSearchBody,
      success: ListOf(SearchSpaceResult),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Search a site",
        description: "Searches the main content of a published site's spaces, ranked, grouped by space. `scope.mode` `default` searches the default site space of each section (with `currentSiteSpace` standing for its own section's; `restrictTo` narrows to it or to the others), `specific` the given site spaces, `all` every site space. A member of the site's organization searches what the site publishes; the site's reader token (`resolvePublishedContentByUrl`) what it shows its visitor. 400 naming the field for a site space not in the site."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
