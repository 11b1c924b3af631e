/** Handlers of the links group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type BacklinkList, ContentLinks, type SpaceAccess } from "@quire/content"
import { Organizations } from "@quire/identity"
import * as ContentPresenters from "../ContentPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { FileLinks } from "../FileLinks.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import { SpaceViews } from "../SpaceViews.ts"

export const layer = HttpApiBuilder.group(Api, "links", Effect.fn(function*(handlers) {
  const links = yield* ContentLinks
  const organizations = yield* Organizations
  const urls = yield* PublicUrl
  const fileLinks = yield* FileLinks
  const views = yield* SpaceViews

  /** The organization and space every reference of the answer carries, looked up once. */
  const context = Effect.fnUntraced(function*(access: SpaceAccess, graph: BacklinkList["graph"]) {
    const organization = yield* organizations.access(access.space.organizationId).pipe(DomainErrors.api)
    const sign = yield* fileLinks.signer
    return {
      urls,
      organization: Presenters.organization(urls, organization),
      space: yield* views.one(access),
      graph,
      downloadUrl: (file) => sign(access.space.id, file)
    } satisfies ContentPresenters.ReferenceContext
  })

  const backlinks = Effect.fnUntraced(function*(found: { readonly access: SpaceAccess; readonly list: BacklinkList }) {
    const ctx = yield* context(found.access, found.list.graph)
    return Presenters.list(found.list.items, (located) => ContentPresenters.pageReference(ctx, located))
  })

  return handlers
    .handle("listSpaceLinks", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* links.spaceLinks(params.spaceId, { ...query, appBaseUrl: urls.base }).pipe(DomainErrors.api)
        return ContentPresenters.linkList(yield* context(found.access, found.list.graph), found.list)
      }))
    .handle("listPageLinks", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* links.pageLinks(params.spaceId, params.pageId, { ...query, appBaseUrl: urls.base }).pipe(DomainErrors.api)
        return ContentPresenters.linkList(yield* context(found.access, found.list.graph), found.list)
      }))
    .handle("listPageBacklinks", ({ params, query }) =>
      links.pageBacklinks(params.spaceId, params.pageId, { ...query, appBaseUrl: urls.base }).pipe(
        DomainErrors.api,
        Effect.flatMap(backlinks)
      ))
    .handle("listFileBacklinks", ({ params, query }) =>
      links.fileBacklinks(params.spaceId, params.fileId, { ...query, appBaseUrl: urls.base }).pipe(
        DomainErrors.api,
        Effect.flatMap(backlinks)
      ))
}))
