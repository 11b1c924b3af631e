/**
 * A page's body drawn outside a site: the same renderer, blocks and include expansion as a
 * published page (`answer/PageAnswer.ts`), with links and files leading where the caller says
 * (the browser app's page URLs, signed file links) instead of a site's. The API's `format=html`.
 */
import { Effect, Option } from "effect"
import { type FileNode, type PageNode, pageLinkContext, type PublishedContentShape, type Revision, revisionLinkIndex, withIncludes } from "@quire/content"
import { linkResolver } from "@quire/markdown"
import { specsNamed } from "./ApiBlocks.ts"
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

/** A file a page names: `files/<id>` (as the editor writes it), its id, or its name. */
const fileOf = (rev: Revision, ref: string): FileNode | undefined => {
  const match = /^\/?files\/([^/?#]+)/.exec(ref)
  if (match !== null) {
    let id = match[1]!
    try {
      id = decodeURIComponent(id)
    } catch {
      // kept as written
    }
    return rev.files.find((f) => f.id === id)
  }
  const name = ref.split("/").pop()
  return rev.files.find((f) => f.id === ref || f.name === name || f.name === ref)
}

/** How the page's links, images and link titles resolve, as on a published site but to `urls`. */
const linkOptions = (source: PageBodySource, urls: PageBodyUrls): Pick<Markdown.RenderOptions, "resolveLink" | "resolveFile" | "resolveTitle"> => {
  const rev = source.revision
  const index = revisionLinkIndex(rev)
  const byId = new Map(index.entries.map((entry) => [entry.page.id, entry]))
  const resolve = linkResolver(pageLinkContext(index, source.page, source.path, "quire-app:"))
  const target = (url: string) => {
    const found = resolve({ url, kind: "link" })
    return found === undefined || found.status === "broken" ? undefined : found.target
  }
  return {
    resolveLink: (url) => {
      const t = target(url)
      if (t === undefined) return undefined
      switch (t.kind) {
        case "url":
          return t.url
        case "file": {
          const file = rev.files.find((f) => f.id === t.file)
          return file === undefined ? undefined : urls.file(file)
        }
        case "page": {
          if (!("page" in t)) return undefined
          const entry = byId.get(t.page)
          return entry === undefined ? undefined : `${urls.page(entry.path)}${t.anchor === undefined ? "" : `#${t.anchor}`}`
        }
      }
    },
    resolveFile: (ref) => {
      // A path from the page's file in the repository first (`img/x.png` beside it), then by id or name.
      const found = resolve({ url: ref, kind: "image" })
      const byPath = found?.status === "ok" && found.target.kind === "file" ? found.target.file : undefined
      const file = byPath === undefined ? fileOf(rev, ref) : rev.files.find((f) => f.id === byPath)
      return file === undefined ? undefined : { url: urls.file(file), name: file.name, contentType: file.contentType }
    },
    resolveTitle: (url) => {
      const t = target(url)
      return t?.kind === "page" && "page" in t ? byId.get(t.page)?.page.title : undefined
    }
  }
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
): Effect.Effect<PreparedPageBody> =>
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
): Effect.Effect<Markdown.RenderedPage> =>
  Effect.gen(function*() {
    const specs = yield* SpecOperations
    const specDocuments = new Map<string, Readonly<Record<string, unknown>>>()
    for (const slug of specsNamed(prepared.markdown)) {
      const latest = yield* specs.latestDocument(organizationId, slug)
      if (Option.isSome(latest)) specDocuments.set(slug, latest.value.document)
    }
    const options: Markdown.RenderOptions = {
      ...linkOptions(source, urls),
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
