/**
 * A page of a site space: its HTML in the site's chrome, its markdown (`.md`), or a redirect (groups and
 * link pages to what they lead to, the first page's own path to its site space's root), else a 404.
 */
import type { Highlighting } from "../render/Highlight.ts"
import { Effect, Option } from "effect"
import type { ContentRef, PageNode, PublishedContent, Revision } from "@quire/content"
import { leadingTitle, splitFrontmatter } from "@quire/markdown"
import { adaptMarkdown } from "../render/Adaptive.ts"
import { specsNamed } from "../render/ApiBlocks.ts"
import { withIncludes } from "../render/Includes.ts"
import * as Layout from "../render/Layout.ts"
import * as Markdown from "../render/Markdown.ts"
import { operationOf } from "../render/OpenApiOperation.ts"
import * as View from "../render/View.ts"
import type { SpecOperationsShape } from "../SpecOperations.ts"
import { htmlAnswer, text, type RenderAnswer } from "./Answer.ts"
import type { SpecsShown } from "./AnswerCache.ts"
import { chrome, notFound } from "./Chrome.ts"
import { linkOptions } from "./LinkResolution.ts"
import { neighboursOf } from "./Navigation.ts"
import type { Place } from "./Places.ts"
import type { Reading } from "./Reading.ts"
import type { Entry } from "./Revisions.ts"
import { encodePath } from "./UrlScheme.ts"

/** The "edit on Git" link of a page of a Git-synced space: its file on the Git host. */
const editUrl = (rev: Revision, page: PageNode): string | undefined => {
  const url = rev.git?.url
  const path = page.git?.path
  if (url === undefined || path === undefined || !url.startsWith("https://")) return undefined
  const ref = (rev.git?.ref ?? "main").replace(/^refs\/heads\//, "")
  return `${url.replace(/\.git$/, "").replace(/\/+$/, "")}/blob/${encodePath(ref)}/${encodePath(path)}`
}

export interface PageSources {
  readonly documents: PublishedContent["Service"]
  /** What highlights the page's code. */
  readonly highlighter: Highlighting
  readonly specs: SpecOperationsShape
}

/** The page at `wanted` (below its place, `""` for the place's home); the specs it shows are added to `shown`. */
export const pageAnswer = (reading: Reading, sources: PageSources, place: Place, wanted: string, wantsMarkdown: boolean, shown: SpecsShown) =>
  Effect.gen(function*(): Effect.fn.Return<RenderAnswer> {
    const { request, urls } = reading
    const rev = yield* reading.revision(place)
    const info = reading.infoOf(rev)
    const home = info.home
    const entry = wanted === "" ? home : info.byPath.get(wanted)
    if (entry === undefined) return yield* notFound(reading, place)
    if (entry.page.type !== "document") {
      const target = urls.pageIdUrl(place, info)(entry.page.id)
      if (entry.page.type === "link" && entry.page.target?.kind === "url") return { kind: "Redirect", location: entry.page.target.url }
      if (target === undefined) return yield* notFound(reading, place)
      return { kind: "Redirect", location: target }
    }
    // The first page lives at its site space's root; its own path leads there.
    if (wanted !== "" && entry.path === home?.path && !wantsMarkdown) {
      return { kind: "Redirect", location: `${urls.basePath}${place.prefix}${request.query.size > 0 ? `?${request.query}` : ""}` }
    }
    const hash = entry.page.document
    const stored = hash === undefined ? "" : ((yield* sources.documents.documents([hash])).get(hash) ?? "")
    // Reusable contents the page includes, in place, for readers and for the `.md` alike.
    const included = yield* withIncludes(stored, rev, entry.page.git?.path, sources.documents.documents)
    // The reader's own page: every view of it (HTML, `.md`) shows the `{% if %}` branches their claims open, no others.
    const adapted = adaptMarkdown(included, request.claims)
    if (wantsMarkdown) return text("text/markdown; charset=utf-8", pageMarkdown(entry.page, adapted.markdown), adapted.conditions)
    const rendered = yield* renderMarkdown(reading, sources, place, rev, entry, adapted.markdown, shown)
    const view = pageView(reading, place, rev, entry, rendered)
    const extras = { root: request.root, assets: rendered.assets, conditions: [...adapted.conditions, ...rendered.conditions] }
    return htmlAnswer(200, Layout.pageDocument(view), view, extras)
  })

/**
 * A page's markdown as readers and machines fetch it (`<page>.md`): its `# Title` first, its
 * description below, then its body (without frontmatter), as GitBook answers it. A body that
 * already starts with the same title heading keeps it once.
 */
export const pageMarkdown = (page: Pick<PageNode, "title" | "description">, stored: string): string => {
  const body = splitFrontmatter(stored).body.replace(/^(?:[ \t]*\r?\n)+/, "")
  const lead = leadingTitle(body)
  const rest = lead !== undefined && lead.title === page.title ? body.slice(lead.heading.length).replace(/^(?:[ \t]*\r?\n)+/, "") : body
  const title = page.title.replace(/[\r\n]+/g, " ").trim() || "Untitled"
  const description = page.description?.trim()
  return `# ${title}\n\n${description ? `${description}\n\n` : ""}${rest}`
}

/** The page's markdown as HTML, its links resolved and its OpenAPI operations read from their specs' latest versions. */
const renderMarkdown = (reading: Reading, { highlighter, specs }: PageSources, place: Place, rev: Revision, entry: Entry, markdown: string, shown: SpecsShown) =>
  Effect.gen(function*() {
    // The latest version of every spec the page's operations name, read before the (synchronous) render.
    const documents = new Map<string, Readonly<Record<string, unknown>>>()
    for (const slug of specsNamed(markdown)) {
      const latest = yield* specs.latestDocument(reading.site.site.organizationId, slug)
      shown.push([slug, Option.isSome(latest) ? latest.value.versionId : undefined])
      if (Option.isSome(latest)) documents.set(slug, latest.value.document)
    }
    const options: Markdown.RenderOptions = {
      ...linkOptions(reading, place, rev, entry),
      claims: reading.request.claims,
      assetUrl: (name) => `${reading.urls.basePath}~assets/${name}`,
      highlighter,
      resolveOperation: (spec, path, method) => {
        const document = documents.get(spec)
        return document === undefined ? undefined : operationOf(document, path, method)
      }
    }
    return yield* Effect.promise(() => Markdown.renderPage(markdown, options))
  })

/** A cover's reference as a URL: a file of the revision or a web image (nothing else reaches an `img`). */
const coverUrl = (reading: Reading, place: Place, rev: Revision, ref: ContentRef | undefined): string | undefined => {
  if (ref === undefined) return undefined
  if (ref.kind === "url") return /^https?:\/\//i.test(ref.url) ? ref.url : undefined
  if (ref.kind !== "file") return undefined
  const file = rev.files.find((f) => f.id === ref.file)
  return file === undefined ? undefined : reading.urls.fileUrl(place, file)
}

/** GitBook's cover of a page, its files resolved. */
const coverOf = (reading: Reading, place: Place, rev: Revision, page: PageNode): View.CoverView | undefined => {
  const cover = page.cover
  if (cover === undefined) return undefined
  const url = coverUrl(reading, place, rev, cover.ref)
  if (url === undefined) return undefined
  const darkUrl = coverUrl(reading, place, rev, cover.refDark)
  return {
    url,
    ...(darkUrl === undefined ? {} : { darkUrl }),
    ...(cover.yPos === undefined ? {} : { yPos: cover.yPos }),
    ...(cover.height === undefined ? {} : { height: cover.height }),
    ...(page.layout?.coverSize === undefined ? {} : { size: page.layout.coverSize })
  }
}

/** The page's `layout` with every part GitBook shows by default where the page says nothing. */
const layoutOf = (page: PageNode): View.PageLayoutView => {
  const given = page.layout ?? {}
  const d = View.defaultPageLayout
  return {
    width: given.width ?? d.width,
    cover: given.cover ?? d.cover,
    title: given.title ?? d.title,
    description: given.description ?? d.description,
    tableOfContents: given.tableOfContents ?? d.tableOfContents,
    outline: given.outline ?? d.outline,
    pagination: given.pagination ?? d.pagination,
    metadata: given.metadata ?? d.metadata
  }
}

/** A rendered page in its chrome, with its tree, its neighbours and its URLs. */
const pageView = (reading: Reading, place: Place, rev: Revision, entry: Entry, rendered: Markdown.RenderedPage): View.SiteView => {
  const { urls } = reading
  const home = reading.infoOf(rev).home
  const url = urls.pageUrl(place, entry.path, home?.path)
  return {
    ...chrome(reading, place, rev, entry.page.id),
    page: {
      title: entry.page.title,
      description: entry.page.description,
      emoji: entry.page.emoji,
      icon: entry.page.icon,
      layout: layoutOf(entry.page),
      cover: coverOf(reading, place, rev, entry.page),
      html: rendered.html,
      headings: rendered.headings,
      lastModified: new Date(entry.page.updatedAt),
      editUrl: editUrl(rev, entry.page),
      canonicalUrl: urls.absolute(url),
      markdownUrl: urls.absolute(urls.markdownUrlOf(place, entry.path, home?.path))
    },
    pagination: reading.site.customization.pagination?.enabled ?? true,
    ...neighboursOf(reading.tree(place, rev), entry.page.id)
  }
}
