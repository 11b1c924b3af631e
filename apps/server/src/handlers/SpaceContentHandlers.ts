/** Handlers of the space content group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, ApiErrors } from "@quire/api"
import { SpaceContent } from "@quire/content"
import * as ContentPresenters from "../ContentPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { FileLinks } from "../FileLinks.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

const optionsOf = (query: { readonly metadata?: boolean | undefined }): ContentPresenters.ContentOptions => ({
  metadata: query.metadata ?? true
})

export const layer = HttpApiBuilder.group(Api, "spaceContent", Effect.fn(function*(handlers) {
  const content = yield* SpaceContent
  const urls = yield* PublicUrl
  const links = yield* FileLinks
  return handlers
    .handle("getCurrentRevision", ({ params, query }) =>
      Effect.gen(function*() {
        const current = yield* content.revision(params.spaceId).pipe(DomainErrors.api)
        const sign = yield* links.signer
        return ContentPresenters.revision(urls, current.revision, (f) => sign(params.spaceId, f), optionsOf(query))
      }))
    .handle("listPages", ({ params, query }) =>
      content.revision(params.spaceId).pipe(
        DomainErrors.api,
        Effect.map((current) => ({ pages: ContentPresenters.pages(urls, current.revision, optionsOf(query)) }))
      ))
    .handle("getPageById", ({ params, query }) =>
      content.page(params.spaceId, params.pageId).pipe(
        DomainErrors.api,
        Effect.flatMap((found) =>
          Effect.map(
            ContentPresenters.pageBody(found, query.format),
            (body) => ContentPresenters.page(urls, params.spaceId, found.page, found.path, optionsOf(query), body)
          )
        )
      ))
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
