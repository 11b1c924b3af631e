/**
 * The views and inputs of a site's structure that the SiteStructure service and the modules of its
 * jobs (`structure/*`) share, so that those modules need not import the service.
 */
import type { SpaceAccess } from "@quire/content"
import type { Site } from "../domain/Site.ts"
import type { SiteSection, SiteSectionGroup, SiteSpace } from "../domain/Structure.ts"
import type { SiteExternalLink } from "../domain/StructureExtras.ts"

/** A site space with its space (as the caller sees it) and whether it is its parent's default. */
export interface SiteSpaceView {
  readonly site: Site
  readonly siteSpace: SiteSpace
  readonly space: SpaceAccess
  readonly default: boolean
}

/** A section with its site spaces in order, and whether it is the site's default. */
export interface SectionView {
  readonly site: Site
  readonly section: SiteSection
  readonly default: boolean
  readonly siteSpaces: ReadonlyArray<SiteSpaceView>
}

export interface SectionGroupView {
  readonly site: Site
  readonly group: SiteSectionGroup
  /** Its sections in order. */
  readonly sections: ReadonlyArray<SectionView>
  /** Its sections and external links in order. */
  readonly children: ReadonlyArray<{ readonly type: "section"; readonly section: SectionView } | { readonly type: "link"; readonly link: SiteExternalLink }>
}

/** The top level of a site with sections: ungrouped sections, groups and external links, in order. */
export type StructureItem =
  | { readonly type: "section"; readonly section: SectionView }
  | { readonly type: "group"; readonly group: SectionGroupView }
  | { readonly type: "link"; readonly link: SiteExternalLink }

/** GitBook's `SiteStructure`: sections (and groups) when the site has sections, else its root site spaces. */
export type SiteStructureView =
  | { readonly type: "sections"; readonly structure: ReadonlyArray<StructureItem> }
  | { readonly type: "siteSpaces"; readonly structure: ReadonlyArray<SiteSpaceView> }

export interface AddSectionInput {
  /** The space the new section starts with, as its default site space. */
  readonly spaceId: string
  /** Absent or null: the space's title. */
  readonly title?: string | null | undefined
  readonly icon?: string | null | undefined
}

export interface SectionUpdate {
  readonly title?: string | undefined
  readonly path?: string | undefined
  readonly defaultSiteSpace?: string | undefined
  /** null removes it. */
  readonly condition?: string | null | undefined
  readonly icon?: string | null | undefined
  readonly description?: string | null | undefined
}

export interface AddSectionGroupInput {
  readonly title: string
  readonly icon?: string | null | undefined
  /** Sections moved into the group, in order. */
  readonly sections?: ReadonlyArray<string> | undefined
}

export interface SectionGroupUpdate {
  readonly title?: string | undefined
  readonly icon?: string | null | undefined
}

export interface AddSiteSpaceInput {
  readonly spaceId: string
  /** Absent: the default section, or the root when the site has no sections. */
  readonly sectionId?: string | undefined
}

export interface SiteSpaceUpdate {
  readonly path?: string | undefined
  /** null removes it. */
  readonly condition?: string | null | undefined
  /** Points the site space at another space of the organization. */
  readonly spaceId?: string | undefined
}
