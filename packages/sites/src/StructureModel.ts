/**
 * A site's structure in memory (what the use cases and the reader's side compute from): the top
 * level, sections in reading order, the site spaces of a parent, and the defaults after a removal.
 */
import { Effect, Option } from "effect"
import { compareCodePoints } from "@quire/kernel"
import type { Site } from "./domain/Site.ts"
import type { SiteSection, SiteSectionGroup, SiteSpace } from "./domain/Structure.ts"
import type { SiteExternalLink } from "./domain/StructureExtras.ts"
import { SitesRepo } from "./SitesRepo.ts"
import { SiteStructureRepo } from "./SiteStructureRepo.ts"

export interface Model {
  /** In order. */
  readonly sections: ReadonlyArray<SiteSection>
  readonly groups: ReadonlyArray<SiteSectionGroup>
  readonly siteSpaces: ReadonlyArray<SiteSpace>
  /** In order, grouped or not. */
  readonly externalLinks: ReadonlyArray<SiteExternalLink>
}

export type TopItem =
  | { readonly type: "section"; readonly id: string; readonly position: number; readonly section: SiteSection }
  | { readonly type: "group"; readonly id: string; readonly position: number; readonly group: SiteSectionGroup }

const byOrder = (a: { position: number; createdAt: Date; id: string }, b: { position: number; createdAt: Date; id: string }) =>
  a.position - b.position || a.createdAt.getTime() - b.createdAt.getTime() || compareCodePoints(a.id, b.id)

export const load = (repo: typeof SiteStructureRepo.Service, siteId: string): Effect.Effect<Model> =>
  Effect.map(
    Effect.all([repo.sections(siteId), repo.groups(siteId), repo.siteSpaces(siteId), repo.externalLinks(siteId)]),
    ([sections, groups, siteSpaces, externalLinks]) => ({ sections, groups, siteSpaces, externalLinks })
  )

/** Ungrouped sections and groups, in order (a section naming a missing group counts as ungrouped). */
export const topLevel = (model: Model): ReadonlyArray<TopItem> => {
  const groupIds = new Set(model.groups.map((g) => g.id))
  const items = [
    ...model.sections
      .filter((s) => s.groupId === null || !groupIds.has(s.groupId))
      .map((section) => ({ type: "section" as const, id: section.id, position: section.position, createdAt: section.createdAt, section })),
    ...model.groups.map((group) => ({ type: "group" as const, id: group.id, position: group.position, createdAt: group.createdAt, group }))
  ]
  return items.toSorted(byOrder)
}

/** An item of one level of the structure: the top level, or a group's. */
export type LevelItem = TopItem | { readonly type: "link"; readonly id: string; readonly position: number; readonly link: SiteExternalLink }

/**
 * The items of a level in order: with `groupId` null the top level (ungrouped sections, groups and
 * links), else the group's sections and links. A link naming a missing group stands at the top.
 */
export const levelOf = (model: Model, groupId: string | null): ReadonlyArray<LevelItem> => {
  const groupIds = new Set(model.groups.map((g) => g.id))
  const inLevel = (g: string | null) => groupId === null ? g === null || !groupIds.has(g) : g === groupId
  const links = model.externalLinks.filter((l) => inLevel(l.groupId))
    .map((link) => ({ type: "link" as const, id: link.id, position: link.position, createdAt: link.createdAt, link }))
  const others = groupId === null
    ? topLevel(model).map((item) => ({ ...item, createdAt: item.type === "section" ? item.section.createdAt : item.group.createdAt }))
    : sectionsOf(model, groupId).map((section) => ({ type: "section" as const, id: section.id, position: section.position, createdAt: section.createdAt, section }))
  return [...others, ...links].toSorted(byOrder)
}

/** A group's sections in order. */
export const sectionsOf = (model: Model, groupId: string): ReadonlyArray<SiteSection> =>
  model.sections.filter((s) => s.groupId === groupId)

/** Every section in reading order: each group's sections where the group stands. */
export const readingOrder = (model: Model): ReadonlyArray<SiteSection> =>
  topLevel(model).flatMap((item) => (item.type === "section" ? [item.section] : sectionsOf(model, item.id)))

/** The site spaces of a section, or of the root (null), in order. */
export const siteSpacesOf = (model: Model, sectionId: string | null): ReadonlyArray<SiteSpace> =>
  model.siteSpaces.filter((s) => s.sectionId === sectionId)

/** The id that takes over when `removedId` leaves `list` (the next one, else the previous one). */
export const successor = (list: ReadonlyArray<{ readonly id: string }>, removedId: string): string | null => {
  const at = list.findIndex((item) => item.id === removedId)
  if (at < 0) return null
  return list[at + 1]?.id ?? list[at - 1]?.id ?? null
}

/**
 * Removes a site space; when it was its parent's default, the next one (else the previous) takes
 * over. Call inside a transaction.
 */
export const removeSiteSpace = (site: Site, model: Model, siteSpace: SiteSpace, now: Date) =>
  Effect.gen(function*() {
    const structure = yield* SiteStructureRepo
    const sites = yield* SitesRepo
    const siblings = siteSpacesOf(model, siteSpace.sectionId)
    const next = successor(siblings, siteSpace.id)
    yield* structure.removeSiteSpace(siteSpace.id)
    if (siteSpace.sectionId === null) {
      if (site.defaultSiteSpaceId === siteSpace.id) yield* sites.update(site.id, { defaultSiteSpaceId: next, updatedAt: now }).pipe(Effect.orDie)
    } else {
      const section = model.sections.find((s) => s.id === siteSpace.sectionId)
      if (section !== undefined && section.defaultSiteSpaceId === siteSpace.id) {
        yield* structure.updateSection(section.id, { defaultSiteSpaceId: next, updatedAt: now })
      }
    }
  })

/** The default site space of a parent (a section, or the root). */
export const defaultOf = (site: Site, model: Model, sectionId: string | null): string | null =>
  sectionId === null
    ? site.defaultSiteSpaceId
    : Option.getOrNull(Option.fromNullishOr(model.sections.find((s) => s.id === sectionId)?.defaultSiteSpaceId))
