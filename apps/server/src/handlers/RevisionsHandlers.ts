/** Handlers of the revisions group: a revision of a space by id, its pages and files, and what it changed. */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import {
  dereferenceReusableContents,
  type JsonDocument,
  pageDocumentEffect,
  ParsePool,
  PublishedContent,
  type Revision,
  type RevisionPageEntry,
  SpaceContent,
  withIncludes
} from "@quire/content"
import { Actor } from "@quire/kernel"
import { ChangeRequests } from "@quire/reviews"
import { adaptMarkdown, evaluateConditions, SiteReaders } from "@quire/sites"
import * as ChangeRequestPresenters from "../ChangeRequestPresenters.ts"
import * as ChangePresenters from "../ChangePresenters.ts"
import * as ContentPresenters from "../ContentPresenters.ts"
import * as RevisionViews from "../RevisionViews.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { FileLinks } from "../FileLinks.ts"
import { lazySource, type PageBody, pageAnswer, PageBodyRenderer, type PageFormat } from "../PageBodyRenderer.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

const optionsOf = (query: { readonly metadata?: boolean | undefined }): ContentPresenters.ContentOptions => ({
  metadata: query.metadata ?? true
})

/** What a page read asks of its body: GitBook's `format` and `dereferenced`. */
interface BodyQuery {
  readonly format?: PageFormat | undefined
  readonly dereferenced?: boolean | "reusable-contents" | undefined
}

/** GitBook's default number of changes per answer. */
export const defaultChangesLimit = 10

export const layer = HttpApiBuilder.group(Api, "revisions", Effect.fn(function*(handlers) {
  const content = yield* SpaceContent
  const changeRequests = yield* ChangeRequests
  const urls = yield* PublicUrl
  const links = yield* FileLinks
  const bodies = yield* PageBodyRenderer
  const pool = yield* ParsePool
  const readers = yield* SiteReaders
  const published = yield* PublishedContent

  const revisionOf = (params: { readonly spaceId: string; readonly revisionId: string }) =>
    content.revisionOf(params.spaceId, params.revisionId).pipe(DomainErrors.api)

  /**
   * `document` with each include of `revision`'s reusable contents replaced by that content's
   * blocks (GitBook's `dereferenced`), a reader's with the contents' conditions evaluated for them.
   */
  const dereferenced = (document: JsonDocument, revision: Revision, reader: Actor.SiteReader | undefined) =>
    dereferenceReusableContents(document, (id) =>
      content.reusableContentIn(revision, id).pipe(
        // Its links resolve as a top-level page's would: a reusable content has no place in the tree.
        Effect.flatMap((included) => pageDocumentEffect({ revision, path: "", markdown: included.markdown })),
        Effect.map((included) => reader === undefined ? included : evaluateConditions(included, reader.claims)),
        Effect.provideService(ParsePool, pool),
        Effect.orElseSucceed(() => undefined)
      ))

  const sourceOf = (found: RevisionPageEntry) => lazySource(content.pageMarkdown, found)

  /**
   * A page's body: its markdown with the reusable contents it includes in place for a published
   * site's reader (the site's own `.md`) or when `dereferenced` asks (a member's otherwise keeps its
   * `{% include %}` tags, as written), its document dereferenced when asked, and a reader's
   * conditions evaluated for the visitor. A member's document is the renderer's, kept by revision
   * and page; a reader's is filtered for their claims, so it is drawn from that one at every read.
   */
  const bodyOf = (found: RevisionPageEntry, organizationId: string, query: BodyQuery) =>
    Effect.gen(function*() {
      const reader = (yield* Actor.Actor).siteReader
      const dereference = query.dereferenced === true || query.dereferenced === "reusable-contents"
      if (found.page.type !== "document") return {}
      const source = sourceOf(found)
      if (query.format === "markdown") {
        const expand = reader !== undefined || dereference
        const shown = expand
          ? { ...source, markdown: Effect.flatMap(source.markdown, (markdown) => withIncludes(markdown, found.revision.reusableContents, found.page.git?.path, published.documents)) }
          : source
        const body = yield* bodies.body(shown, organizationId, query.format)
        return body.markdown === undefined || reader === undefined ? body : { ...body, markdown: adaptMarkdown(body.markdown, reader.claims).markdown }
      }
      if (query.format === "html" || (reader === undefined && !dereference)) return yield* bodies.body(source, organizationId, query.format)
      const stored = yield* bodies.document(source)
      const evaluated = reader === undefined ? stored : evaluateConditions(stored, reader.claims)
      return { document: dereference ? yield* dereferenced(evaluated, found.revision, reader) : evaluated } satisfies PageBody
    })

  const signer = (spaceId: string) => Effect.map(links.signer, (sign): ContentPresenters.DownloadUrl => (f) => sign(spaceId, f))

  return handlers
    .handle("listRevisionsInSpace", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* content.history(params.spaceId, query).pipe(DomainErrors.api)
        return Presenters.list(found.items, (r) => ContentPresenters.revisionSummary(urls, r))
      }))
    .handle("getRevisionById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* revisionOf(params)
        return yield* RevisionViews.withMergedFrom(params.spaceId, ContentPresenters.revision(urls, found.revision, yield* signer(params.spaceId), optionsOf(query)))
      }))
    .handle("listPagesInRevisionById", ({ params, query }) =>
      Effect.map(revisionOf(params), (found) => ({ pages: ContentPresenters.pages(urls, found.revision, optionsOf(query)) })))
    .handle("getPageInRevisionById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* revisionOf(params)
        const page = yield* content.pageEntryIn(found.revision, params.pageId).pipe(DomainErrors.api)
        return pageAnswer(urls, params.spaceId, page, optionsOf(query), yield* bodyOf(page, found.access.space.organizationId, query))
      }))
    .handle("getPageDocumentInRevisionById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* revisionOf(params)
        const page = yield* content.pageEntryIn(found.revision, params.pageId).pipe(DomainErrors.api)
        const stored = yield* bodies.document(sourceOf(page))
        // A published site's reader is shown the page as the site shows its visitor: conditions evaluated.
        const reader = (yield* Actor.Actor).siteReader
        const document = reader === undefined ? stored : evaluateConditions(stored, reader.claims)
        if (query.dereferenced !== true && query.dereferenced !== "reusable-contents") return document
        return yield* dereferenced(document, found.revision, reader)
      }))
    .handle("listRevisionPageMetaLinks", ({ params }) =>
      Effect.gen(function*() {
        const found = yield* revisionOf(params)
        yield* content.pageEntryIn(found.revision, params.pageId).pipe(DomainErrors.api)
        // Quire keeps no canonical or alternate links of a page.
        return { alternates: [] }
      }))
    .handle("getPageInRevisionByPath", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* revisionOf(params)
        // A path no page has may be one the space's `.gitbook.yaml` redirects: GitBook answers the page it leads to.
        const page = yield* content.pageEntryAt(found.revision, params.pagePath).pipe(
          Effect.catchTag("NotFound", (missing) =>
            Effect.flatMap(readers.movedPage(found.revision, params.pagePath), (moved) =>
              Option.isSome(moved) ? content.pageEntryIn(found.revision, moved.value) : Effect.fail(missing))),
          DomainErrors.api
        )
        return pageAnswer(urls, params.spaceId, page, optionsOf(query), yield* bodyOf(page, found.access.space.organizationId, query))
      }))
    .handle("listFilesInRevisionById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* revisionOf(params)
        const files = yield* content.filesIn(found.revision, query).pipe(DomainErrors.api)
        const sign = yield* signer(params.spaceId)
        return Presenters.list(files, (f) => ContentPresenters.file(f, sign, optionsOf(query)))
      }))
    .handle("getFileInRevisionById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* revisionOf(params)
        const file = yield* content.fileIn(found.revision, params.fileId).pipe(DomainErrors.api)
        return ContentPresenters.file(file, yield* signer(params.spaceId), optionsOf(query))
      }))
    .handle("getRevisionSemanticChanges", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* revisionOf(params)
        const list = yield* content.revisionChanges(found.revision, { limit: query.limit ?? defaultChangesLimit, diff: query.diff ?? false })
        const merged = found.revision.type === "merge"
          ? yield* changeRequests.mergedInto(params.spaceId, found.revision.id).pipe(DomainErrors.api)
          : Option.none()
        const present = yield* ChangeRequestPresenters.presenter
        const mergedFrom = Option.isSome(merged) ? yield* present(urls, merged.value.changeRequest, merged.value.outdated) : undefined
        return ChangePresenters.changes(list, yield* signer(params.spaceId), mergedFrom)
      }))
    .handle("restoreRevisionInChangeRequest", ({ params, payload }) =>
      Effect.gen(function*() {
        const restored = yield* changeRequests.restore(params.spaceId, params.revisionId, payload).pipe(DomainErrors.api)
        const present = yield* ChangeRequestPresenters.presenter
        return yield* present(urls, restored.changeRequest, restored.outdated)
      }))
}))
