/** Handlers of the site spaces group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { SiteStructure, type SiteSpaceView } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import * as SitePresenters from "../SitePresenters.ts"
import * as SiteContexts from "./SiteContexts.ts"

export const layer = HttpApiBuilder.group(Api, "siteSpaces", Effect.fn(function*(handlers) {
  const structure = yield* SiteStructure
  const contexts = yield* SiteContexts.make
  /** The context of site spaces of one site: their sections are read when their URLs are shown. */
  const contextOf = (organizationId: string, siteId: string, views: ReadonlyArray<SiteSpaceView>, shareKey?: string) =>
    contexts.context({
      siteId,
      shareKey,
      spaces: views.map((view) => view.space),
      sectionsOf: views.some((view) => view.site.published && view.siteSpace.sectionId !== null) ? { organizationId } : undefined
    })
  const present = (organizationId: string, siteId: string) => (view: SiteSpaceView) =>
    Effect.map(contextOf(organizationId, siteId, [view]), (ctx) => SitePresenters.siteSpace(ctx, view))
  return handlers
    .handle("listSiteSpaces", ({ params, query }) =>
      Effect.gen(function*() {
        const page = yield* structure.listSiteSpaces(params.organizationId, params.siteId, { default: query.default }, query)
        const ctx = yield* contextOf(params.organizationId, params.siteId, page.items, query.shareKey)
        return Presenters.list(page, (view) => SitePresenters.siteSpace(ctx, view))
      }).pipe(DomainErrors.api))
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
