/** Port: the structure of sites: sections, section groups and site spaces. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { SiteSection, SiteSectionGroup, SiteSpace } from "./domain/Structure.ts"
import type { SiteExternalLink, SiteSpaceCustomizationRecord } from "./domain/StructureExtras.ts"

export type SectionPatch = Partial<Omit<SiteSection, "id" | "siteId" | "createdAt">>
export type SectionGroupPatch = Partial<Omit<SiteSectionGroup, "id" | "siteId" | "createdAt">>
export type SiteSpacePatch = Partial<Omit<SiteSpace, "id" | "siteId" | "createdAt">>
export type ExternalLinkPatch = Partial<Omit<SiteExternalLink, "id" | "siteId" | "createdAt">>

export interface SiteStructureRepoShape {
  /** The site's sections ordered by (position, createdAt, id), grouped or not. */
  readonly sections: (siteId: string) => Effect.Effect<ReadonlyArray<SiteSection>>
  readonly groups: (siteId: string) => Effect.Effect<ReadonlyArray<SiteSectionGroup>>
  /** The site's site spaces ordered by (position, createdAt, id), every section's and the root's. */
  readonly siteSpaces: (siteId: string) => Effect.Effect<ReadonlyArray<SiteSpace>>
  readonly insertSection: (section: SiteSection) => Effect.Effect<void>
  readonly updateSection: (sectionId: string, patch: SectionPatch) => Effect.Effect<Option.Option<SiteSection>>
  readonly removeSection: (sectionId: string) => Effect.Effect<void>
  readonly insertGroup: (group: SiteSectionGroup) => Effect.Effect<void>
  readonly updateGroup: (groupId: string, patch: SectionGroupPatch) => Effect.Effect<Option.Option<SiteSectionGroup>>
  readonly removeGroup: (groupId: string) => Effect.Effect<void>
  readonly insertSiteSpace: (siteSpace: SiteSpace) => Effect.Effect<void>
  readonly updateSiteSpace: (siteSpaceId: string, patch: SiteSpacePatch) => Effect.Effect<Option.Option<SiteSpace>>
  readonly removeSiteSpace: (siteSpaceId: string) => Effect.Effect<void>
  /** The site's external links ordered by (position, createdAt, id), grouped or not. */
  readonly externalLinks: (siteId: string) => Effect.Effect<ReadonlyArray<SiteExternalLink>>
  readonly insertExternalLink: (link: SiteExternalLink) => Effect.Effect<void>
  readonly updateExternalLink: (linkId: string, patch: ExternalLinkPatch) => Effect.Effect<Option.Option<SiteExternalLink>>
  readonly removeExternalLink: (linkId: string) => Effect.Effect<void>
  /** The overrides of the site's customization that its site spaces hold. */
  readonly siteSpaceCustomizations: (siteId: string) => Effect.Effect<ReadonlyArray<SiteSpaceCustomizationRecord>>
  readonly putSiteSpaceCustomization: (record: SiteSpaceCustomizationRecord) => Effect.Effect<void>
  /** Whether there was one to remove. */
  readonly removeSiteSpaceCustomization: (siteSpaceId: string) => Effect.Effect<boolean>
  /** Removes every section, group, site space, external link and override of the site. */
  readonly removeSite: (siteId: string) => Effect.Effect<void>
  /** The site spaces showing a space, in any site. */
  readonly siteSpacesOfSpace: (spaceId: string) => Effect.Effect<ReadonlyArray<SiteSpace>>
  /** How many site spaces each site has (0 for those without). */
  readonly countSiteSpaces: (siteIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, number>>
}

const order = <A extends { readonly position: number; readonly createdAt: Date; readonly id: string }>(items: Iterable<A>) =>
  Array.from(items).toSorted((a, b) =>
    Pagination.compareKeys([a.position, a.createdAt.toISOString(), a.id], [b.position, b.createdAt.toISOString(), b.id])
  )

const patchOf = <A>(map: MemoryStore.TxMap<string, A>, id: string, patch: Partial<A>): Option.Option<A> => {
  const found = map.get(id)
  if (found === undefined) return Option.none()
  const next = { ...found, ...patch }
  map.set(id, next)
  return Option.some(next)
}

const ofSite = <A extends { readonly siteId: string }>(map: Map<string, A>, siteId: string) =>
  Array.from(map.values()).filter((a) => a.siteId === siteId)

export class SiteStructureRepo extends Context.Service<SiteStructureRepo, SiteStructureRepoShape>()("@quire/sites/SiteStructureRepo") {
  static readonly layerMemory = Layer.sync(SiteStructureRepo, () => {
    const sections = new MemoryStore.TxMap<string, SiteSection>()
    const groups = new MemoryStore.TxMap<string, SiteSectionGroup>()
    const siteSpaces = new MemoryStore.TxMap<string, SiteSpace>()
    const links = new MemoryStore.TxMap<string, SiteExternalLink>()
    const customizations = new MemoryStore.TxMap<string, SiteSpaceCustomizationRecord>()
    return SiteStructureRepo.of({
      sections: (siteId) => Effect.sync(() => order(ofSite(sections, siteId))),
      groups: (siteId) => Effect.sync(() => order(ofSite(groups, siteId))),
      siteSpaces: (siteId) => Effect.sync(() => order(ofSite(siteSpaces, siteId))),
      insertSection: (section) => Effect.sync(() => void sections.set(section.id, section)),
      updateSection: (id, patch) => Effect.sync(() => patchOf<SiteSection>(sections, id, patch)),
      removeSection: (id) => Effect.sync(() => void sections.delete(id)),
      insertGroup: (group) => Effect.sync(() => void groups.set(group.id, group)),
      updateGroup: (id, patch) => Effect.sync(() => patchOf<SiteSectionGroup>(groups, id, patch)),
      removeGroup: (id) => Effect.sync(() => void groups.delete(id)),
      insertSiteSpace: (siteSpace) => Effect.sync(() => void siteSpaces.set(siteSpace.id, siteSpace)),
      updateSiteSpace: (id, patch) => Effect.sync(() => patchOf<SiteSpace>(siteSpaces, id, patch)),
      removeSiteSpace: (id) =>
        Effect.sync(() => {
          siteSpaces.delete(id)
          customizations.delete(id)
        }),
      externalLinks: (siteId) => Effect.sync(() => order(ofSite(links, siteId))),
      insertExternalLink: (link) => Effect.sync(() => void links.set(link.id, link)),
      updateExternalLink: (id, patch) => Effect.sync(() => patchOf<SiteExternalLink>(links, id, patch)),
      removeExternalLink: (id) => Effect.sync(() => void links.delete(id)),
      siteSpaceCustomizations: (siteId) => Effect.sync(() => ofSite(customizations, siteId)),
      putSiteSpaceCustomization: (record) => Effect.sync(() => void customizations.set(record.siteSpaceId, record)),
      removeSiteSpaceCustomization: (id) => Effect.sync(() => customizations.delete(id)),
      removeSite: (siteId) =>
        Effect.sync(() => {
          for (const record of ofSite(customizations, siteId)) customizations.delete(record.siteSpaceId)
          for (const map of [sections, groups, siteSpaces, links] as const) {
            for (const item of ofSite<{ readonly siteId: string; readonly id: string }>(map, siteId)) map.delete(item.id)
          }
        }),
      siteSpacesOfSpace: (spaceId) => Effect.sync(() => order(Array.from(siteSpaces.values()).filter((s) => s.spaceId === spaceId))),
      countSiteSpaces: (siteIds) =>
        Effect.sync(() => {
          const counts = new Map(siteIds.map((id) => [id, 0]))
          for (const siteSpace of siteSpaces.values()) {
            const n = counts.get(siteSpace.siteId)
            if (n !== undefined) counts.set(siteSpace.siteId, n + 1)
          }
          return counts
        })
    })
  })
}
