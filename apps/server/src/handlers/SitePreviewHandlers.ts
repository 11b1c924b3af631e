/** Handlers of the site preview group: a change request's preview URL and its share links. */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Errors } from "@quire/kernel"
import { ChangeRequests } from "@quire/reviews"
import { PublishedSites, type ShareLinkView, ShareLinks, Sites, siteRoot } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import { previewSegment } from "../ChangePreview.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "sitePreview", Effect.fn(function*(handlers) {
  const sites = yield* Sites
  const published = yield* PublishedSites
  const shareLinks = yield* ShareLinks
  const changeRequests = yield* ChangeRequests
  const urls = yield* PublicUrl

  /** The change request's preview root on the site, for a caller who reads both; NotFound otherwise. */
  const previewRoot = Effect.fnUntraced(function*(organizationId: string, siteId: string, changeRequestId: string) {
    const { site } = yield* sites.get(organizationId, siteId)
    const found = yield* changeRequests.forPreview(changeRequestId)
    if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "ChangeRequest", id: changeRequestId })
    yield* changeRequests.get(found.value.spaceId, changeRequestId)
    const live = yield* published.byId(siteId)
    if (Option.isNone(live)) {
      return yield* new Errors.InvalidInput({ field: "siteId", reason: "the site is not published: publish it to preview a change request on it" })
    }
    const shown = [...live.value.rootSiteSpaces, ...live.value.sections.flatMap((s) => s.siteSpaces)]
    if (!shown.some((s) => s.space.id === found.value.spaceId)) {
      return yield* new Errors.InvalidInput({ field: "changeRequest", reason: "the change request's space is not published on this site" })
    }
    return `${siteRoot(site, urls.base)}${previewSegment}${encodeURIComponent(changeRequestId)}/`
  })

  const present = (root: string) => ({ shareLink: link }: ShareLinkView) => ({
    object: "share-link" as const,
    id: link.id,
    createdAt: link.createdAt.toISOString(),
    name: link.name,
    active: link.active,
    urls: { published: `${root}?share=${encodeURIComponent(link.secret)}` }
  })

  return handlers
    .handle("getSitePublishingPreviewById", ({ params, query }) =>
      Effect.gen(function*() {
        if (query.changeRequest !== undefined) {
          return { url: yield* previewRoot(params.organizationId, params.siteId, query.changeRequest) }
        }
        const { site } = yield* sites.get(params.organizationId, params.siteId)
        return { url: siteRoot(site, urls.base) }
      }).pipe(DomainErrors.api))
    .handle("listSitePreviewShareLinks", ({ params }) =>
      Effect.gen(function*() {
        const root = yield* previewRoot(params.organizationId, params.siteId, params.changeRequestId)
        const links = yield* shareLinks.listPreview(params.organizationId, params.siteId, params.changeRequestId)
        return { items: links.map(present(root)) }
      }).pipe(DomainErrors.api))
    .handle("createSitePreviewShareLink", ({ params }) =>
      Effect.gen(function*() {
        const root = yield* previewRoot(params.organizationId, params.siteId, params.changeRequestId)
        return present(root)(yield* shareLinks.createPreview(params.organizationId, params.siteId, params.changeRequestId))
      }).pipe(DomainErrors.api))
    .handle("deleteSitePreviewShareLink", ({ params }) =>
      Effect.gen(function*() {
        yield* sites.get(params.organizationId, params.siteId)
        yield* shareLinks.removePreview(params.organizationId, params.siteId, params.changeRequestId, params.shareLinkId)
      }).pipe(DomainErrors.api))
}))
