/** Handlers of the space content group. */
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api, ApiErrors } from "@quire/api"
import { SpaceContent } from "@quire/content"
import { BoundedCache } from "@quire/kernel"
import * as ContentPresenters from "../ContentPresenters.ts"
import * as RevisionViews from "../RevisionViews.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { FileLinks } from "../FileLinks.ts"
import { lazySource, pageAnswer, PageBodyRenderer } from "../PageBodyRenderer.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

const utf8 = new TextEncoder()

const optionsOf = (query: { readonly metadata?: boolean | undefined }): ContentPresenters.ContentOptions => ({
  metadata: query.metadata ?? true
})

export const layer = HttpApiBuilder.group(Api, "spaceContent", Effect.fn(function*(handlers) {
  const content = yield* SpaceContent
  const urls = yield* PublicUrl
  const links = yield* FileLinks
  const bodies = yield* PageBodyRenderer
  // The JSON of a revision's page tree, by revision and options: a revision never changes, and a
  // large space's tree is hundreds of KB that the endpoint's encoder would write again at every read
  // (the space screen's first request). The same JSON as the encoder's (`RevisionPage`'s encoded
  // form is its type, as `pageAnswer` relies on too), kept as the UTF-8 the answer sends, so that a
  // read does not encode it again.
  const trees = yield* BoundedCache.make<string, Uint8Array>({ name: "page_trees", capacity: 64, maxWeight: 32_000_000, weigh: (json) => json.byteLength })
  const treeOf = (revision: Parameters<typeof ContentPresenters.pages>[1], options: ContentPresenters.ContentOptions) => {
    const key = `${revision.id}\n${options.metadata}`
    let json = trees.get(key)
    if (json === undefined) {
      json = utf8.encode(JSON.stringify({ pages: ContentPresenters.pages(urls, revision, options) }))
      trees.set(key, json)
    }
    return HttpServerResponse.uint8Array(json, { contentType: "application/json" })
  }
  return handlers
    .handle("getCurrentRevision", ({ params, query }) =>
      Effect.gen(function*() {
        const current = yield* content.revision(params.spaceId).pipe(DomainErrors.api)
        const sign = yield* links.signer
        return yield* RevisionViews.withMergedFrom(params.spaceId, ContentPresenters.revision(urls, current.revision, (f) => sign(params.spaceId, f), optionsOf(query)))
      }))
    .handle("listPages", ({ params, query }) =>
      content.revision(params.spaceId).pipe(
        DomainErrors.api,
        Effect.map((current) => treeOf(current.revision, optionsOf(query)))
      ))
    .handle("getPageById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* content.pageEntry(params.spaceId, params.pageId).pipe(DomainErrors.api)
        const body = yield* bodies.body(lazySource(content.pageMarkdown, found), found.access.space.organizationId, query.format)
        return pageAnswer(urls, params.spaceId, found, optionsOf(query), body)
      }))
    .handle("getPageByPath", ({ params, query }) =>
      Effect.gen(function*() {
        const current = yield* content.revision(params.spaceId).pipe(DomainErrors.api)
        const found = yield* content.pageEntryAt(current.revision, params.pagePath).pipe(DomainErrors.api)
        const body = yield* bodies.body(lazySource(content.pageMarkdown, found), current.access.space.organizationId, query.format)
        return pageAnswer(urls, params.spaceId, found, optionsOf(query), body)
      }))
    .handle("listFiles", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* content.files(params.spaceId, query).pipe(DomainErrors.api)
        const sign = yield* links.signer
        return Presenters.list(found.files, (f) => ContentPresenters.file(f, (g) => sign(params.spaceId, g), optionsOf(query)))
      }))
    .handle("getFileById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* content.file(params.spaceId, params.fileId).pipe(DomainErrors.api)
        const sign = yield* links.signer
        return ContentPresenters.file(found.file, (f) => sign(params.spaceId, f), optionsOf(query))
      }))
    .handle("applyTemplateToSpace", ({ params, payload }) =>
      payload.changeRequestId === undefined
        ? content.applyTemplate(params.spaceId, payload.id).pipe(DomainErrors.api, Effect.asVoid)
        : Effect.fail(ApiErrors.BadRequest.of("changeRequestId: templates apply to the space's main content; change requests are not available yet")))
    .handle("importContent", ({ params, payload }) =>
      content.importWebsite(params.spaceId, payload.url).pipe(
        DomainErrors.api,
        Effect.map((result) => ({
          revision: result.revision.id,
          importedResources: result.importedResources,
          totalResources: result.totalResources
        }))
      ))
}))
