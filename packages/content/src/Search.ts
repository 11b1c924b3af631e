/**
 * Full-text search of spaces' current content, and the upkeep of the SearchIndex that the
 * RevisionWriter runs when main moves.
 */
import { Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Pagination } from "@quire/kernel"
import { ContentAccess, type SpaceAccess } from "./ContentAccess.ts"
import { flattenPages, hiddenPath, type PageNode, pageTrail, type Revision } from "./domain/Revision.ts"
import { treeChanges } from "./domain/TreeDiff.ts"
import { breather } from "./markdown/Breather.ts"
import { includeRefs } from "./markdown/IncludeTags.ts"
import { withIncludes } from "./markdown/Includes.ts"
import { excerpt, sectionSplitter } from "@quire/markdown"
import { ParsePool } from "./markdown/ParsePool.ts"
import { RevisionsRepo, type RevisionsRepoShape } from "./RevisionsRepo.ts"
import { type IndexedPage, type PageHit, SearchIndex } from "./SearchIndex.ts"
import { SpacesRepo } from "./SpacesRepo.ts"

// Indexing ---------------------------------------------------------------------------------------

/** What a new revision changes in the index. */
export interface IndexUpdate {
  readonly pages: ReadonlyArray<IndexedPage>
  readonly removed: ReadonlyArray<string>
}

/** Characters of a section's text that are indexed (a tsvector holds at most 1 MB). */
const maxIndexedBody = 100_000

interface Entry {
  readonly page: PageNode
  readonly path: string
}

const documentsOf = (pages: ReadonlyArray<PageNode>): Map<string, Entry> =>
  new Map(flattenPages(pages).filter(({ page }) => page.type === "document").map((entry) => [entry.page.id, entry]))

/**
 * The document pages of `next` that are new or whose document, title or path changed since
 * `parent` (all of them without a parent), and the ids of the document pages that are gone.
 */
export const changedPages = (parent: Revision | undefined, next: Revision): { changed: Array<Entry>; removed: Array<string> } => {
  const changes = parent === undefined ? undefined : treeChanges(parent.pages, next.pages)
  if (changes !== undefined) {
    // No page moved: only the pages the diff names can differ.
    const changed: Array<Entry> = []
    const removed: Array<string> = []
    for (const { after, before, path, beforePath } of changes.changed) {
      if (before.type === "document" && after.type !== "document") removed.push(before.id)
      if (after.type !== "document") continue
      if (before.type !== "document" || before.document !== after.document || before.title !== after.title || beforePath !== path) {
        changed.push({ page: after, path })
      }
    }
    for (const entry of changes.added) if (entry.page.type === "document") changed.push(entry)
    for (const { page } of changes.removed) if (page.type === "document") removed.push(page.id)
    return { changed, removed }
  }
  const before = documentsOf(parent?.pages ?? [])
  const changed: Array<Entry> = []
  for (const [id, entry] of documentsOf(next.pages)) {
    const old = before.get(id)
    before.delete(id)
    if (old === undefined || old.page.document !== entry.page.document || old.page.title !== entry.page.title || old.path !== entry.path) {
      changed.push(entry)
    }
  }
  return { changed, removed: Array.from(before.keys()) }
}

/**
 * A page as the index stores it: its sections, with the page title for the text before the first
 * heading. A large page is parsed by the server's parse workers (`ParsePool`).
 */
export const indexedPage = (page: PageNode, path: string, markdown: string, breathe = breather()): Effect.Effect<IndexedPage, never, ParsePool> =>
  Effect.gen(function*() {
    const pool = yield* ParsePool
    const splitter = sectionSplitter(page.title)
    for (const items of yield* pool.digestPieces(markdown, "sections", breathe)) splitter.addItems(items)
    return {
      pageId: page.id,
      title: page.title,
      path,
      sections: splitter.done().map((section) => ({
        id: section.id,
        title: section.title,
        body: section.body.length > maxIndexedBody ? section.body.slice(0, maxIndexedBody) : section.body
      }))
    }
  })

/** What of a revision's reusable contents its pages' indexed text depends on: two revisions differ here when one was added, removed, edited or moved. */
const reusableContentsKey = (revision: Revision | undefined): string =>
  JSON.stringify((revision?.reusableContents ?? []).map((node) => [node.id, node.document ?? "", node.git?.path ?? ""]).toSorted())

/** Markdown documents by hash: those a write introduces, else the stored ones. */
const documentReader = (revisions: RevisionsRepoShape, introduced: ReadonlyMap<string, string>) =>
(hashes: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, string>> =>
  Effect.map(revisions.documents(Array.from(new Set(hashes.filter((hash) => !introduced.has(hash))))), (stored) =>
    new Map(hashes.flatMap((hash) => {
      const text = introduced.get(hash) ?? stored.get(hash)
      return text === undefined ? [] : [[hash, text] as const]
    })))

/** The markdown of `entries`' pages, in order (`""` for a page without a document). */
const pagesMarkdown = (documents: ReturnType<typeof documentReader>, entries: ReadonlyArray<Entry>) =>
  Effect.map(documents(entries.flatMap(({ page }) => (page.document === undefined ? [] : [page.document]))), (read) =>
    entries.map((entry) => ({ entry, markdown: read.get(entry.page.document ?? "") ?? "" })))

/**
 * The index update that takes `parent`'s entries to `next`'s, reading only the changed pages'
 * markdown (from `introduced`, else the document store). A page's text holds the reusable
 * contents it includes, so when those change, every page that includes one is indexed again.
 */
export const indexUpdate = (
  revisions: RevisionsRepoShape,
  parent: Revision | undefined,
  next: Revision,
  introduced: ReadonlyMap<string, string> = new Map()
): Effect.Effect<IndexUpdate, never, ParsePool> =>
  Effect.gen(function*() {
    const { changed, removed } = changedPages(parent, next)
    const documents = documentReader(revisions, introduced)
    const toIndex = yield* pagesMarkdown(documents, changed)
    if (reusableContentsKey(parent) !== reusableContentsKey(next)) {
      const ids = new Set(changed.map(({ page }) => page.id))
      const others = yield* pagesMarkdown(documents, Array.from(documentsOf(next.pages).values()).filter(({ page }) => !ids.has(page.id)))
      toIndex.push(...others.filter(({ markdown }) => includeRefs(markdown).length > 0))
    }
    const pages: Array<IndexedPage> = []
    const breathe = breather()
    for (const { entry: { page, path }, markdown } of toIndex) {
      const expanded = yield* withIncludes(markdown, next.reusableContents, page.git?.path, documents)
      pages.push(yield* indexedPage(page, path, expanded, breathe))
    }
    return { pages, removed }
  }).pipe(Effect.withSpan("Search.indexUpdate"))

// Searching --------------------------------------------------------------------------------------

export interface SearchRequest extends Pagination.PageRequest {
  readonly query: string
}

export interface SectionResult {
  /** The heading's anchor, `""` for the text before the first heading. */
  readonly anchor: string
  readonly title: string
  /** A short excerpt of the section around the first word of the query it contains. */
  readonly body: string
  readonly score: number
}

export interface PageResult {
  readonly spaceId: string
  readonly pageId: string
  readonly title: string
  readonly path: string
  readonly score: number
  readonly sections: ReadonlyArray<SectionResult>
  /** One-based position in the whole ranked result set, kept across pages of results. */
  readonly rank: number
  /** The page's description ("" without one). */
  readonly description: string
  /** The titles of the pages above it, top-level first. */
  readonly ancestors: ReadonlyArray<string>
}

export interface SpaceResults {
  readonly space: SpaceAccess
  readonly pages: ReadonlyArray<PageResult>
}

export interface SearchShape {
  /** The pages of the space's current revision that match `query`, best first. */
  readonly space: (spaceId: string, request: SearchRequest) => Effect.Effect<Pagination.Page<PageResult>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /**
   * The matching pages of every space of the organization the caller can view, best first,
   * grouped by space in order of each space's best page on this page of results (`limit` counts pages).
   */
  readonly organization: (organizationId: string, request: SearchRequest) => Effect.Effect<Pagination.Page<SpaceResults>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /**
   * As `organization`, over the spaces of `spaceIds` the caller can view, as a published site
   * searches them: pages under a hidden page are left out.
   */
  readonly site: (spaceIds: ReadonlyArray<string>, request: SearchRequest) => Effect.Effect<Pagination.Page<SpaceResults>, Errors.InvalidInput, Actor.Actor>
}

/** GitBook's bound on the query. */
export const maxQueryLength = 512

/** Sections of each page shown in results. */
const sectionsPerPage = 3

const excerptLength = 160

const checkQuery = (query: string): Effect.Effect<string, Errors.InvalidInput> => {
  const trimmed = query.trim()
  if (trimmed === "") return Effect.fail(new Errors.InvalidInput({ field: "query", reason: "give the words to search for" }))
  if (trimmed.length > maxQueryLength) {
    return Effect.fail(new Errors.InvalidInput({ field: "query", reason: `at most ${maxQueryLength} characters` }))
  }
  return Effect.succeed(trimmed)
}

/** Results are offset-paginated: the cursor holds how many pages of results came before. */
const offsetOf = (request: Pagination.PageRequest): Effect.Effect<number, Errors.InvalidInput> =>
  Effect.flatMap(Pagination.cursorOf(request), (key) => {
    if (key === undefined) return Effect.succeed(0)
    const [offset] = key
    return key.length === 1 && typeof offset === "number" && Number.isSafeInteger(offset) && offset >= 0
      ? Effect.succeed(offset)
      : Effect.fail(new Errors.InvalidInput({ field: "page", reason: "is not a cursor returned by a previous page" }))
  })

/** A hit as a search answers it, its sections' bodies cut to an excerpt around the query's first word. */
export const pageResult = (hit: PageHit, query: string, rank: number): PageResult => ({
  rank,
  description: "",
  ancestors: [],
  spaceId: hit.spaceId,
  pageId: hit.pageId,
  title: hit.title,
  path: hit.path,
  score: hit.score,
  sections: hit.sections.map((section) => ({
    anchor: section.id,
    title: section.title,
    body: excerpt(section.body, query, excerptLength),
    score: section.score
  }))
})

/** Spaces per listing call when collecting an organization's visible spaces. */
const spaceBatch = 500

/**
 * The spaces of the organization the caller can view, by id, with their access; NotFound when the
 * caller is not in it. What an organization's search and its Ask read, no more.
 */
export const viewableSpaces = Effect.fnUntraced(function*(access: ContentAccess["Service"], spaces: SpacesRepo["Service"], organizationId: string) {
  const resolver = yield* access.inOrganization(organizationId)
  if (Option.isNone(resolver.organizationRole)) {
    return yield* new Errors.NotFound({ resource: "Organization", id: organizationId })
  }
  const visible = new Map<string, SpaceAccess>()
  let after: Pagination.CursorKey | undefined
  for (;;) {
    const batch = yield* spaces.list({ organizationId }, after, spaceBatch)
    for (const s of batch.items) {
      const seen = yield* resolver.ofSpace(s)
      if (seen.permissions.view) visible.set(s.id, seen)
    }
    if (batch.next === undefined) break
    // The listing's own cursor: one that does not read back is a fault, not the caller's input.
    after = yield* Effect.orDie(Pagination.decodeCursor(batch.next))
  }
  return visible as ReadonlyMap<string, SpaceAccess>
})

export class Search extends Context.Service<Search, SearchShape>()("@quire/content/Search") {
  static readonly layer = Layer.effect(
    Search,
    Effect.gen(function*() {
      const index = yield* SearchIndex
      const access = yield* ContentAccess
      const spaces = yield* SpacesRepo
      const revisions = yield* RevisionsRepo

      /** Each result with its page's description and ancestors, read from its space's current revision. */
      const placed = Effect.fnUntraced(function*(results: ReadonlyArray<PageResult>) {
        const trees = new Map<string, ReadonlyArray<PageNode>>()
        for (const spaceId of new Set(results.map((r) => r.spaceId))) {
          const found = yield* spaces.find(spaceId)
          const current = Option.isNone(found) ? Option.none() : yield* revisions.find(found.value.revisionId)
          if (Option.isSome(current)) trees.set(spaceId, current.value.pages)
        }
        return results.map((result) => {
          const trail = pageTrail(trees.get(result.spaceId) ?? [], result.path)
          return trail === undefined ? result : { ...result, description: trail.page.description ?? "", ancestors: trail.ancestors }
        })
      })

      const run = Effect.fnUntraced(function*(spaceIds: ReadonlyArray<string>, request: SearchRequest) {
        const query = yield* checkQuery(request.query)
        const offset = yield* offsetOf(request)
        const limit = Pagination.limitOf(request)
        const hits = yield* index.search({ spaceIds, query, offset, limit, sectionsPerPage })
        return {
          items: yield* placed(hits.pages.map((hit, i) => pageResult(hit, query, offset + i + 1))),
          ...(hits.more ? { next: yield* Pagination.encodeCursor([offset + limit]) } : {})
        }
      })

      const space = Effect.fn("Search.space")(function*(spaceId: string, request: SearchRequest) {
        yield* checkQuery(request.query)
        const { space } = yield* access.space(spaceId)
        return yield* run([space.id], request)
      })

      const organization = Effect.fn("Search.organization")(function*(organizationId: string, request: SearchRequest) {
        yield* checkQuery(request.query)
        return yield* grouped(yield* viewableSpaces(access, spaces, organizationId), request)
      })

      /** The matching pages of `visible`'s spaces, grouped by space in order of each space's best page. */
      const grouped = Effect.fnUntraced(function*(visible: ReadonlyMap<string, SpaceAccess>, request: SearchRequest) {
        const found = yield* run(Array.from(visible.keys()), request)
        const groups = new Map<string, Array<PageResult>>()
        for (const page of found.items) {
          const group = groups.get(page.spaceId) ?? []
          group.push(page)
          groups.set(page.spaceId, group)
        }
        return {
          items: Array.from(groups, ([spaceId, pages]) => ({ space: visible.get(spaceId)!, pages })),
          ...(found.next === undefined ? {} : { next: found.next })
        }
      })

      const inSpaces = Effect.fn("Search.site")(function*(spaceIds: ReadonlyArray<string>, request: SearchRequest) {
        yield* checkQuery(request.query)
        const visible = new Map<string, SpaceAccess>()
        for (const spaceId of new Set(spaceIds)) {
          const found = yield* spaces.find(spaceId)
          if (Option.isNone(found) || found.value.deletedAt !== null) continue
          const seen = yield* access.ofSpace(found.value)
          if (seen.permissions.view) visible.set(spaceId, seen)
        }
        if (visible.size === 0) return { items: [] }
        const found = yield* grouped(visible, request)
        const items: Array<SpaceResults> = []
        for (const group of found.items) {
          const current = yield* revisions.find(group.space.space.revisionId)
          const pages = Option.isNone(current) ? group.pages : group.pages.filter((p) => !hiddenPath(current.value.pages, p.path))
          if (pages.length > 0) items.push({ ...group, pages })
        }
        return { ...found, items }
      })

      return Search.of({ space, organization, site: inSpaces })
    })
  )
}
