/** Handlers of the site sections group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type SectionView, SiteStructure } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import * as SitePresenters from "../SitePresenters.ts"
import * as SiteContexts from "./SiteContexts.ts"

const spacesOf = (views: ReadonlyArray<SectionView>) => ({ spaces: views.flatMap((view) => view.siteSpaces.map((s) => s.space)) })

export const layer = HttpApiBuilder.group(Api, "siteSections", Effect.fn(function*(handlers) {
  const structure = yield* SiteStructure
  const contexts = yield* SiteContexts.make
  const sections = contexts.presenter(spacesOf, SitePresenters.section)
  const present = sections.one
  return handlers
    .handle("listSiteSections", ({ params, query }) =>
      structure.listSections(params.organizationId, params.siteId, query).pipe(
        Effect.flatMap((page) => sections.page(params.siteId, page, query.shareKey)),
        DomainErrors.api
      ))
    .handle("addSectionToSite", ({ params, payload }) =>
      structure.addSection(params.organizationId, params.siteId, payload).pipe(
        Effect.flatMap(present(params.siteId)),
        DomainErrors.api
      ))
    .handle("updateSiteSectionById", ({ params, payload }) =>
      structure.updateSection(params.organizationId, params.siteId, params.siteSectionId, payload).pipe(
        Effect.flatMap(present(params.siteId)),
        DomainErrors.api
      ))
    .handle("deleteSiteSectionById", ({ params }) =>
      structure.removeSection(params.organizationId, params.siteId, params.siteSectionId).pipe(DomainErrors.api))
    .handle("moveSiteSection", ({ params, payload }) =>
      structure.moveSection(params.organizationId, params.siteId, params.siteSectionId, payload.position ?? {}).pipe(
        Effect.flatMap(present(params.siteId)),
        DomainErrors.api
      ))
}))
