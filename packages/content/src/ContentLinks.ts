/**
 * Links and backlinks of a revision's pages, with the link graph of each revision cached (revisions
 * are immutable). Reads need `view` on the space.
 */
import { Context, Effect, Layer, Option } from "effect"
import { Actor, BoundedCache, Errors, Pagination } from "@quire/kernel"
import { ContentAccess, type SpaceAccess } from "./ContentAccess.ts"
import { flattenPages, type PageNode, type Revision } from "./domain/Revision.ts"
import { defaultRevisionLimits } from "./domain/RevisionLimits.ts"
import {
  type LinkContext,
  type LinkResolution,
  type LinkStatus,
  type LinkTarget,
  type MarkdownLink,
  resolvesAlikeOnEveryPage,
  revisionLinkResolver
} from "@quire/markdown"
import { documentLinksOf } from "./markdown/DocumentLinks.ts"
import { ParsePool } from "./markdown/ParsePool.ts"
import { type DocumentLinks, RevisionsRepo } from "./RevisionsRepo.ts"

export interface LocatedPage {
  readonly page: PageNode
  readonly path: string
}

/** Every link of a revision, and who links to what. */
export interface LinkGraph {
  readonly revision: Revision
  /** The revision's pages by id. */
  readonly pages: ReadonlyMap<string, LocatedPage>
  /** The revision's link targets, in order of first appearance (what `linkItems` lists without a page), and how many are broken. */
  readonly items: ReadonlyArray<LinkItem>
  readonly broken: number
  /** The link targets of a page, in order of first appearance on it; each item's url is the link as first written there. */
  readonly pageItems: (pageId: string) => ReadonlyArray<LinkItem>
  /** The ids of the other pages that link to a page, in tree order. */
  readonly pageBacklinks: (pageId: string) => ReadonlyArray<string>
  /** The ids of the pages that link to a file, embed it or use it as cover, in tree order. */
  readonly fileBacklinks: (fileId: string) => ReadonlyArray<string>
}

/** One target of a listing, with where it is linked from. */
export interface LinkItem {
  readonly status: LinkStatus
  readonly target: LinkTarget
  /** The link as first written (all a broken target has to show). */
  readonly url: string
  /** The ids of the pages that link to it, in tree order. */
  readonly locations: ReadonlyArray<string>
}

export interface LinkStatsSummary {
  readonly total: number
  readonly broken: number
}

export interface LinksRequest extends Pagination.PageRequest {
  readonly status?: LinkStatus | undefined
  /** Absolute URLs starting with this point into the app (`in-app`). */
  readonly appBaseUrl: string
}

export interface BacklinksRequest extends Pagination.PageRequest {
  readonly appBaseUrl: string
}

export interface LinkList {
  readonly graph: LinkGraph
  readonly items: Pagination.Page<LinkItem>
  /** Over every target of the listing, whatever the status filter. */
  readonly stats: LinkStatsSummary
}

export interface BacklinkList {
  readonly graph: LinkGraph
  /** The linking pages. */
  readonly items: Pagination.Page<LocatedPage>
}

/** A listing of a space's current content (or of the revision its cursor pinned). */
export interface SpaceListing<A> {
  readonly access: SpaceAccess
  readonly list: A
}

type Read<A> = Effect.Effect<SpaceListing<A>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>

export interface ContentLinksShape {
  /** The link graph of any revision (no access check: callers check it on the space or change request). */
  readonly graph: (revisionId: string, appBaseUrl: string) => Effect.Effect<LinkGraph, Errors.NotFound>
  /** The link targets of a revision, or of one of its pages, with `stats`. */
  readonly revisionLinks: (revisionId: string, request: LinksRequest, pageId?: string) => Effect.Effect<LinkList, Errors.NotFound | Errors.InvalidInput>
  readonly revisionPageBacklinks: (revisionId: string, pageId: string, request: BacklinksRequest) => Effect.Effect<BacklinkList, Errors.NotFound | Errors.InvalidInput>
  readonly revisionFileBacklinks: (revisionId: string, fileId: string, request: BacklinksRequest) => Effect.Effect<BacklinkList, Errors.NotFound | Errors.InvalidInput>
  /** The link targets of the space's current revision. */
  readonly spaceLinks: (spaceId: string, request: LinksRequest) => Read<LinkList>
  /** The link targets of one page of the space's current revision. */
  readonly pageLinks: (spaceId: string, pageId: string, request: LinksRequest) => Read<LinkList>
  /** The pages of the space's current revision that link to the page. */
  readonly pageBacklinks: (spaceId: string, pageId: string, request: BacklinksRequest) => Read<BacklinkList>
  /** The pages of the space's current revision that link to, embed, or use as cover the file. */
  readonly fileBacklinks: (spaceId: string, fileId: string, request: BacklinksRequest) => Read<BacklinkList>
}

// The graph --------------------------------------------------------------------------------------

const pushTo = (map: Map<string, Array<string>>, key: string, value: string) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else if (list.at(-1) !== value) list.push(value)
}

/**
 * What the links of a revision's pages resolve against (see `LinkContext`), computed once per
 * revision: its pages by path in the tree and, for those that came from Git, by file in the
 * repository; its files by id and by path in the repository.
 */
export interface RevisionLinkIndex {
  readonly entries: ReturnType<typeof flattenPages>
  readonly pagesByPath: ReadonlyMap<string, string>
  readonly fileIds: ReadonlySet<string>
  readonly rootPagePath: string
  readonly parentPaths: ReadonlySet<string>
  readonly pagesByFile: ReadonlyMap<string, string>
  readonly filesByPath: ReadonlyMap<string, string>
}

/** The link index of `revision` (see `RevisionLinkIndex`). */
export const revisionLinkIndex = (revision: Pick<Revision, "pages" | "files">): RevisionLinkIndex => {
  const entries = flattenPages(revision.pages)
  return {
    entries,
    pagesByPath: new Map(entries.map((entry) => [entry.path, entry.page.id])),
    fileIds: new Set(revision.files.map((file) => file.id)),
    rootPagePath: entries[0]?.path ?? "",
    parentPaths: new Set(entries.filter(({ page }) => page.pages.length > 0).map(({ path }) => path)),
    pagesByFile: new Map(entries.flatMap(({ page }) => page.git === undefined || page.type !== "document" ? [] : [[page.git.path, page.id] as const])),
    filesByPath: new Map(revision.files.flatMap((file) => file.git === undefined ? [] : [[file.git.path, file.id] as const]))
  }
}

/**
 * The context the links of `page` (at `path` in the tree) resolve in: relative links start from
 * its file in the repository when it came from Git, else from its place in the tree.
 */
export const pageLinkContext = (index: RevisionLinkIndex, page: Pick<PageNode, "git">, path: string, appBaseUrl: string): LinkContext => {
  const { entries: _entries, ...lookups } = index
  return { ...lookups, pagePath: path, appBaseUrl, pageFilePath: page.git?.path }
}

interface MutableItem {
  readonly status: LinkStatus
  readonly target: LinkTarget
  readonly url: string
  readonly locations: Array<string>
}

/**
 * A link as the graph keeps it: the index of its target's item and its own status, in one number
 * (`item * 4 + status`), so that a graph holds no object per link. `notALink` for a link it leaves
 * out (anchors only, other schemes).
 */
type LinkCode = number
const statuses: ReadonlyArray<LinkStatus> = ["ok", "in-app", "broken"]
const statusCode = { ok: 0, "in-app": 1, broken: 2 } as const satisfies Record<LinkStatus, number>
const notALink: LinkCode = -1
const itemOfCode = (code: LinkCode) => code >> 2
const statusOfCode = (code: LinkCode) => statuses[code & 3]!

/**
 * The items of a graph by target: links to the same page, file or URL are one item, anchors aside.
 * Keyed by the target's own string, one map per kind, so that no key is made per link.
 */
class ItemIndex {
  readonly items: Array<MutableItem> = []
  broken = 0
  private readonly pages = new Map<string, number>()
  private readonly paths = new Map<string, number>()
  private readonly files = new Map<string, number>()
  private readonly urls = new Map<string, number>()

  /** The code of a link resolved to `resolution`, written `url`; its target's item is made when it is the first link there. */
  codeOf(resolution: LinkResolution | undefined, url: string): LinkCode {
    if (resolution === undefined) return notALink
    const { target, status } = resolution
    const map = target.kind === "page" ? ("page" in target ? this.pages : this.paths) : target.kind === "file" ? this.files : this.urls
    const key = target.kind === "page" ? ("page" in target ? target.page : target.path) : target.kind === "file" ? target.file : target.url
    let item = map.get(key)
    if (item === undefined) {
      item = this.items.length
      this.items.push({ status, target: withoutAnchor(target), url, locations: [] })
      if (status === "broken") this.broken++
      map.set(key, item)
    }
    return item * 4 + statusCode[status]
  }
}

const withoutAnchor = (target: LinkTarget): LinkTarget => {
  if (!("anchor" in target)) return target
  const { anchor: _anchor, ...rest } = target
  return rest as LinkTarget
}

/** A page's links as the graph reads them: the parsed links of its document. */
type PageLinks = ReadonlyArray<Pick<MarkdownLink, "url" | "kind">>

/**
 * The link graph of `revision`, from the parsed links of its documents (by hash); `index` is its
 * link index when already made. A link that resolves alike on every page is resolved once, and
 * the graph keeps one number per link beside the link as written: the listing of the whole
 * revision is made as the links are read, a page's listing and the backlinks when first asked for.
 */
export const buildGraph = (
  revision: Revision,
  documentLinks: ReadonlyMap<string, PageLinks>,
  appBaseUrl: string,
  index: RevisionLinkIndex = revisionLinkIndex(revision)
): LinkGraph => {
  const { entries, ...lookups } = index
  const resolverFor = revisionLinkResolver({ ...lookups, appBaseUrl })
  const items = new ItemIndex()
  // Links that resolve alike on every page (absolute URLs, paths from the root), by URL as written:
  // links and images apart, as they resolve apart.
  const everywhere = { link: new Map<string, LinkCode>(), image: new Map<string, LinkCode>() }
  const linking: Array<string> = []
  const starts: Array<number> = []
  const codes: Array<LinkCode> = []
  const written = new Map<number, string>()
  for (const entry of entries) {
    const { page } = entry
    if (page.document === undefined) continue
    const found = documentLinks.get(page.document)
    if (found === undefined || found.length === 0) continue
    let resolve: ReturnType<typeof resolverFor> | undefined
    const start = codes.length
    for (const link of found) {
      const { url } = link
      // Only a URL with a scheme, or one starting `/`, `#`, `<` or blank, may resolve alike everywhere:
      // any other (`page.md`, `./page.md`) is relative, no use looking it up.
      const first = url.charCodeAt(0)
      const maybeAlike = first === 47 || first === 35 || first === 60 || first <= 32 || Number.isNaN(first) || url.includes(":")
      const alike = !maybeAlike ? undefined : link.kind === "image" ? everywhere.image : everywhere.link
      let code = alike?.get(url)
      if (code === undefined) {
        resolve ??= resolverFor({ pagePath: entry.path, pageFilePath: page.git?.path })
        code = items.codeOf(resolve(link), url)
        if (alike !== undefined && resolvesAlikeOnEveryPage(url)) alike.set(url, code)
      }
      if (code === notALink) continue
      const item = items.items[itemOfCode(code)]!
      if (url !== item.url) written.set(codes.length, url)
      codes.push(code)
      if (item.locations[item.locations.length - 1] !== page.id) item.locations.push(page.id)
    }
    if (codes.length > start) {
      linking.push(page.id)
      starts.push(start)
    }
  }
  starts.push(codes.length)
  return graphOf(revision, entries, { items: items.items, broken: items.broken, linking, starts, codes, written })
}

/**
 * What a graph is made of, built or read back: the items, the pages with links (in tree order), and
 * their links (those the graph keeps, in order) as codes, with the links written otherwise than
 * their item's first by index; page `linking[i]`'s are those from `starts[i]` to `starts[i + 1]`.
 */
interface Links {
  readonly items: ReadonlyArray<LinkItem>
  readonly broken: number
  readonly linking: ReadonlyArray<string>
  readonly starts: ReadonlyArray<number>
  readonly codes: ReadonlyArray<LinkCode>
  readonly written: ReadonlyMap<number, string>
}

const links = Symbol("links")

/** A graph with what it was made of, which `encodeGraph` writes. */
interface GraphOfLinks extends LinkGraph {
  readonly [links]: Links
}

/** The graph over `links`, making a page's items and the backlinks on first use. */
const graphOf = (revision: Revision, entries: RevisionLinkIndex["entries"], made: Links): GraphOfLinks => {
  const { items, linking, starts, codes, written } = made
  const pages = new Map<string, LocatedPage>()
  for (const entry of entries) pages.set(entry.page.id, entry)
  let linkingIndex: Map<string, number> | undefined
  /** The index of the page among the linking pages, if it has links. */
  const linkingOf = (pageId: string): number | undefined => {
    if (linkingIndex === undefined) {
      linkingIndex = new Map()
      for (let i = 0; i < linking.length; i++) linkingIndex.set(linking[i]!, i)
    }
    return linkingIndex.get(pageId)
  }
  let backlinks: { readonly pages: Map<string, Array<string>>; readonly files: Map<string, Array<string>> } | undefined
  const backlinksOf = () => {
    if (backlinks !== undefined) return backlinks
    const toPages = new Map<string, Array<string>>()
    const toFiles = new Map<string, Array<string>>()
    const fileIds = new Set(revision.files.map((file) => file.id))
    let next = 0
    for (const entry of entries) {
      const { page } = entry
      if (page.cover?.ref.kind === "file" && fileIds.has(page.cover.ref.file)) pushTo(toFiles, page.cover.ref.file, page.id)
      if (linking[next] !== page.id) continue
      for (let l = starts[next]!; l < starts[next + 1]!; l++) {
        const code = codes[l]!
        if (statusOfCode(code) !== "ok") continue
        const { target } = items[itemOfCode(code)]!
        if (target.kind === "page" && "page" in target && target.page !== page.id) pushTo(toPages, target.page, page.id)
        if (target.kind === "file") pushTo(toFiles, target.file, page.id)
      }
      next++
    }
    return backlinks = { pages: toPages, files: toFiles }
  }
  return {
    [links]: made,
    revision,
    pages,
    items,
    broken: made.broken,
    pageItems: (pageId) => {
      const i = linkingOf(pageId)
      if (i === undefined) return []
      const seen = new Set<number>()
      const out: Array<LinkItem> = []
      for (let l = starts[i]!; l < starts[i + 1]!; l++) {
        const code = codes[l]!
        const item = itemOfCode(code)
        if (seen.has(item)) continue
        seen.add(item)
        out.push({ status: statusOfCode(code), target: items[item]!.target, url: written.get(l) ?? items[item]!.url, locations: [pageId] })
      }
      return out
    },
    pageBacklinks: (pageId) => backlinksOf().pages.get(pageId) ?? [],
    fileBacklinks: (fileId) => backlinksOf().files.get(fileId) ?? []
  }
}

// Stored graphs -----------------------------------------------------------------------------------

/**
 * The format of a stored graph (`encodeGraph`), part of its key: raise it when a link would resolve
 * otherwise (the resolver of `@quire/markdown` changed) or the encoding does, so that graphs stored
 * before are built again.
 */
export const graphFormat = 1

const targetText = (target: LinkTarget): string =>
  target.kind === "page" ? ("page" in target ? `p${target.page}` : `P${target.path}`) : target.kind === "file" ? `f${target.file}` : `u${target.url}`

const targetOfText = (text: string): LinkTarget | undefined => {
  const key = text.slice(1)
  switch (text.charCodeAt(0)) {
    case 112: return { kind: "page", page: key }
    case 80: return { kind: "page", path: key }
    case 102: return { kind: "file", file: key }
    case 117: return { kind: "url", url: key }
    default: return undefined
  }
}

/**
 * The graph as text to store (`undefined` for a graph this module did not make): JSON of its items
 * (`t` targets, a kind letter and the key: `p` a page by id, `P` the path of a missing page, `f` a
 * file, `u` a URL; `s` a status digit each; `w` the link as first written, 0 when it is the key),
 * its linking pages (`l`, in tree order) with how many links each (`n`), every link's code (`c`),
 * and the links written otherwise than their item's first (`x`: index, URL).
 */
export const encodeGraph = (graph: LinkGraph): string | undefined => {
  if (!(links in graph)) return undefined
  const { items, linking, starts, codes, written } = (graph as GraphOfLinks)[links]
  const t: Array<string> = []
  const w: Array<string | 0> = []
  let s = ""
  for (const item of items) {
    const text = targetText(item.target)
    t.push(text)
    w.push(text.length === item.url.length + 1 && text.endsWith(item.url) ? 0 : item.url)
    s += statusCode[item.status]
  }
  const n: Array<number> = []
  for (let i = 0; i < linking.length; i++) n.push(starts[i + 1]! - starts[i]!)
  const x: Array<number | string> = []
  for (const [l, url] of written) x.push(l, url)
  return JSON.stringify({ t, s, w, l: linking, n, c: codes, x })
}

const isInteger = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value)

/**
 * The graph of `revision` read back from `encodeGraph`'s text; `undefined` when the text is not a
 * graph of this revision's pages (it is then built again).
 */
export const decodeGraph = (revision: Revision, text: string, entries: RevisionLinkIndex["entries"] = flattenPages(revision.pages)): LinkGraph | undefined => {
  let stored: unknown
  try {
    stored = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof stored !== "object" || stored === null) return undefined
  const { t, s, w, l, n, c, x } = stored as Record<string, unknown>
  if (!Array.isArray(t) || typeof s !== "string" || !Array.isArray(w) || !Array.isArray(l) || !Array.isArray(n) || !Array.isArray(c) || !Array.isArray(x)) return undefined
  if (s.length !== t.length || w.length !== t.length || n.length !== l.length || x.length % 2 !== 0) return undefined
  const items: Array<MutableItem> = []
  let broken = 0
  for (let i = 0; i < t.length; i++) {
    const text: unknown = t[i]
    const first: unknown = w[i]
    const status = statuses[s.charCodeAt(i) - 48]
    const target = typeof text === "string" ? targetOfText(text) : undefined
    if (target === undefined || status === undefined || (first !== 0 && typeof first !== "string")) return undefined
    if (status === "broken") broken++
    items.push({ status, target, url: first === 0 ? (text as string).slice(1) : first, locations: [] })
  }
  // The linking pages must be pages of the revision, in tree order.
  const starts: Array<number> = []
  let at = 0
  let next = 0
  for (let i = 0; i < l.length; i++) {
    const pageId: unknown = l[i]
    const count: unknown = n[i]
    while (next < entries.length && entries[next]!.page.id !== pageId) next++
    if (next === entries.length || !isInteger(count) || count <= 0 || at + count > c.length) return undefined
    next++
    starts.push(at)
    for (const end = at + count; at < end; at++) {
      const code: unknown = c[at]
      // An integer of 31 bits (`| 0` keeps it) whose status is one of three and item one of the items.
      if (typeof code !== "number" || (code | 0) !== code || code < 0 || (code & 3) === 3 || code >> 2 >= items.length) return undefined
      const { locations } = items[code >> 2]!
      if (locations[locations.length - 1] !== pageId) locations.push(pageId as string)
    }
  }
  if (at !== c.length) return undefined
  starts.push(at)
  const written = new Map<number, string>()
  for (let i = 0; i < x.length; i += 2) {
    const index: unknown = x[i]
    const url: unknown = x[i + 1]
    if (!isInteger(index) || index < 0 || index >= c.length || typeof url !== "string") return undefined
    written.set(index, url)
  }
  return graphOf(revision, entries, { items, broken, linking: l as Array<string>, starts, codes: c as Array<number>, written })
}

/** The link targets of the graph (of one page when `pageId` is given), in order of first appearance. */
export const linkItems = (graph: LinkGraph, pageId?: string): ReadonlyArray<LinkItem> =>
  pageId === undefined ? graph.items : graph.pageItems(pageId)

// Pagination -------------------------------------------------------------------------------------

/** Cursors hold the revision the listing started on and how many items came before. */
const cursorOf = (request: Pagination.PageRequest): Effect.Effect<{ revisionId: string; offset: number } | undefined, Errors.InvalidInput> =>
  Effect.flatMap(Pagination.cursorOf(request), (key) => {
    if (key === undefined) return Effect.succeed(undefined)
    const [revisionId, offset] = key
    return key.length === 2 && typeof revisionId === "string" && typeof offset === "number" && Number.isSafeInteger(offset) && offset >= 0
      ? Effect.succeed({ revisionId, offset })
      : Effect.fail(new Errors.InvalidInput({ field: "page", reason: "is not a cursor returned by a previous page" }))
  })

const paginate = <A>(all: ReadonlyArray<A>, revisionId: string, offset: number, request: Pagination.PageRequest): Effect.Effect<Pagination.Page<A>> => {
  const limit = Pagination.limitOf(request)
  const items = all.slice(offset, offset + limit)
  return offset + limit < all.length
    ? Effect.map(Pagination.encodeCursor([revisionId, offset + limit]), (next) => ({ items, next }))
    : Effect.succeed({ items })
}

/**
 * Revisions whose graphs are kept (and at most `graphPages` pages in all of them: two of the
 * largest revisions, or 32 smaller ones), and documents whose links are kept (a graph of the
 * largest revision finds them all).
 */
const graphCapacity = 32
const graphPages = 2 * defaultRevisionLimits.pages
const documentCapacity = defaultRevisionLimits.pages

export class ContentLinks extends Context.Service<ContentLinks, ContentLinksShape>()("@quire/content/ContentLinks") {
  static readonly layer = Layer.effect(
    ContentLinks,
    Effect.gen(function*() {
      const revisions = yield* RevisionsRepo
      const access = yield* ContentAccess
      const pool = yield* ParsePool
      const graphs = yield* BoundedCache.make<string, LinkGraph>({
        name: "link_graphs",
        capacity: graphCapacity,
        maxWeight: graphPages,
        weigh: (g) => g.pages.size
      })
      const parsed = yield* BoundedCache.make<string, DocumentLinks>({ name: "document_links", capacity: documentCapacity })

      const graph = Effect.fn("ContentLinks.graph")(function*(revisionId: string, appBaseUrl: string) {
        const key = `${revisionId} ${appBaseUrl}`
        const cached = graphs.get(key)
        if (cached !== undefined) return cached
        // A graph built before, in this process or another, is read back whole: read beside the
        // revision, each a round trip to the database, neither waiting for the other.
        const [found, stored] = yield* Effect.all([revisions.find(revisionId), revisions.linkGraph(revisionId, appBaseUrl, graphFormat)], {
          concurrency: 2
        })
        if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Revision", id: revisionId })
        const revision = found.value
        const decoded = Option.isSome(stored) ? decodeGraph(revision, stored.value) : undefined
        if (decoded !== undefined) {
          graphs.set(key, decoded)
          return decoded
        }
        const index = revisionLinkIndex(revision)
        const documentLinks = new Map<string, DocumentLinks>()
        const missing = new Set<string>()
        for (const { page } of index.entries) {
          if (page.document === undefined || documentLinks.has(page.document)) continue
          const known = parsed.get(page.document)
          if (known === undefined) missing.add(page.document)
          else documentLinks.set(page.document, known)
        }
        // Links are recorded when a document is stored; those stored before are parsed once and recorded.
        const recorded = yield* revisions.documentLinks(Array.from(missing))
        const unrecorded = Array.from(missing).filter((hash) => !recorded.has(hash))
        const markdown = unrecorded.length === 0 ? new Map<string, string>() : yield* revisions.documents(unrecorded)
        const fresh = yield* documentLinksOf(markdown).pipe(Effect.provideService(ParsePool, pool))
        if (fresh.size > 0) yield* revisions.recordLinks(fresh)
        for (const found of [recorded, fresh]) {
          for (const [hash, links] of found) {
            parsed.set(hash, links)
            documentLinks.set(hash, links)
          }
        }
        const built = buildGraph(revision, documentLinks, appBaseUrl, index)
        yield* revisions.recordLinkGraph({ revisionId, spaceId: revision.spaceId, appBaseUrl, format: graphFormat, graph: encodeGraph(built)! })
        graphs.set(key, built)
        return built
      })

      const pageOf = (g: LinkGraph, pageId: string) =>
        g.pages.has(pageId) ? Effect.void : Effect.fail(new Errors.NotFound({ resource: "Page", id: pageId }))

      const listing = (g: LinkGraph, offset: number, request: LinksRequest, pageId?: string): Effect.Effect<LinkList> => {
        const all = linkItems(g, pageId)
        const wanted = request.status === undefined ? all : all.filter((item) => item.status === request.status)
        const broken = pageId === undefined ? g.broken : all.filter((item) => item.status === "broken").length
        return Effect.map(paginate(wanted, g.revision.id, offset, request), (items) => ({
          graph: g,
          items,
          stats: { total: all.length, broken }
        }))
      }

      const backlinks = (g: LinkGraph, ids: ReadonlyArray<string>, offset: number, request: BacklinksRequest): Effect.Effect<BacklinkList> =>
        Effect.map(paginate(ids.map((id) => g.pages.get(id)!), g.revision.id, offset, request), (items) => ({ graph: g, items }))

      const revisionLinks = Effect.fn("ContentLinks.revisionLinks")(function*(revisionId: string, request: LinksRequest, pageId?: string) {
        const cursor = yield* cursorOf(request)
        const g = yield* graph(cursor?.revisionId ?? revisionId, request.appBaseUrl)
        if (pageId !== undefined) yield* pageOf(g, pageId)
        return yield* listing(g, cursor?.offset ?? 0, request, pageId)
      })

      const revisionPageBacklinks = Effect.fn("ContentLinks.revisionPageBacklinks")(function*(revisionId: string, pageId: string, request: BacklinksRequest) {
        const cursor = yield* cursorOf(request)
        const g = yield* graph(cursor?.revisionId ?? revisionId, request.appBaseUrl)
        yield* pageOf(g, pageId)
        return yield* backlinks(g, g.pageBacklinks(pageId), cursor?.offset ?? 0, request)
      })

      const revisionFileBacklinks = Effect.fn("ContentLinks.revisionFileBacklinks")(function*(revisionId: string, fileId: string, request: BacklinksRequest) {
        const cursor = yield* cursorOf(request)
        const g = yield* graph(cursor?.revisionId ?? revisionId, request.appBaseUrl)
        if (!g.revision.files.some((file) => file.id === fileId)) return yield* new Errors.NotFound({ resource: "File", id: fileId })
        return yield* backlinks(g, g.fileBacklinks(fileId), cursor?.offset ?? 0, request)
      })

      /** The space's current revision, or the one a cursor of this space pinned. */
      const inSpace = <A>(
        spaceId: string,
        request: Pagination.PageRequest,
        read: (revisionId: string) => Effect.Effect<A, Errors.NotFound | Errors.InvalidInput>
      ): Read<A> =>
        Effect.gen(function*() {
          const seen = yield* access.space(spaceId)
          const cursor = yield* cursorOf(request)
          if (cursor !== undefined) {
            const pinned = yield* revisions.find(cursor.revisionId)
            if (Option.isNone(pinned) || pinned.value.spaceId !== spaceId) {
              return yield* new Errors.InvalidInput({ field: "page", reason: "is not a cursor returned by a previous page" })
            }
          }
          return { access: seen, list: yield* read(seen.space.revisionId) }
        })

      return ContentLinks.of({
        graph,
        revisionLinks,
        revisionPageBacklinks,
        revisionFileBacklinks,
        spaceLinks: (spaceId, request) => inSpace(spaceId, request, (r) => revisionLinks(r, request)),
        pageLinks: (spaceId, pageId, request) => inSpace(spaceId, request, (r) => revisionLinks(r, request, pageId)),
        pageBacklinks: (spaceId, pageId, request) => inSpace(spaceId, request, (r) => revisionPageBacklinks(r, pageId, request)),
        fileBacklinks: (spaceId, fileId, request) => inSpace(spaceId, request, (r) => revisionFileBacklinks(r, fileId, request))
      })
    })
  )
}
