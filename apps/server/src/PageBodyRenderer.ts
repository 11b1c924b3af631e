/**
 * How single-page reads draw a page's body in the format asked (its markdown, GitBook's JSON
 * document or its HTML), keeping what is costly to draw by revision and page, and how they answer
 * a page whose body is a document's JSON.
 */
import type { RevisionPage as RevisionPageResponse } from "@quire/api"
import { Context, Effect, Layer, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { BoundedCache } from "@quire/kernel"
import {
  breather,
  type JsonDocument,
  markdownWithFrontmatter,
  pageDocumentEffect,
  ParsePool,
  PublishedContent,
  type RevisionPage,
  type RevisionPageEntry,
  type SpaceContent
} from "@quire/content"
import { CodeHighlighter, preparePageBody, renderPageBody, SpecOperations } from "@quire/sites"
import * as ContentPresenters from "./ContentPresenters.ts"
import { FileLinks } from "./FileLinks.ts"
import { PublicUrl } from "./PublicUrl.ts"

/** The formats of a single-page read. */
export type PageFormat = "markdown" | "document" | "html"

/** A page whose body is drawn: where it is, and its markdown, read only when the body needs it. */
export interface PageSource extends RevisionPageEntry {
  readonly markdown: Effect.Effect<string>
}

/**
 * A page's body as a single-page read answers it: `markdown`, `html` or `document`, or instead of
 * `document` the document's JSON as UTF-8 (`documentJson`, which `pageAnswer` writes after the page).
 */
export type PageBody = ContentPresenters.PageBody & { readonly documentJson?: Uint8Array }

/** What single-page reads draw a page's body with. */
export interface PageBodies {
  /** The body in `format` (GitBook's document by default, as its JSON); groups and links have none. */
  readonly body: (source: PageSource, organizationId: string, format: PageFormat | undefined) => Effect.Effect<PageBody>
  /** GitBook's document of a page as a value, for a read that changes it (a reader's conditions, dereferenced includes). */
  readonly document: (source: PageSource) => Effect.Effect<JsonDocument>
}

const utf8 = new TextEncoder()
const closing = utf8.encode("}")

/** A page of a revision as a source of its body: `pageMarkdown` (SpaceContent's) reads its markdown if the body needs it. */
export const lazySource = (pageMarkdown: SpaceContent["Service"]["pageMarkdown"], found: RevisionPageEntry): PageSource => ({
  revision: found.revision,
  page: found.page,
  path: found.path,
  markdown: Effect.map(pageMarkdown(found), (markdown) => markdown ?? "")
})

/** A page whose markdown was read already as a source of its body. */
export const eagerSource = (found: RevisionPage): PageSource => ({
  revision: found.revision,
  page: found.page,
  path: found.path,
  markdown: Effect.succeed(found.markdown ?? "")
})

/**
 * The answer of a single-page read: the page, its body in it, and a document's JSON written after
 * its other fields. The same JSON as the endpoint's encoder writes (`RevisionPage`'s encoded
 * form is its type), without encoding a large document again at every read.
 */
export const pageAnswer = (
  urls: PublicUrl["Service"],
  spaceId: string,
  found: RevisionPageEntry,
  options: ContentPresenters.ContentOptions,
  body: PageBody
): RevisionPageResponse | HttpServerResponse.HttpServerResponse => {
  const { documentJson, ...fields } = body
  const page = ContentPresenters.page(urls, spaceId, found.page, found.path, options, fields)
  if (documentJson === undefined) return page
  const json = JSON.stringify(page)
  const head = utf8.encode(`${json.slice(0, -1)},"document":`)
  if (documentJson.length < streamedBytes) return HttpServerResponse.uint8Array(Buffer.concat([head, documentJson, closing]), { contentType: "application/json" })
  // A part at a time: joining them would copy a large document into a new buffer at every read
  // (its pages newly mapped cost more than the rest of the read).
  return HttpServerResponse.stream(Stream.fromArrays([head], [documentJson], [closing]), {
    contentType: "application/json",
    contentLength: head.length + documentJson.length + closing.length
  })
}

/** Bytes of a document's JSON from which `pageAnswer` writes it as it is kept, not copied into one answer. */
const streamedBytes = 1024 * 1024

/**
 * Bytes of documents' JSON a server keeps (a document's JSON is about 5 bytes per character of its
 * markdown), in at most so many documents.
 */
const documentJsonBytes = 32_000_000
const documentJsonEntries = 10_000

/**
 * Characters of markdown whose documents a server keeps as values (a document takes several times
 * its markdown in memory), in at most so many documents.
 */
const documentCacheChars = 4_000_000
const documentCacheEntries = 10_000

/** Characters of rendered HTML a server keeps of page bodies (about 2 bytes each), in at most so many bodies. */
const htmlCacheChars = 8_000_000
const htmlCacheEntries = 10_000

/** Nodes serialized at once (about 100 KB of JSON). */
const nodesPerBatch = 500

/** Where a cached body's file links go until the answer signs them (links expire; the body does not). */
const filePlaceholder = "/~quire-file/"
const filePlaceholders = /\/~quire-file\/([A-Za-z0-9._~!*'()%-]+)/g

/**
 * A document's JSON as UTF-8, a batch of nodes at a time, giving the event loop back between
 * batches: one `JSON.stringify` of a large page's document, or encoding its text at once, would
 * hold it for the whole document. Kept as bytes, as the answer sends it: encoding 8 MB of JSON
 * text again at every read took longer than the rest of the read.
 */
const documentJsonOf = (document: JsonDocument): Effect.Effect<Uint8Array> =>
  Effect.gen(function*() {
    const parts = [utf8.encode(`{"object":"document","data":${JSON.stringify(document.data)},"nodes":[`)]
    const breathe = breather()
    const nodes = document.nodes
    for (let start = 0; start < nodes.length; start += nodesPerBatch) {
      const batch = JSON.stringify(nodes.slice(start, start + nodesPerBatch))
      parts.push(utf8.encode(`${start === 0 ? "" : ","}${batch.slice(1, -1)}`))
      yield* breathe
    }
    parts.push(utf8.encode("]}"))
    return Buffer.concat(parts)
  })

/** What a page's document and body are kept under: a revision never changes. */
const keyOf = (source: PageSource) => `${source.revision.id}|${source.page.id}`

/**
 * Draws a page's body in the requested format: its markdown; GitBook's JSON document (a large
 * page's parsed by the server's parse workers, giving the event loop back meanwhile); or its HTML
 * as the published site renders it (includes expanded, the site's blocks), its page links leading
 * to the app's page URLs and its files to signed download links. Documents and HTML are kept by
 * revision and page (a revision never changes), so a second read draws nothing and reads no markdown.
 */
const makePageBodies: Effect.Effect<PageBodies, never, ParsePool | PublishedContent | FileLinks | PublicUrl | CodeHighlighter | SpecOperations> = Effect.gen(function*() {
  const pool = yield* ParsePool
  const published = yield* PublishedContent
  const links = yield* FileLinks
  const urls = yield* PublicUrl
  const highlighter = yield* CodeHighlighter
  const specs = yield* SpecOperations
  // Rendered bodies by revision, page and spec versions, the least recently read dropped first:
  // drawing a large page takes seconds of CPU, and the app reads the same pages again (a review
  // reads every changed page's base and head).
  const cache = yield* BoundedCache.make<string, string>({
    name: "page_bodies",
    capacity: htmlCacheEntries,
    maxWeight: htmlCacheChars,
    weigh: (html) => html.length
  })

  // GitBook's documents by revision and page: its document depends only on the page's markdown and
  // the revision's link targets. As JSON for the reads that answer it as it is (serialized again at
  // every read, a large page's took longer than the rest of the read), as values for the reads
  // that change it first; each read fills only the one it uses.
  const documentJsons = yield* BoundedCache.make<string, Uint8Array>({
    name: "page_document_json",
    capacity: documentJsonEntries,
    maxWeight: documentJsonBytes,
    weigh: (json) => json.byteLength
  })
  const documents = yield* BoundedCache.make<string, { readonly document: JsonDocument; readonly chars: number }>({
    name: "page_documents",
    capacity: documentCacheEntries,
    maxWeight: documentCacheChars,
    weigh: (kept) => kept.chars
  })
  const build = (source: PageSource) =>
    Effect.flatMap(source.markdown, (markdown) =>
      pageDocumentEffect({ revision: source.revision, path: source.path, markdown }).pipe(
        Effect.provideService(ParsePool, pool),
        Effect.map((document) => ({ document, chars: markdown.length }))
      ))
  const document = (source: PageSource) =>
    Effect.suspend(() => {
      const key = keyOf(source)
      const kept = documents.get(key)
      if (kept !== undefined) return Effect.succeed(kept.document)
      return Effect.map(build(source), (built) => {
        documents.set(key, built)
        return built.document
      })
    })
  const documentJson = (source: PageSource) =>
    Effect.suspend(() => {
      const key = keyOf(source)
      const kept = documentJsons.get(key)
      if (kept !== undefined) return Effect.succeed(kept)
      // A document kept as a value by another read is not built again.
      const value = documents.peek(key)
      return (value === undefined ? Effect.map(build(source), (built) => built.document) : Effect.succeed(value.document)).pipe(
        Effect.flatMap(documentJsonOf),
        Effect.tap((json) => Effect.sync(() => documentJsons.set(key, json)))
      )
    })

  const html = (source: PageSource, organizationId: string) =>
    Effect.gen(function*() {
      const spaceId = source.revision.spaceId
      const page = { revision: source.revision, page: source.page, path: source.path, markdown: yield* source.markdown }
      const prepared = yield* preparePageBody(page, organizationId, published.documents).pipe(Effect.provideService(SpecOperations, specs))
      const key = `${keyOf(source)}|${prepared.specVersions}`
      let drawn = cache.get(key)
      if (drawn === undefined) {
        const rendered = yield* renderPageBody(page, prepared, organizationId, {
          page: (path) => ContentPresenters.pageAppUrl(urls, spaceId, path),
          file: (file) => `${filePlaceholder}${encodeURIComponent(file.id)}`
        }).pipe(Effect.provideService(CodeHighlighter, highlighter), Effect.provideService(SpecOperations, specs))
        drawn = rendered.html
        cache.set(key, drawn)
      }
      const sign = yield* links.signer
      const files = new Map(source.revision.files.map((file) => [file.id, file]))
      return drawn.replace(filePlaceholders, (whole, id: string) => {
        let decoded = id
        try {
          decoded = decodeURIComponent(id)
        } catch {
          return whole
        }
        const file = files.get(decoded)
        return file === undefined ? whole : sign(spaceId, file)
      })
    })

  const body: PageBodies["body"] = (source, organizationId, format) => {
    if (source.page.type !== "document") return Effect.succeed({})
    switch (format) {
      case "markdown":
        return Effect.map(source.markdown, (markdown) => ({ markdown: markdownWithFrontmatter(source.page, source.revision.files, markdown) }))
      case "html":
        return Effect.map(html(source, organizationId), (drawn) => ({ html: drawn }))
      default:
        return Effect.map(documentJson(source), (json) => ({ documentJson: json }))
    }
  }
  return { body, document }
})

/** How the server's single-page reads draw a page's body (see `makePageBodies`), with one set of caches for all of them. */
export class PageBodyRenderer extends Context.Service<PageBodyRenderer, PageBodies>()("@quire/server/PageBodyRenderer") {
  static readonly layer = Layer.effect(PageBodyRenderer, makePageBodies)
}
