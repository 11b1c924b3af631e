/** The views of a site's structure as a caller of an organization sees it: site spaces with their spaces, sections, groups, the whole. */
import { Effect, Option } from "effect"
import { ContentAccess, type OrganizationAccessResolver, type Space, SpacesRepo } from "@quire/content"
import * as Model from "../StructureModel.ts"
import type { SiteSection, SiteSectionGroup, SiteSpace } from "../domain/Structure.ts"
import type { SectionGroupView, SectionView, SiteSpaceView, SiteStructureView, StructureItem } from "./StructureTypes.ts"

/** The views for a caller of the organization (each space read and resolved once). */
export const viewerOf = (access: ContentAccess["Service"], spaces: SpacesRepo["Service"]) =>
  Effect.fnUntraced(function*(organizationId: string) {
    const resolver: OrganizationAccessResolver = yield* access.inOrganization(organizationId)
    const cache = new Map<string, Option.Option<Space>>()
    const spaceOf = (spaceId: string) =>
      cache.has(spaceId)
        ? Effect.succeed(cache.get(spaceId)!)
        : Effect.tap(spaces.find(spaceId), (found) => Effect.sync(() => cache.set(spaceId, found)))

    const siteSpaceView = (site: Parameters<typeof Model.defaultOf>[0], model: Model.Model, siteSpace: SiteSpace) =>
      Effect.gen(function*() {
        const space = yield* spaceOf(siteSpace.spaceId)
        if (Option.isNone(space)) return Option.none<SiteSpaceView>()
        const spaceAccess = yield* resolver.ofSpace(space.value)
        return Option.some<SiteSpaceView>({
          site,
          siteSpace,
          space: spaceAccess,
          default: Model.defaultOf(site, model, siteSpace.sectionId) === siteSpace.id
        })
      })

    const siteSpacesView = (site: Parameters<typeof Model.defaultOf>[0], model: Model.Model, list: ReadonlyArray<SiteSpace>) =>
      Effect.map(Effect.forEach(list, (s) => siteSpaceView(site, model, s)), (views) => views.flatMap(Option.toArray))

    const sectionView = (site: Parameters<typeof Model.defaultOf>[0], model: Model.Model, section: SiteSection) =>
      Effect.map(siteSpacesView(site, model, Model.siteSpacesOf(model, section.id)), (siteSpaces): SectionView => ({
        site,
        section,
        default: site.defaultSectionId === section.id,
        siteSpaces
      }))

    const groupView = (site: Parameters<typeof Model.defaultOf>[0], model: Model.Model, group: SiteSectionGroup) =>
      Effect.map(
        Effect.forEach(Model.levelOf(model, group.id).flatMap((i) => (i.type === "group" ? [] : [i])), (item) =>
          item.type === "section"
            ? Effect.map(sectionView(site, model, item.section), (section): SectionGroupView["children"][number] => ({ type: "section", section }))
            : Effect.succeed<SectionGroupView["children"][number]>({ type: "link", link: item.link })),
        (children): SectionGroupView => ({
          site,
          group,
          sections: children.flatMap((c) => (c.type === "section" ? [c.section] : [])),
          children
        })
      )

    const structureView = (site: Parameters<typeof Model.defaultOf>[0], model: Model.Model) =>
      model.sections.length === 0
        ? Effect.map(siteSpacesView(site, model, Model.siteSpacesOf(model, null)), (structure): SiteStructureView => ({
          type: "siteSpaces",
          structure
        }))
        : Effect.map(
          Effect.forEach(Model.levelOf(model, null), (item) =>
            item.type === "section"
              ? Effect.map(sectionView(site, model, item.section), (section): StructureItem => ({ type: "section", section }))
              : item.type === "group"
              ? Effect.map(groupView(site, model, item.group), (group): StructureItem => ({ type: "group", group }))
              : Effect.succeed<StructureItem>({ type: "link", link: item.link })),
          (structure): SiteStructureView => ({ type: "sections", structure })
        )

    return { siteSpaceView, siteSpacesView, sectionView, groupView, structureView }
  })

export type Viewer = Effect.Success<ReturnType<ReturnType<typeof viewerOf>>>
