/**
 * What the five sites groups share: the path parameters under a site, the field rules of titles,
 * paths, conditions and icons, `shareKey`, and the site-space record every other shape embeds.
 */
import { Schema } from "effect"
import { AgentsContext, SiteType, SiteVisibility } from "@quire/sites/domain/Site"
import {
  ConditionText,
  IconName,
  SectionDescription as SectionDescriptionRule,
  SectionGroupTitle as SectionGroupTitleRule,
  SectionTitle as SectionTitleRule,
  StructurePath
} from "@quire/sites/domain/Structure"
import { EntityId, Text } from "./Schemas.ts"
import { Space } from "./SpacesApi.ts"

/** The domain's literal sets of sites: GitBook's `SiteType`, `SiteVisibility`, and whether agents may read the site. */
export { AgentsContext, SiteType, SiteVisibility }

/** `/orgs/:organizationId/sites/:siteId`, the parent of every site operation. */
export const siteParams = { organizationId: EntityId, siteId: EntityId } as const

/**
 * `shareKey`: the secret of one of a share-link site's links. A valid one adds `?share=<secret>` to
 * the published URLs of the answer; an unknown or inactive one is the same as none.
 */
export const ShareKeyQuery = { shareKey: Schema.optional(Text.check(Schema.isMaxLength(256))) } as const

/** The check of `Text`, for the domain's field rules: PostgreSQL cannot store NUL. */
// oxlint-disable-next-line no-control-regex -- matching NUL is the point
export const noNul = Schema.isPattern(/^[^\u0000]*$/, { message: "must not contain the NUL character (\\u0000)" })

/** A `condition`: an expression over `visitor.claims` (GitBook's `Expression`), 1 to 1024 characters; its syntax is checked when stored. */
export const Condition = ConditionText.check(noNul)

/** An icon's name (GitBook's `Icon`), at most 50 characters. */
export const Icon = IconName.check(noNul)

/** The URL segment of a section or a site space: 1 to 100 characters (the sites package refuses `/`, `?`, `#`, `.` and `..`). */
export const SitePath = StructurePath.check(noNul)

/** GitBook's `SiteSectionTitle`: 2 to 128 characters. */
export const SectionTitle = SectionTitleRule.check(noNul)

/** GitBook's `SiteSectionDescription`: at most 256 characters. */
export const SectionDescription = SectionDescriptionRule.check(noNul)

/** GitBook's `SiteSectionGroupTitle`: 1 to 100 characters. */
export const SectionGroupTitle = SectionGroupTitleRule.check(noNul)

/** `urls.published`: present when the site is published (and, for a share-link site, a valid `shareKey` was given). */
export const PublishedUrls = Schema.Struct({ published: Schema.optionalKey(Schema.String) })

/** GitBook's `SiteSpace`: a space placed in a site (in a section, or at the root of a site without sections). */
export const SiteSpace = Schema.Struct({
  object: Schema.Literal("site-space"),
  id: Schema.String,
  path: Schema.String,
  /** The section holding it; absent at the root of a site without sections. */
  section: Schema.optionalKey(Schema.String),
  space: Space,
  title: Schema.String,
  /** The variant a reader gets without choosing one. */
  default: Schema.Boolean,
  condition: Schema.optionalKey(Schema.String),
  draft: Schema.Boolean,
  hidden: Schema.Boolean,
  hasAdvancedCustomizationFeature: Schema.Boolean,
  urls: PublishedUrls
}).annotate({ identifier: "SiteSpace" })
export type SiteSpace = typeof SiteSpace.Type

/** GitBook's `SiteSection`, with its site spaces in their order. */
export const SiteSection = Schema.Struct({
  object: Schema.Literal("site-section"),
  id: Schema.String,
  title: Schema.String,
  description: Schema.optionalKey(Schema.String),
  default: Schema.Boolean,
  draft: Schema.Boolean,
  path: Schema.String,
  condition: Schema.optionalKey(Schema.String),
  /** The group holding the section. */
  sectionGroup: Schema.optionalKey(Schema.String),
  icon: Schema.optionalKey(Schema.String),
  siteSpaces: Schema.Array(SiteSpace),
  urls: PublishedUrls
}).annotate({ identifier: "SiteSection" })
export type SiteSection = typeof SiteSection.Type

/** GitBook's `SiteExternalLink`: a tab of the structure that opens a URL. */
export const SiteExternalLink = Schema.Struct({
  object: Schema.Literal("site-external-link"),
  id: Schema.String,
  title: Schema.String,
  description: Schema.optionalKey(Schema.String),
  icon: Schema.optionalKey(Schema.String),
  url: Schema.String,
  /** The section group holding it; absent at the top level. */
  sectionGroup: Schema.optionalKey(Schema.String),
  draft: Schema.Boolean,
  condition: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "SiteExternalLink" })
export type SiteExternalLink = typeof SiteExternalLink.Type

/** GitBook's `SiteSectionGroup`: `sections` lists its sections, `children` its sections and external links, in their order. */
export const SiteSectionGroup = Schema.Struct({
  object: Schema.Literal("site-section-group"),
  id: Schema.String,
  title: Schema.String,
  icon: Schema.optionalKey(Schema.String),
  draft: Schema.Boolean,
  sections: Schema.Array(SiteSection),
  children: Schema.Array(Schema.Union([SiteSection, SiteExternalLink]))
}).annotate({ identifier: "SiteSectionGroup" })
export type SiteSectionGroup = typeof SiteSectionGroup.Type

/** A JSON object, as an adaptive schema or a customization is given. */
export const JsonObject = Schema.Record(Schema.String, Schema.Unknown)
