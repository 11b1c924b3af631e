/** Handlers of the site share links group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type ShareLinkView, ShareLinks } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import * as SitePresenters from "../SitePresenters.ts"

export const layer = HttpApiBuilder.group(Api, "siteShareLinks", Effect.fn(function*(handlers) {
  const shareLinks = yield* ShareLinks
  const urls = yield* PublicUrl
  const present = (view: ShareLinkView) => SitePresenters.shareLink(urls, view)
  return handlers
    .handle("listSiteShareLinks", ({ params, query }) =>
      shareLinks.list(params.organizationId, params.siteId, query).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, present))
      ))
    .handle("createSiteShareLink", ({ params, payload }) =>
      shareLinks.create(params.organizationId, params.siteId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("updateSiteShareLinkById", ({ params, payload }) =>
      shareLinks.update(params.organizationId, params.siteId, params.shareLinkId, payload).pipe(
        DomainErrors.api,
        Effect.map(present)
      ))
    .handle("deleteSiteShareLinkById", ({ params }) =>
      shareLinks.remove(params.organizationId, params.siteId, params.shareLinkId).pipe(DomainErrors.api))
}))
