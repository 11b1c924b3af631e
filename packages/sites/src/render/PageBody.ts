/**
 * A page's body drawn outside a site: the same renderer, blocks and include expansion as a
 * published page (`answer/PageAnswer.ts`), with links and files leading where the caller says
 * (the browser app's page URLs, signed file links) instead of a site's. The API's `format=html`.
 */
import { CodeHighlighter } from "./Highlight.ts"
import { Effect, Option } from "effect"
import { type FileNode, type PageNode, pageLinkContext, type PublishedContentShape, type Revision, revisionLinkIndex, withIncludes } from "@quire/content"
import { linkResolver } from "@quire/markdown"
import { specsNamed } from "./ApiBlocks.ts"
import { linkOptions } from "./LinkOptions.ts"
import { assetFiles, readAsset } from "./Assets.ts"
import * as Markdown from "./Markdown.ts"
import { operationOf } from "./OpenApiOperation.ts"
import { pageBodyCss } from "./Theme.ts"
import { SpecOperations } from "../SpecOperations.ts"

/** A page of a revision and its stored markdown (without includes expanded). */
export interface PageBodySource {
  readonly revision: Revision
  readonly page: Pick<PageNode, "id" | "git">
  /** The page's path in the tree (slugs from the root). */
  readonly path: string
  readonly markdown: string
}

/** Where a rendered body's links and files lead. */
export interface PageBodyUrls {
  /** The URL of a page of the revision, by its path in the tree. */
  readonly page: (path: string) => string
  /** The URL of a file of the revision. */
  readonly file: (file: FileNode) => string
}

/** How the page's links, images and link titles resolve, as on a published site but to `urls`. */
const linkOptionsOf = (source: PageBodySource, urls: PageBodyUrls) => {
  const index = revisionLinkIndex(source.revision)
  const byId = new Map(index.entries.map((entry) => [entry.page.id, entry]))
  return linkOptions(source.revision, linkResolver(pageLinkContext(index, source.page, source.path, "quire-app:")), {
    page: (pageId) => {
      const entry = byId.get(pageId)
      return entry === undefined ? undefined : urls.page(entry.path)
    },
    file: urls.file,
    title: (pageId) => byId.get(pageId)?.page.title
  })
}

/** A page's body ready to render: its markdown with includes expanded, and what its drawing depends on besides its revision. */
export interface PreparedPageBody {
  readonly markdown: string
  /** The latest version of each OpenAPI spec the body shows (`slug@version`), for caches keyed by revision and page. */
  readonly specVersions: string
}

/** Expands the page's includes and reads which spec versions its OpenAPI blocks would show. */
export const preparePageBody = (
  source: PageBodySource,
  organizationId: string,
  documents: PublishedContentShape["documents"]
): Effect.Effect<PreparedPageBody, never, SpecOperations> =>
  Effect.gen(function*() {
    const specs = yield* SpecOperations
    const markdown = yield* withIncludes(source.markdown, source.revision.reusableContents, source.page.git?.path, documents)
    const versions: Array<string> = []
    for (const slug of specsNamed(markdown)) {
      const latest = yield* specs.latestVersionId(organizationId, slug)
      versions.push(`${slug}@${Option.getOrElse(latest, () => "")}`)
    }
    return { markdown, specVersions: versions.join(",") }
  })

/**
 * The page's body as a published page of the revision shows it to an anonymous reader (includes
 * expanded by `preparePageBody`, GitBook's blocks, math, diagrams, highlighted code), its links
 * and files leading to `urls`, its OpenAPI operations read from the specs' latest versions
 * (`SpecOperations`).
 */
export const renderPageBody = (
  source: PageBodySource,
  prepared: PreparedPageBody,
  organizationId: string,
  urls: PageBodyUrls
): Effect.Effect<Markdown.RenderedPage, never, CodeHighlighter | SpecOperations> =>
  Effect.gen(function*() {
    const specs = yield* SpecOperations
    const highlighter = yield* CodeHighlighter
    const specDocuments = new Map<string, Readonly<Record<string, unknown>>>()
    for (const slug of specsNamed(prepared.markdown)) {
      const latest = yield* specs.latestDocument(organizationId, slug)
      if (Option.isSome(latest)) specDocuments.set(slug, latest.value.document)
    }
    const options: Markdown.RenderOptions = {
      ...linkOptionsOf(source, urls),
      highlighter,
      resolveOperation: (spec, path, method) => {
        const document = specDocuments.get(spec)
        return document === undefined ? undefined : operationOf(document, path, method)
      }
    }
    return yield* Effect.promise(() => Markdown.renderPage(prepared.markdown, options))
  })

/**
 * The whole stylesheet `renderPageBody`'s HTML needs: the page body's (`pageBodyCss`) and KaTeX's
 * for formulas, its fonts at `assetUrl("katex/fonts/<name>")` (served with `readAsset`).
 */
export const pageBodyStylesheet = (assetUrl: (name: string) => string): string => {
  const katex = readAsset(assetFiles.katex)
  const katexCss = katex === undefined
    ? ""
    : new TextDecoder().decode(katex.bytes).replace(/url\(fonts\/([A-Za-z0-9_.-]+)\)/g, (_, name: string) => `url(${assetUrl(`katex/fonts/${name}`)})`)
  return `${katexCss}\n${pageBodyCss()}`
}
