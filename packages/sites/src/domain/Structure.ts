/**
 * A site's structure: sections (tabs), section groups, and site spaces (a space placed in a section,
 * or at the root of a site without sections). Positions are numbers with gaps among siblings.
 */
import { Schema } from "effect"

export const SectionTitle = Schema.String.check(Schema.isMinLength(2), Schema.isMaxLength(128))
export const SectionDescription = Schema.String.check(Schema.isMaxLength(256))
/** Paths of sections and site spaces. */
export const StructurePath = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100))
export const ConditionText = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(1024))
export const IconName = Schema.String.check(Schema.isMaxLength(50))
export const SectionGroupTitle = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100))

export const SiteSection = Schema.Struct({
  id: Schema.String,
  siteId: Schema.String,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  /** Unique among the site's sections. */
  path: Schema.String,
  condition: Schema.NullOr(Schema.String),
  icon: Schema.NullOr(Schema.String),
  /** The group holding the section, if any. */
  groupId: Schema.NullOr(Schema.String),
  /** Among the site's top level (ungrouped sections and groups), or among its group's sections. */
  position: Schema.Finite,
  /** The variant a reader gets without choosing one. */
  defaultSiteSpaceId: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export interface SiteSection extends Schema.Schema.Type<typeof SiteSection> {}

export const SiteSectionGroup = Schema.Struct({
  id: Schema.String,
  siteId: Schema.String,
  title: Schema.String,
  icon: Schema.NullOr(Schema.String),
  /** Among the site's top level, with the ungrouped sections. */
  position: Schema.Finite,
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export interface SiteSectionGroup extends Schema.Schema.Type<typeof SiteSectionGroup> {}

export const SiteSpace = Schema.Struct({
  id: Schema.String,
  siteId: Schema.String,
  /** Null at the root of a site without sections. */
  sectionId: Schema.NullOr(Schema.String),
  spaceId: Schema.String,
  /** Unique among the site spaces of the same section (or the root). */
  path: Schema.String,
  condition: Schema.NullOr(Schema.String),
  position: Schema.Finite,
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export interface SiteSpace extends Schema.Schema.Type<typeof SiteSpace> {}

/** GitBook's move positions (`SiteSectionMovePosition`, `SiteSectionGroupMovePosition`, `SiteSpaceMovePosition`). */
export interface SectionPosition {
  readonly before?: { readonly type: "site-section"; readonly siteSection: string } | undefined
  readonly after?: { readonly type: "site-section"; readonly siteSection: string } | undefined
}

export interface SectionGroupPointer {
  readonly type: "site-section" | "site-section-group"
  readonly id: string
}

export interface SectionGroupPosition {
  readonly before?: SectionGroupPointer | undefined
  readonly after?: SectionGroupPointer | undefined
}

export interface SiteSpacePosition {
  readonly before?: { readonly type: "site-space"; readonly siteSpace: string } | undefined
  readonly after?: { readonly type: "site-space"; readonly siteSpace: string } | undefined
}

/** A path segment from a title: lowercase letters, digits and dashes (GitBook's slugs). */
export const slugify = (title: string): string => {
  const slug = title
    .normalize("NFKD")
    // Latin accents go (é → e); other scripts' marks recompose (ト + ゙ → ド).
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}\p{Mark}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 90)
    .replace(/-+$/g, "")
  return slug === "" ? "untitled" : slug
}

/** `base`, or `base-2`, `base-3`... the first not in `taken`. */
export const uniquePath = (base: string, taken: ReadonlySet<string>): string => {
  if (!taken.has(base)) return base
  for (let i = 2; ; i++) {
    const candidate = `${base.slice(0, 100 - String(i).length - 1)}-${i}`
    if (!taken.has(candidate)) return candidate
  }
}
