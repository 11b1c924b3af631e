/**
 * Quire's: whether pages are still true. Each page's owners, last verification and interval come
 * from its frontmatter's `quire` key (docs/freshness.md); these operations list where a space, or
 * every space of an organization the caller may read, stands: stale, never verified, unowned, and
 * how many internal links lead nowhere. GitBook has no such operations.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId } from "./Schemas.ts"

/** `stale`: past its due day; `unverified`: an interval and no verification; `fresh`: verified, not yet due; `untracked`: neither. */
export const FreshnessState = Schema.Literals(["fresh", "stale", "unverified", "untracked"])
export type FreshnessState = typeof FreshnessState.Type

export const PageFreshness = Schema.Struct({
  object: Schema.Literal("page-freshness"),
  id: Schema.String,
  title: Schema.String,
  /** Slugs from the space's root, joined by `/`. */
  path: Schema.String,
  /** When the page's content last changed. */
  updatedAt: Schema.String,
  /** Its owners as the frontmatter names them: emails or user ids. */
  owners: Schema.Array(Schema.String),
  /** The day it was last verified, `YYYY-MM-DD`. */
  verified: Schema.optionalKey(Schema.String),
  /** How many days a verification holds. */
  verifyEvery: Schema.optionalKey(Schema.Finite),
  /** The day it is due again, `YYYY-MM-DD`. */
  due: Schema.optionalKey(Schema.String),
  state: FreshnessState,
  /** What its frontmatter says wrongly, each naming the key (ignored values). */
  problems: Schema.Array(Schema.String),
  urls: Schema.Struct({ app: Schema.String })
})
export type PageFreshness = typeof PageFreshness.Type

export const FreshnessStats = Schema.Struct({
  pages: Schema.Finite,
  fresh: Schema.Finite,
  stale: Schema.Finite,
  unverified: Schema.Finite,
  untracked: Schema.Finite,
  /** Pages with no owner. */
  unowned: Schema.Finite,
  /** Links of the current content whose page or file is missing. */
  brokenLinks: Schema.Finite
})

export const SpaceFreshness = Schema.Struct({
  object: Schema.Literal("space-freshness"),
  space: Schema.Struct({ id: Schema.String, title: Schema.String, urls: Schema.Struct({ app: Schema.String }) }),
  /** The revision read (the space's current content). */
  revision: Schema.String,
  /** Counts over every page, whatever the filters. */
  stats: FreshnessStats,
  /** Stale first (longest overdue first), then never verified, then untracked and fresh, least recently edited first. */
  pages: Schema.Array(PageFreshness)
})
export type SpaceFreshness = typeof SpaceFreshness.Type

export const OrganizationFreshness = Schema.Struct({
  object: Schema.Literal("organization-freshness"),
  stats: FreshnessStats,
  /** The spaces the caller may read (at most 200), those with the most stale pages first. */
  spaces: Schema.Array(SpaceFreshness)
})

const FreshnessQuery = {
  /** Only pages in this state. */
  state: Schema.optional(FreshnessState),
  /** `me`: only pages the caller owns; `none`: only pages nobody owns. */
  owner: Schema.optional(Schema.Literals(["me", "none"]))
} as const

export class FreshnessApi extends HttpApiGroup.make("freshness")
  .add(
    HttpApiEndpoint.get("getSpaceFreshness", "/spaces/:spaceId/freshness", {
      params: { spaceId: EntityId },
      query: FreshnessQuery,
      success: SpaceFreshness,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Get a space's freshness",
      description:
        "Quire's own. Lists the pages of the space's current content with their owners, last verification and due day " +
        "(the frontmatter's `quire` key: `owners`, `verified`, `verify-every`), stale ones first, and counts stale, " +
        "never verified and unowned pages and broken internal links. Needs view permission."
    })),
    HttpApiEndpoint.get("getOrganizationFreshness", "/orgs/:organizationId/freshness", {
      params: { organizationId: EntityId },
      query: FreshnessQuery,
      success: OrganizationFreshness,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Get an organization's freshness",
      description:
        "Quire's own. The freshness of every space of the organization the caller may read (at most 200), the spaces " +
        "with the most stale pages first, with totals. Needs membership of the organization."
    }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
