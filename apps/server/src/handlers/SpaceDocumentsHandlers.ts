/**
 * Handlers of the space documents group: a document of the space's current content by id, content
 * computed from an OpenAPI spec of the space's organization without being stored, and a page's
 * meta links in main or a change request.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type ComputedSourceDocument, type ComputedSourceRevision, type RevisionPage } from "@quire/api"
import { type PageNode, pageDocumentEffect, ParsePool, SpaceContent, Spaces } from "@quire/content"
import { Errors } from "@quire/kernel"
import { ChangeRequests } from "@quire/reviews"
import { ComputedPages, Specs } from "@quire/specs"
import * as ContentPresenters from "../ContentPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { lazySource, PageBodyRenderer } from "../PageBodyRenderer.ts"
import { PublicUrl } from "../PublicUrl.ts"

/** A computed page as GitBook's `RevisionPage`: a document's layout (GitBook's defaults), its place in the app, no tags. */
const presentPage = (urls: PublicUrl["Service"], spaceId: string, page: ComputedPages.ComputedPage): unknown =>
  page.type === "group"
    ? { ...page, pages: page.pages.map((child) => presentPage(urls, spaceId, child)) }
    : { ...page, layout: ContentPresenters.layout(undefined), urls: { app: ContentPresenters.pageAppUrl(urls, spaceId, page.path) }, tags: [], pages: [] }

/** The pages of a tree with their paths, depth first. */
const walk = (pages: ReadonlyArray<PageNode>, parent = ""): ReadonlyArray<{ readonly page: PageNode; readonly path: string }> =>
  pages.flatMap((page) => {
    const path = parent === "" ? page.slug : `${parent}/${page.slug}`
    return [{ page, path }, ...walk(page.pages, path)]
  })

/** The spec a `builtin:openapi` source names; InvalidInput naming `source.type` for a source Quire does not compute. */
const openApiSource = <S extends ComputedSourceDocument | ComputedSourceRevision>(source: S) =>
  source.type === "builtin:openapi" && "dependencies" in source && source.dependencies !== undefined && "spec" in source.dependencies
    ? Effect.succeed(source as Extract<S, { readonly type: "builtin:openapi" }>)
    : Effect.fail(new Errors.InvalidInput({
      field: "source.type",
      reason: `${JSON.stringify(source.type)} is not computed by Quire (it computes builtin:openapi sources only)`
    }))

export const layer = HttpApiBuilder.group(Api, "spaceDocuments", Effect.fn(function*(handlers) {
  const spaces = yield* Spaces
  const content = yield* SpaceContent
  const changeRequests = yield* ChangeRequests
  const specs = yield* Specs
  const bodies = yield* PageBodyRenderer
  const pool = yield* ParsePool
  const urls = yield* PublicUrl

  /** The entry document of the latest version of a spec of the space's organization, read as the caller. */
  const specOf = Effect.fnUntraced(function*(spaceId: string, slug: string) {
    const space = yield* spaces.get(spaceId)
    const { version } = yield* specs.version(space.space.organizationId, slug, "latest")
    const entry = version.filesystem.find((file) => file.isEntrypoint)?.specification
    return { slug, document: (typeof entry === "object" && entry !== null ? entry : {}) as Readonly<Record<string, unknown>> }
  })

  const metaLinks = (revision: Parameters<typeof content.pageEntryIn>[0], pageId: string) =>
    // Quire keeps no canonical or alternate links of a page.
    Effect.as(content.pageEntryIn(revision, pageId), { alternates: [] })

  return handlers
    .handle("getComputedDocument", ({ params, payload }) =>
      Effect.gen(function*() {
        const source = yield* openApiSource(payload.source)
        const spec = yield* specOf(params.spaceId, source.dependencies.spec.ref.spec)
        const drawn = ComputedPages.computeDocument(spec, source.props, payload.seed)
        if ("missing" in drawn) return yield* new Errors.InvalidInput({ field: "source.props.page", reason: drawn.missing })
        return drawn
      }).pipe(DomainErrors.api))
    .handle("getComputedRevision", ({ params, payload }) =>
      Effect.gen(function*() {
        const source = yield* openApiSource(payload.source)
        const spec = yield* specOf(params.spaceId, source.dependencies.spec.ref.spec)
        const pages = ComputedPages.computeRevision(spec, source.props, payload.seed).map((page) => presentPage(urls, params.spaceId, page))
        return { pages: pages as ReadonlyArray<RevisionPage>, files: [], reusableContents: [] }
      }).pipe(DomainErrors.api))
    .handle("getDocumentById", ({ params }) =>
      Effect.gen(function*() {
        const { revision } = yield* content.revision(params.spaceId)
        const page = walk(revision.pages).find(({ page }) => page.type === "document" && (page.document === params.documentId || page.id === params.documentId))
        if (page !== undefined) return yield* bodies.document(lazySource(content.pageMarkdown, { revision, ...page }))
        const reusable = (revision.reusableContents ?? []).find((r) => r.document !== undefined && (r.document === params.documentId || r.id === params.documentId))
        if (reusable === undefined) return yield* new Errors.NotFound({ resource: "Document", id: params.documentId })
        const found = yield* content.reusableContentIn(revision, reusable.id)
        return yield* pageDocumentEffect({ revision, path: "", markdown: found.markdown }).pipe(Effect.provideService(ParsePool, pool))
      }).pipe(DomainErrors.api))
    .handle("listSpacePageMetaLinks", ({ params }) =>
      Effect.flatMap(content.revision(params.spaceId), ({ revision }) => metaLinks(revision, params.pageId)).pipe(DomainErrors.api))
    .handle("listChangeRequestPageMetaLinks", ({ params }) =>
      Effect.flatMap(changeRequests.content(params.spaceId, params.changeRequestId), ({ revision }) => metaLinks(revision, params.pageId)).pipe(DomainErrors.api))
}))
