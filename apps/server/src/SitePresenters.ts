/**
 * Sites' records to the API's JSON shapes (GitBook's `Site`, `SiteSection`, `SiteSpace`...), with
 * `urls.published` built as docs/sites.md says and the spaces of site spaces shown as spaces are.
 */
import type {
  PublishedContentSite,
  ShareLink as ShareLinkResponse,
  Site as SiteResponse,
  SiteSection as SectionResponse,
  SiteExternalLink as ExternalLinkResponse,
  SiteSectionGroup as GroupResponse,
  SiteSpace as SiteSpaceResponse,
  SiteStructure as StructureResponse
} from "@quire/api"
import type { SpaceAccess } from "@quire/content"
import type { SpaceCounters } from "@quire/reviews"
import {
  publishedUrl,
  type SectionGroupView,
  type SectionView,
  type ShareLinkView,
  type Site,
  type SiteAccess,
  type SiteAdaptiveSchema,
  type SiteCustomizationRecord,
  type SiteExternalLink as SiteExternalLinkRecord,
  type SiteSpaceView,
  type SiteStructureView,
  siteRoot,
  withDefaults
} from "@quire/sites"
import * as Presenters from "./Presenters.ts"
import type { PublicUrl } from "./PublicUrl.ts"

/** What presenting a site's records needs beside them. */
export interface Context {
  readonly urls: PublicUrl["Service"]
  /** A share secret the caller proved (`shareKey` of an active link of the site). */
  readonly shareSecret?: string | undefined
  /** Counters of the spaces shown (zeros when absent). */
  readonly counters: ReadonlyMap<string, SpaceCounters>
  /** Path and default flag of each section of the site (for site spaces listed on their own). */
  readonly sections?: ReadonlyMap<string, { readonly path: string; readonly default: boolean }> | undefined
}

type Segment = { readonly path: string; readonly default: boolean }

const published = (
  ctx: Context,
  site: Site,
  section?: Segment | null,
  siteSpace?: Segment
): { published?: string } =>
  site.published
    ? { published: publishedUrl(site, { publicUrl: ctx.urls.base, shareSecret: ctx.shareSecret }, section, siteSpace) }
    : {}

const siteLocation = (ctx: Context, site: Site) => `/orgs/${site.organizationId}/sites/${site.id}`

export const site = (ctx: Context, { permissions, site: s, siteSpaces }: SiteAccess): SiteResponse => ({
  object: "site",
  id: s.id,
  type: s.type,
  appliedType: s.type,
  title: s.title,
  ...(s.hostname === null ? {} : { hostname: s.hostname }),
  ...(s.basename === null ? {} : { basename: s.basename }),
  ...(s.proxy === null ? {} : { proxy: { origin: s.proxy, target: siteRoot(s, ctx.urls.base) } }),
  visibility: s.visibility,
  defaultLevel: "inherit",
  permissions,
  published: s.published,
  siteSpaces,
  createdAt: s.createdAt.toISOString(),
  adaptiveContent: { enabled: s.adaptiveContent },
  agentsContext: s.agentsContext,
  features: [],
  urls: {
    location: ctx.urls.api(siteLocation(ctx, s)),
    app: ctx.urls.app(`/o/${s.organizationId}/sites/${s.id}`),
    preview: siteRoot(s, ctx.urls.base),
    ...published(ctx, s)
  }
})

/** A site space; `section` is its section's segment (null at the root; absent: looked up in `ctx.sections`). */
export const siteSpace = (ctx: Context, view: SiteSpaceView, section?: Segment | null): SiteSpaceResponse => {
  const s = view.siteSpace
  const parent = section !== undefined ? section : s.sectionId === null ? null : ctx.sections?.get(s.sectionId) ?? null
  return {
    object: "site-space",
    id: s.id,
    path: s.path,
    ...(s.sectionId === null ? {} : { section: s.sectionId }),
    space: Presenters.space(ctx.urls, view.space, ctx.counters),
    title: view.space.space.title,
    default: view.default,
    ...(s.condition === null ? {} : { condition: s.condition }),
    draft: false,
    hidden: false,
    hasAdvancedCustomizationFeature: false,
    urls: published(ctx, view.site, parent, { path: s.path, default: view.default })
  }
}

export const section = (ctx: Context, view: SectionView): SectionResponse => {
  const s = view.section
  const segment = { path: s.path, default: view.default }
  return {
    object: "site-section",
    id: s.id,
    title: s.title,
    ...(s.description === null ? {} : { description: s.description }),
    default: view.default,
    draft: false,
    path: s.path,
    ...(s.condition === null ? {} : { condition: s.condition }),
    ...(s.groupId === null ? {} : { sectionGroup: s.groupId }),
    ...(s.icon === null ? {} : { icon: s.icon }),
    siteSpaces: view.siteSpaces.map((siteSpaceView) => siteSpace(ctx, siteSpaceView, segment)),
    urls: published(ctx, view.site, segment)
  }
}

/** GitBook's `SiteExternalLink`. */
export const externalLink = (link: SiteExternalLinkRecord): ExternalLinkResponse => ({
  object: "site-external-link",
  id: link.id,
  title: link.title,
  ...(link.description === null ? {} : { description: link.description }),
  ...(link.icon === null ? {} : { icon: link.icon }),
  url: link.url,
  ...(link.groupId === null ? {} : { sectionGroup: link.groupId }),
  draft: link.draft,
  ...(link.condition === null ? {} : { condition: link.condition })
})

export const sectionGroup = (ctx: Context, view: SectionGroupView): GroupResponse => {
  const sections = view.sections.map((sectionView) => section(ctx, sectionView))
  return {
    object: "site-section-group",
    id: view.group.id,
    title: view.group.title,
    ...(view.group.icon === null ? {} : { icon: view.group.icon }),
    draft: false,
    sections,
    children: view.children.map((child) => (child.type === "section" ? section(ctx, child.section) : externalLink(child.link)))
  }
}

export const structure = (ctx: Context, view: SiteStructureView): StructureResponse =>
  view.type === "sections"
    ? {
      type: "sections",
      structure: view.structure.map((item) =>
        item.type === "section" ? section(ctx, item.section) : item.type === "group" ? sectionGroup(ctx, item.group) : externalLink(item.link)
      )
    }
    : { type: "siteSpaces", structure: view.structure.map((siteSpaceView) => siteSpace(ctx, siteSpaceView, null)) }

/** A share link; its `urls.published` carries its own secret, whether or not it is active. */
export const shareLink = (urls: PublicUrl["Service"], { shareLink: link, site: s }: ShareLinkView): ShareLinkResponse => ({
  object: "share-link",
  id: link.id,
  createdAt: link.createdAt.toISOString(),
  ...(link.name === "" ? {} : { name: link.name }),
  active: link.active,
  urls: { published: publishedUrl({ ...s, visibility: "share-link" }, { publicUrl: urls.base, shareSecret: link.secret }) }
})

export const adaptiveSchema = (schema: SiteAdaptiveSchema) => ({
  object: "site-adaptive-schema" as const,
  jsonSchema: schema.jsonSchema as Record<string, unknown>,
  updatedAt: schema.updatedAt.toISOString()
})

/**
 * A site's settings, every one GitBook's schema requires filled in with its default where unset,
 * but `insights`: a Quire site records views only once they are turned on, which `insights` set says.
 */
const withoutInsights = ({ insights: _insights, ...rest }: SiteCustomizationRecord["settings"]) => rest

export const customization = (record: SiteCustomizationRecord) => ({
  ...withoutInsights(withDefaults(record.settings)),
  ...(record.settings.insights === undefined ? {} : { insights: record.settings.insights }),
  ...(record.updatedAt === null ? {} : { updatedAt: record.updatedAt.toISOString() })
})

export const publishedSite = (
  ctx: Context,
  profile: {
    readonly site: SiteAccess
    readonly structure: SiteStructureView
    readonly customization: SiteCustomizationRecord["settings"]
    readonly siteSpaceCustomizations: Readonly<Record<string, SiteCustomizationRecord["settings"]>>
  }
): typeof PublishedContentSite.Type => {
  // Every setting filled in, for each site space too: GitBook's renderer reads them unchecked.
  const siteSettings = withDefaults(profile.customization)
  const siteSpaces = Object.fromEntries(
    siteSpaceIdsOf(profile.structure).map((id) => {
      const own = profile.siteSpaceCustomizations[id]
      return [id, own === undefined ? siteSettings : withDefaults(own)] as const
    })
  )
  return {
    object: "published-content-site",
    site: site(ctx, profile.site),
    structure: structure(ctx, profile.structure),
    customizations: { site: siteSettings, siteSpaces },
    scripts: []
  }
}

/** Every site space a structure shows, by id. */
const siteSpaceIdsOf = (view: SiteStructureView): ReadonlyArray<string> =>
  view.type === "siteSpaces"
    ? view.structure.map((s) => s.siteSpace.id)
    : view.structure.flatMap((item) =>
      (item.type === "section" ? [item.section] : item.type === "group" ? item.group.sections : []).flatMap((s) => s.siteSpaces.map((v) => v.siteSpace.id))
    )

/** Every space a structure shows, for reading their counters at once. */
export const spacesOf = (view: SiteStructureView): ReadonlyArray<SpaceAccess> =>
  view.type === "siteSpaces"
    ? view.structure.map((s) => s.space)
    : view.structure.flatMap((item) =>
      (item.type === "section" ? [item.section] : item.type === "group" ? item.group.sections : []).flatMap((s) => s.siteSpaces.map((v) => v.space))
    )

/** Path and default flag of each section of a structure. */
export const sectionsOf = (view: SiteStructureView): ReadonlyMap<string, Segment> =>
  new Map(
    view.type === "siteSpaces"
      ? []
      : view.structure
        .flatMap((item) => item.type === "section" ? [item.section] : item.type === "group" ? item.group.sections : [])
        .map((s) => [s.section.id, { path: s.section.path, default: s.default }] as const)
  )
