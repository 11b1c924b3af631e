/** Handlers of the site spaces group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { SiteStructure, type SiteSpaceView } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import * as SitePresenters from "../SitePresenters.ts"
import * as SiteContexts from "./SiteContexts.ts"

export const layer = HttpApiBuilder.group(Api, "siteSpaces", Effect.fn(function*(handlers) {
  const structure = yield* SiteStructure
  const contexts = yield* SiteContexts.make
  /** Site spaces of an organization's site: their sections are read when their URLs are shown. */
  const siteSpaces = (organizationId: string) =>
    contexts.presenter((views: ReadonlyArray<SiteSpaceView>) => ({
      spaces: views.map((view) => view.space),
      sectionsOf: views.some((view) => view.site.published && view.siteSpace.sectionId !== null) ? { organizationId } : undefined
    }), SitePresenters.siteSpace)
  const present = (organizationId: string, siteId: string) => siteSpaces(organizationId).one(siteId)
  return handlers
    .handle("listSiteSpaces", ({ params, query }) =>
      structure.listSiteSpaces(params.organizationId, params.siteId, { default: query.default }, query).pipe(
        Effect.flatMap((page) => siteSpaces(params.organizationId).page(params.siteId, page, query.shareKey)),
        DomainErrors.api
      ))
    .handle("addSpaceToSite", ({ params, payload }) =>
      structure.addSiteSpace(params.organizationId, params.siteId, payload).pipe(
        Effect.flatMap(present(params.organizationId, params.siteId)),
        DomainErrors.api
      ))
    .handle("updateSiteSpaceById", ({ params, payload }) =>
      structure.updateSiteSpace(params.organizationId, params.siteId, params.siteSpaceId, payload).pipe(
        Effect.flatMap(present(params.organizationId, params.siteId)),
        DomainErrors.api
      ))
    .handle("deleteSiteSpaceById", ({ params }) =>
      structure.removeSiteSpace(params.organizationId, params.siteId, params.siteSpaceId).pipe(DomainErrors.api))
    .handle("moveSiteSpace", ({ params, payload }) =>
      structure.moveSiteSpace(params.organizationId, params.siteId, params.siteSpaceId, payload.position ?? {}).pipe(
        Effect.flatMap(present(params.organizationId, params.siteId)),
        DomainErrors.api
      ))
}))
