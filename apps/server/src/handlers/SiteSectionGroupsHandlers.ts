/** Handlers of the site section groups group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type SectionGroupView, SiteStructure } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import * as SitePresenters from "../SitePresenters.ts"
import * as SiteContexts from "./SiteContexts.ts"

const spacesOf = (views: ReadonlyArray<SectionGroupView>) => ({
  spaces: views.flatMap((view) => view.sections.flatMap((section) => section.siteSpaces.map((s) => s.space)))
})

export const layer = HttpApiBuilder.group(Api, "siteSectionGroups", Effect.fn(function*(handlers) {
  const structure = yield* SiteStructure
  const contexts = yield* SiteContexts.make
  const groups = contexts.presenter(spacesOf, SitePresenters.sectionGroup)
  const present = groups.one
  return handlers
    .handle("listSiteSectionGroups", ({ params, query }) =>
      structure.listSectionGroups(params.organizationId, params.siteId, query).pipe(
        Effect.flatMap((page) => groups.page(params.siteId, page)),
        DomainErrors.api
      ))
    .handle("addSectionGroupToSite", ({ params, payload }) =>
      structure.addSectionGroup(params.organizationId, params.siteId, payload).pipe(
        Effect.flatMap(present(params.siteId)),
        DomainErrors.api
      ))
    .handle("updateSiteSectionGroupById", ({ params, payload }) =>
      structure.updateSectionGroup(params.organizationId, params.siteId, params.siteSectionGroupId, payload).pipe(
        Effect.flatMap(present(params.siteId)),
        DomainErrors.api
      ))
    .handle("deleteSiteSectionGroupById", ({ params }) =>
      structure.removeSectionGroup(params.organizationId, params.siteId, params.siteSectionGroupId).pipe(DomainErrors.api))
    .handle("addSectionToSiteSectionGroup", ({ params, payload }) =>
      structure.addSectionToGroup(params.organizationId, params.siteId, params.siteSectionGroupId, payload.sectionId).pipe(
        Effect.flatMap(present(params.siteId)),
        DomainErrors.api
      ))
    .handle("removeSectionFromSiteSectionGroup", ({ params }) =>
      structure.removeSectionFromGroup(params.organizationId, params.siteId, params.siteSectionGroupId, params.siteSectionId).pipe(
        DomainErrors.api
      ))
    .handle("moveSiteSectionGroup", ({ params, payload }) =>
      structure.moveSectionGroup(params.organizationId, params.siteId, params.siteSectionGroupId, payload.position ?? {}).pipe(
        Effect.flatMap(present(params.siteId)),
        DomainErrors.api
      ))
}))
