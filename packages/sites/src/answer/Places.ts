/** Which sections and site spaces an audience sees, where each sits below the root, and which one a path names. */
import * as Audience from "../Audience.ts"
import type { PublishedSection, PublishedSite, PublishedSiteSpace } from "../PublishedSites.ts"

/** A site space as the reader sees it: where it sits and its URL below the root. */
export interface Place {
  readonly section: PublishedSection | undefined
  readonly siteSpace: PublishedSiteSpace
  /** Below the root, `""` or ending with `/`. */
  readonly prefix: string
}

/** The sections and site spaces an audience sees. */
export interface Visible {
  readonly sections: ReadonlyArray<PublishedSection & { readonly prefix: string }>
  readonly places: ReadonlyArray<Place>
  readonly home: Place | undefined
}

export const visibleOf = (site: PublishedSite, claims: Readonly<Record<string, unknown>>, parse: Audience.ParseCondition): Visible => {
  const placesOf = (section: PublishedSection | undefined, list: ReadonlyArray<PublishedSiteSpace>, sectionPrefix: string): Array<Place> =>
    Audience.filterVisible(list, (s) => s.siteSpace.condition, claims, parse).map((siteSpace) => ({
      section,
      siteSpace,
      prefix: siteSpace.default ? sectionPrefix : `${sectionPrefix}${encodeURIComponent(siteSpace.siteSpace.path)}/`
    }))
  if (site.sections.length === 0) {
    const places = placesOf(undefined, site.rootSiteSpaces, "")
    return { sections: [], places, home: places.find((p) => p.siteSpace.default) }
  }
  const sections = Audience.filterVisible(site.sections, (s) => s.section.condition, claims, parse).map((s) => ({
    ...s,
    prefix: s.default ? "" : `${encodeURIComponent(s.section.path)}/`
  }))
  const places = sections.flatMap((s) => placesOf(s, s.siteSpaces, s.prefix))
  const homeSection = sections.find((s) => s.default)
  return { sections, places, home: places.find((p) => p.section === homeSection && p.siteSpace.default) }
}

/**
 * What a member admitted by their session sees of `visible`: the site spaces of the spaces they may
 * read, the sections left with one, and the home among them (the first place when the home is not).
 */
export const narrowTo = (visible: Visible, readable: ReadonlyArray<string>): Visible => {
  const places = visible.places.filter((p) => readable.includes(p.siteSpace.space.id))
  const sections = visible.sections.filter((s) => places.some((p) => p.section?.section.id === s.section.id))
  const home = visible.home !== undefined && places.includes(visible.home)
    ? visible.home
    : places.find((p) => p.siteSpace.default && (p.section === undefined || sections[0]?.section.id === p.section.section.id)) ?? places[0]
  return { sections, places, home }
}

/** The place a path names, left to right (docs/sites.md, "URLs"), and the rest of the path. */
export const locate = (
  site: PublishedSite,
  visible: Visible,
  segments: ReadonlyArray<string>
): { readonly place: Place; readonly rest: ReadonlyArray<string> } | undefined => {
  let rest = segments
  let section: PublishedSection | undefined
  if (site.sections.length > 0) {
    const named = visible.sections.find((s) => !s.default && s.section.path === rest[0])
    section = named ?? visible.sections.find((s) => s.default)
    if (section === undefined) return undefined
    if (named !== undefined) rest = rest.slice(1)
  }
  const places = visible.places.filter((p) => p.section === section)
  const named = places.find((p) => !p.siteSpace.default && p.siteSpace.siteSpace.path === rest[0])
  const place = named ?? places.find((p) => p.siteSpace.default)
  if (place === undefined) return undefined
  return { place, rest: named === undefined ? rest : rest.slice(1) }
}
