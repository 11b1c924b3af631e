/** Handlers of the change request content group: batches of edits and reads of the head revision. */
import { Effect, Option, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, ApiErrors, type ChangeRequestContentChange, JsonDocument } from "@quire/api"
import type { Actor } from "@quire/kernel"
import { ContentLinks, documentPageMarkdown, type DocumentSource, type SpaceAccess, SpaceContent } from "@quire/content"
import { Organizations } from "@quire/identity"
import { type ChangeInput, ChangeRequests, type FileInput, type UrlFileInput } from "@quire/reviews"
import * as ChangeRequestPresenters from "../ChangeRequestPresenters.ts"
import * as ContentPresenters from "../ContentPresenters.ts"
import * as RevisionViews from "../RevisionViews.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { FileLinks } from "../FileLinks.ts"
import { eagerSource, lazySource, pageAnswer, PageBodyRenderer } from "../PageBodyRenderer.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import { SpaceViews } from "../SpaceViews.ts"

const optionsOf = (query: { readonly metadata?: boolean | undefined }): ContentPresenters.ContentOptions => ({
  metadata: query.metadata ?? true
})

const base64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/

/** The page a document is written over (its current content, so that unchanged blocks keep their text), if there is one. */
type PageBefore = (pageId: string) => Effect.Effect<DocumentSource | undefined, never, Actor.Actor>

/**
 * A page's document as the markdown to store: its `markdown`, or its GitBook JSON `document`
 * written as GitBook markdown (see `documentPageMarkdown`); a 400 naming the field when the JSON is
 * no GitBook document.
 */
const markdownOf = (
  input: { readonly markdown?: string | undefined; readonly document?: unknown },
  field: string,
  before: Effect.Effect<DocumentSource | undefined, never, Actor.Actor>
): Effect.Effect<string | undefined, ApiErrors.BadRequest, Actor.Actor> => {
  if (input.document === undefined) return Effect.succeed(input.markdown)
  const bad = (reason: string) => ApiErrors.BadRequest.of(`${field}.document: ${reason}`, `${field}.document`)
  if (input.markdown !== undefined) return Effect.fail(bad("send markdown or document, not both"))
  const document = Schema.decodeUnknownOption(JsonDocument)(input.document)
  if (Option.isNone(document)) return Effect.fail(bad("not a GitBook document: {\"object\": \"document\", \"data\": {}, \"nodes\": [...]}"))
  return Effect.flatMap(before, (page) =>
    Effect.try({
      try: () => documentPageMarkdown(document.value as Parameters<typeof documentPageMarkdown>[0], page),
      catch: (error) => bad(`a node is not a GitBook block or inline (${error instanceof Error ? error.message : String(error)})`)
    }))
}

/** The API's change to the domain's, or a 400 naming the change. */
const toChange = (change: ChangeRequestContentChange, index: number, pageBefore: PageBefore): Effect.Effect<ChangeInput, ApiErrors.BadRequest, Actor.Actor> => {
  const refuse = (reason: string) => Effect.fail(ApiErrors.BadRequest.of(`changes[${index}]: ${change.operation}: ${reason}`, `changes[${index}]`))
  switch (change.operation) {
    case "insert_page": {
      const { document, ...rest } = change
      return Effect.map(markdownOf(document, `changes[${index}].document`, Effect.succeed(undefined)), (markdown) => ({ ...rest, markdown: markdown ?? "" }))
    }
    case "update_page": {
      const { document, ...rest } = change
      if (document === undefined) return Effect.succeed({ ...rest, markdown: undefined })
      return Effect.map(markdownOf(document, `changes[${index}].document`, pageBefore(change.page)), (markdown) => ({ ...rest, markdown }))
    }
    case "delete_page":
      return Effect.succeed(change)
    case "insert_files": {
      const files: Array<FileInput | UrlFileInput> = []
      for (const file of change.files) {
        if (file.url !== undefined && file.base64 !== undefined) return refuse(`${JSON.stringify(file.name)}: set url or base64, not both`)
        if (file.url !== undefined) {
          files.push({ name: file.name, contentType: file.contentType, url: file.url })
          continue
        }
        if (file.base64 === undefined) return refuse(`${JSON.stringify(file.name)}: url or base64 is required`)
        if (file.contentType === undefined) return refuse(`${JSON.stringify(file.name)}: contentType is required with base64`)
        if (!base64.test(file.base64)) return refuse(`${JSON.stringify(file.name)}: base64 is not valid base64`)
        files.push({ name: file.name, contentType: file.contentType, bytes: new Uint8Array(Buffer.from(file.base64, "base64")) })
      }
      return Effect.succeed({ operation: "insert_files", files })
    }
  }
}

export const layer = HttpApiBuilder.group(Api, "changeRequestContent", Effect.fn(function*(handlers) {
  const changeRequests = yield* ChangeRequests
  const content = yield* SpaceContent
  const links = yield* ContentLinks
  const organizations = yield* Organizations
  const urls = yield* PublicUrl
  const fileLinks = yield* FileLinks
  const bodies = yield* PageBodyRenderer
  const views = yield* SpaceViews

  /** The organization and space every reference of the answer carries, looked up once. */
  const context = Effect.fnUntraced(function*(access: SpaceAccess, graph: ContentPresenters.ReferenceContext["graph"]) {
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

  return handlers
    .handle("updateChangeRequestContent", ({ params, payload }) =>
      Effect.gen(function*() {
        const pageBefore: PageBefore = (pageId) =>
          changeRequests.page(params.spaceId, params.changeRequestId, pageId).pipe(
            Effect.map((page): DocumentSource | undefined => page),
            // A page of the batch (a ref) or one the change request lacks: written without a page before.
            Effect.orElseSucceed(() => undefined)
          )
        const changes = yield* Effect.forEach(payload.changes, (change, index) => toChange(change, index, pageBefore))
        const updated = yield* changeRequests.updateContent(params.spaceId, params.changeRequestId, changes, { baseRevision: payload.baseRevision }).pipe(DomainErrors.api)
        const presenter = yield* ChangeRequestPresenters.presenter
        const answer = yield* presenter(urls, updated.changeRequest, updated.outdated)
        if (updated.insertedFiles.length === 0) return answer
        const sign = yield* fileLinks.signer
        const files = updated.insertedFiles.map((f) => ContentPresenters.file(f, (g) => sign(params.spaceId, g), { metadata: true }))
        return { ...answer, files }
      }))
    .handle("getRevisionOfChangeRequestById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.content(params.spaceId, params.changeRequestId).pipe(DomainErrors.api)
        const sign = yield* fileLinks.signer
        return yield* RevisionViews.withMergedFrom(params.spaceId, ContentPresenters.revision(urls, found.revision, (f) => sign(params.spaceId, f), optionsOf(query)))
      }))
    .handle("listPagesInChangeRequest", ({ params, query }) =>
      changeRequests.content(params.spaceId, params.changeRequestId).pipe(
        DomainErrors.api,
        Effect.map((found) => ({ pages: ContentPresenters.pages(urls, found.revision, optionsOf(query)) }))
      ))
    .handle("getPageInChangeRequestById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.page(params.spaceId, params.changeRequestId, params.pageId).pipe(DomainErrors.api)
        const body = yield* bodies.body(eagerSource(found), found.access.space.organizationId, query.format)
        return pageAnswer(urls, params.spaceId, found, optionsOf(query), body)
      }))
    .handle("getPageInChangeRequestByPath", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.content(params.spaceId, params.changeRequestId).pipe(DomainErrors.api)
        const page = yield* content.pageEntryAt(found.revision, params.pagePath).pipe(DomainErrors.api)
        const body = yield* bodies.body(lazySource(content.pageMarkdown, page), found.access.space.organizationId, query.format)
        return pageAnswer(urls, params.spaceId, page, optionsOf(query), body)
      }))
    .handle("listFilesInChangeRequestById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.files(params.spaceId, params.changeRequestId, query).pipe(DomainErrors.api)
        const sign = yield* fileLinks.signer
        return Presenters.list(found, (f) => ContentPresenters.file(f, (g) => sign(params.spaceId, g), optionsOf(query)))
      }))
    .handle("getFileInChangeRequestById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.file(params.spaceId, params.changeRequestId, params.fileId).pipe(DomainErrors.api)
        const sign = yield* fileLinks.signer
        return ContentPresenters.file(found, (f) => sign(params.spaceId, f), optionsOf(query))
      }))
    .handle("listChangeRequestFileBacklinks", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.content(params.spaceId, params.changeRequestId).pipe(DomainErrors.api)
        const list = yield* links.revisionFileBacklinks(found.revision.id, params.fileId, { ...query, appBaseUrl: urls.base }).pipe(DomainErrors.api)
        const ctx = yield* context(found.access, list.graph)
        return Presenters.list(list.items, (located) => ContentPresenters.pageReference(ctx, located))
      }))
    .handle("listChangeRequestPageLinks", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.content(params.spaceId, params.changeRequestId).pipe(DomainErrors.api)
        const list = yield* links.revisionLinks(found.revision.id, { ...query, appBaseUrl: urls.base }, params.pageId).pipe(DomainErrors.api)
        return ContentPresenters.linkList(yield* context(found.access, list.graph), list)
      }))
    .handle("importContentInChangeRequest", ({ params, payload }) =>
      changeRequests.importWebsite(params.spaceId, params.changeRequestId, payload.url).pipe(
        DomainErrors.api,
        Effect.map((result) => ({
          revision: result.revision.id,
          importedResources: result.importedResources,
          totalResources: result.totalResources
        }))
      ))
}))
