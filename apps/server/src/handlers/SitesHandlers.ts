/** Handlers of the sites group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { ServerHostnames, type SitePublishingAuth, Sites } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import { serverHostnames } from "../PublishedSiteRoutes.ts"
import * as Presenters from "../Presenters.ts"
import * as SitePresenters from "../SitePresenters.ts"
import * as SiteContexts from "./SiteContexts.ts"

/** GitBook's `SitePublishingAuth` of the custom backend. */
const publishingAuth = (auth: SitePublishingAuth) => ({
  object: "publishing-auth" as const,
  backend: "custom" as const,
  privateKey: auth.privateKey,
  ...(auth.fallbackURL === undefined ? {} : { fallbackURL: auth.fallbackURL })
})

export const layer = HttpApiBuilder.group(Api, "sites", Effect.fn(function*(handlers) {
  const sites = yield* Sites
  const contexts = yield* SiteContexts.make
  const ownNames = yield* serverHostnames
  const bare = { urls: contexts.urls, counters: new Map() }
  const present = Effect.map((access: Parameters<typeof SitePresenters.site>[1]) => SitePresenters.site(bare, access))
  return handlers
    .handle("listSites", ({ params, query }) =>
      sites.list(params.organizationId, { spaceId: query.space, title: query.title, published: query.published }, query).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, (access) => SitePresenters.site(bare, access)))
      ))
    .handle("createSite", ({ params, payload }) =>
      sites.create(params.organizationId, payload ?? {}).pipe(DomainErrors.api, present))
    .handle("getSiteById", ({ params }) =>
      sites.get(params.organizationId, params.siteId).pipe(DomainErrors.api, present))
    .handle("updateSiteById", ({ params, payload }) =>
      sites.update(params.organizationId, params.siteId, payload).pipe(
        Effect.provideService(ServerHostnames, ownNames),
        DomainErrors.api,
        present
      ))
    .handle("deleteSiteById", ({ params }) => sites.remove(params.organizationId, params.siteId).pipe(DomainErrors.api))
    .handle("getSiteAdaptiveSchema", ({ params }) =>
      sites.getAdaptiveSchema(params.organizationId, params.siteId).pipe(DomainErrors.api, Effect.map(SitePresenters.adaptiveSchema)))
    .handle("updateSiteAdaptiveSchema", ({ params, payload }) =>
      sites.putAdaptiveSchema(params.organizationId, params.siteId, payload.jsonSchema).pipe(
        DomainErrors.api,
        Effect.map(SitePresenters.adaptiveSchema)
      ))
    .handle("listSiteAdaptiveTemplateConditions", ({ params }) =>
      sites.templateConditions(params.organizationId, params.siteId).pipe(DomainErrors.api, Effect.map((items) => ({ items }))))
    .handle("getPublishedContentSite", ({ params, query }) =>
      Effect.gen(function*() {
        const profile = yield* sites.published(params.organizationId, params.siteId)
        const ctx = yield* contexts.ofStructure(params.siteId, profile.structure, query.shareKey)
        return SitePresenters.publishedSite(ctx, profile)
      }).pipe(DomainErrors.api))
    .handle("publishSite", ({ params }) =>
      sites.publish(params.organizationId, params.siteId).pipe(DomainErrors.api, present))
    .handle("unpublishSite", ({ params }) =>
      sites.unpublish(params.organizationId, params.siteId).pipe(DomainErrors.api, present))
    .handle("getSiteStructure", ({ params, query }) =>
      Effect.gen(function*() {
        const view = yield* sites.structure(params.organizationId, params.siteId)
        const ctx = yield* contexts.ofStructure(params.siteId, view, query.shareKey)
        return SitePresenters.structure(ctx, view)
      }).pipe(DomainErrors.api))
    .handle("getSitePublishingAuthById", ({ params }) =>
      sites.getPublishingAuth(params.organizationId, params.siteId).pipe(DomainErrors.api, Effect.map(publishingAuth)))
    .handle("updateSitePublishingAuthById", ({ params, payload }) =>
      sites.updatePublishingAuth(params.organizationId, params.siteId, { fallbackURL: payload.fallbackURL }).pipe(
        DomainErrors.api,
        Effect.map(publishingAuth)
      ))
    .handle("regenerateSitePublishingAuthById", ({ params }) =>
      sites.regeneratePublishingAuth(params.organizationId, params.siteId).pipe(DomainErrors.api, Effect.map(publishingAuth)))
    .handle("getSiteCustomizationById", ({ params }) =>
      sites.getCustomization(params.organizationId, params.siteId).pipe(DomainErrors.api, Effect.map(SitePresenters.customization)))
    .handle("updateSiteCustomizationById", ({ params, payload: { updatedAt: _sent, ...settings } }) =>
      sites.putCustomization(params.organizationId, params.siteId, settings).pipe(
        DomainErrors.api,
        Effect.map(SitePresenters.customization)
      ))
}))
