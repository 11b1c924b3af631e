/**
 * Port: the full-text index of each space's current revision, one entry per section of a page
 * (the text under one heading). The use cases keep it in step with the revisions (`Search.ts`);
 * adapters only store and rank.
 */
import { Context, Effect, Layer } from "effect"
import { compareCodePoints, MemoryStore } from "@quire/kernel"
import { breather } from "./markdown/Breather.ts"

/** A section of a page as the index stores it. */
export interface IndexedSection {
  /** The heading's anchor, `""` for the text before the first heading. */
  readonly id: string
  readonly title: string
  /** Plain text. */
  readonly body: string
}

/** A page of a revision, split into sections, as the index stores it. */
export interface IndexedPage {
  readonly pageId: string
  readonly title: string
  /** Slugs from the root, joined by `/`. */
  readonly path: string
  readonly sections: ReadonlyArray<IndexedSection>
}

export interface SearchQuery {
  readonly spaceIds: ReadonlyArray<string>
  /** What the user typed (web search syntax: words, `"phrases"`, `or`, `-excluded`). */
  readonly query: string
  /** Pages of results to skip. */
  readonly offset: number
  /** Pages of results to answer. */
  readonly limit: number
  /** The best sections of each page to answer. */
  readonly sectionsPerPage: number
  /**
   * As the user types: the query's last word is the start of a word (`config` finds
   * `configuration`), the rest is as without. See `splitPrefix`.
   */
  readonly prefix?: boolean | undefined
}

/**
 * The query without its last word, and that word reduced to lowercase letters and digits (`""`
 * when nothing is left of it, or when it is an operator: `or`, `-excluded`, a quoted phrase's end).
 */
export const splitPrefix = (query: string): { readonly rest: string; readonly word: string } => {
  const match = /(^|\s)(\S+)\s*$/.exec(query)
  if (match === null) return { rest: query, word: "" }
  const token = match[2]!
  if (token.toLowerCase() === "or" || token.startsWith("-") || token.includes("\"")) return { rest: query, word: "" }
  const word = token.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")
  return word === "" ? { rest: query, word } : { rest: query.slice(0, match.index), word }
}

export interface SectionHit {
  readonly id: string
  readonly title: string
  /** The section's whole plain text (the use case cuts the excerpt). */
  readonly body: string
  readonly score: number
}

export interface PageHit {
  readonly spaceId: string
  readonly pageId: string
  readonly title: string
  readonly path: string
  /** The score of the page's best section. */
  readonly score: number
  /** Its best matching sections, best first. */
  readonly sections: ReadonlyArray<SectionHit>
}

export interface SearchHits {
  /** Pages by descending score, then space id, then page id. */
  readonly pages: ReadonlyArray<PageHit>
  /** Whether pages follow `offset + limit`. */
  readonly more: boolean
}

export interface SearchIndexShape {
  /** Replaces the entries of `pages` in the space's index and removes those of the `removed` page ids. */
  readonly update: (spaceId: string, pages: ReadonlyArray<IndexedPage>, removed: ReadonlyArray<string>) => Effect.Effect<void>
  /** Gives `toSpaceId` the entries of `fromSpaceId` (a duplicated space shares its source's content). */
  readonly copySpace: (fromSpaceId: string, toSpaceId: string) => Effect.Effect<void>
  readonly removeSpace: (spaceId: string) => Effect.Effect<void>
  /**
   * Pages whose sections match every word of the query (words of the page title count in every
   * section), ranked with page-title words above section headings above body text.
   */
  readonly search: (query: SearchQuery) => Effect.Effect<SearchHits>
}

// Memory adapter ---------------------------------------------------------------------------------

/** Words as the memory adapter compares them: lowercase letters and digits. */
const words = (text: string): Array<string> => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

interface Alternative {
  readonly required: ReadonlyArray<string>
  readonly excluded: ReadonlyArray<string>
  /** A word some word of the section must start with. */
  readonly prefix?: string | undefined
}

/** Web search syntax, approximately: `or` between alternatives, `-word` excluded, quotes ignored. */
const parseQuery = (query: string): ReadonlyArray<Alternative> => {
  const alternatives: Array<Alternative> = []
  let required: Array<string> = []
  let excluded: Array<string> = []
  for (const token of query.split(/\s+/)) {
    if (token.toLowerCase() === "or") {
      if (required.length > 0) alternatives.push({ required, excluded })
      required = []
      excluded = []
      continue
    }
    if (token.startsWith("-")) excluded.push(...words(token))
    else required.push(...words(token))
  }
  if (required.length > 0) alternatives.push({ required, excluded })
  return alternatives
}

// ts_rank's default weights for A (page title), B (headings) and C (body).
const weights = { title: 1, heading: 0.4, body: 0.2 } as const

interface Row {
  readonly position: number
  readonly page: IndexedPage
  readonly section: IndexedSection
  readonly title: ReadonlySet<string>
  readonly heading: ReadonlySet<string>
  readonly body: ReadonlySet<string>
}

/** The query's alternatives, each also needing the prefix word when there is one. */
const alternativesOf = (query: SearchQuery): ReadonlyArray<Alternative> => {
  if (query.prefix !== true) return parseQuery(query.query)
  const { rest, word } = splitPrefix(query.query)
  if (word === "") return parseQuery(query.query)
  const alternatives = parseQuery(rest)
  return alternatives.length === 0 ? [{ required: [], excluded: [], prefix: word }] : alternatives.map((a) => ({ ...a, prefix: word }))
}

const startsIn = (set: ReadonlySet<string>, prefix: string): boolean => {
  for (const word of set) if (word.startsWith(prefix)) return true
  return false
}

const score = (row: Row, alternatives: ReadonlyArray<Alternative>): number => {
  let best = 0
  for (const alternative of alternatives) {
    const has = (word: string) => row.title.has(word) || row.heading.has(word) || row.body.has(word)
    if (!alternative.required.every(has) || alternative.excluded.some(has)) continue
    let total = 0
    for (const word of alternative.required) {
      total += row.title.has(word) ? weights.title : row.heading.has(word) ? weights.heading : weights.body
    }
    const prefix = alternative.prefix
    if (prefix !== undefined) {
      const weight = startsIn(row.title, prefix)
        ? weights.title
        : startsIn(row.heading, prefix)
        ? weights.heading
        : startsIn(row.body, prefix)
        ? weights.body
        : 0
      if (weight === 0) continue
      total += weight
    }
    best = Math.max(best, total / (alternative.required.length + (prefix === undefined ? 0 : 1)))
  }
  return best
}

const rowOf = (page: IndexedPage, section: IndexedPage["sections"][number], position: number): Row => ({
  position,
  page,
  section,
  title: new Set(words(page.title)),
  heading: new Set(words(section.title)),
  body: new Set(words(section.body))
})

/** The pages of `entries` that match the query, best first (the memory adapter's ranking). */
const rankRows = (
  entries: ReadonlyArray<{ readonly spaceId: string; readonly pageId: string; readonly rows: ReadonlyArray<Row> }>,
  query: SearchQuery
): Array<PageHit> => {
  const alternatives = alternativesOf(query)
  const pages: Array<PageHit> = []
  for (const { spaceId, pageId, rows } of entries) {
    const hits = rows
      .map((row) => ({ row, score: score(row, alternatives) }))
      .filter((hit) => hit.score > 0)
      .toSorted((a, b) => b.score - a.score || a.row.position - b.row.position)
    const [first] = hits
    if (first === undefined) continue
    pages.push({
      spaceId,
      pageId,
      title: first.row.page.title,
      path: first.row.page.path,
      score: first.score,
      sections: hits.slice(0, query.sectionsPerPage).map(({ row, score }) => ({ id: row.section.id, title: row.section.title, body: row.section.body, score }))
    })
  }
  return pages.toSorted(byScore)
}

const byScore = (a: PageHit, b: PageHit) => b.score - a.score || compareCodePoints(a.spaceId, b.spaceId) || compareCodePoints(a.pageId, b.pageId)

/**
 * `indexed` (an adapter's hits, from offset 0) with the pages of `overlay` in place of the index's
 * entries of the same pages and of `hidden` ones: what a search answers over a revision that is not
 * the indexed one (a change request's preview), its changed pages ranked as the memory adapter ranks.
 */
export const overlayHits = (
  indexed: SearchHits,
  overlay: ReadonlyArray<{ readonly spaceId: string; readonly page: IndexedPage }>,
  hidden: ReadonlyMap<string, ReadonlySet<string>>,
  query: SearchQuery
): SearchHits => {
  const kept = indexed.pages.filter((hit) => hidden.get(hit.spaceId)?.has(hit.pageId) !== true)
  const extra = rankRows(overlay.map(({ spaceId, page }) => ({ spaceId, pageId: page.pageId, rows: page.sections.map((section, position) => rowOf(page, section, position)) })), query)
  const pages = [...kept, ...extra].toSorted(byScore)
  return { pages: pages.slice(query.offset, query.offset + query.limit), more: indexed.more || pages.length > query.offset + query.limit }
}

export class SearchIndex extends Context.Service<SearchIndex, SearchIndexShape>()("@quire/content/SearchIndex") {
  /** Plain word matching (no stemming): every word must appear, title words weigh most. */
  static readonly layerMemory = Layer.sync(SearchIndex, () => {
    const spaces = new MemoryStore.TxMap<string, Map<string, ReadonlyArray<Row>>>()
    return SearchIndex.of({
      update: (spaceId, pages, removed) =>
        Effect.gen(function*() {
          // A large page's words are read a section at a time, giving the event loop back.
          const breathe = breather()
          const built: Array<readonly [string, ReadonlyArray<Row>]> = []
          for (const page of pages) {
            const rows: Array<Row> = []
            for (const [position, section] of page.sections.entries()) {
              rows.push(rowOf(page, section, position))
              yield* breathe
            }
            built.push([page.pageId, rows])
          }
          const index = spaces.get(spaceId) ?? new MemoryStore.TxMap<string, ReadonlyArray<Row>>()
          spaces.set(spaceId, index)
          for (const pageId of removed) index.delete(pageId)
          for (const [pageId, rows] of built) index.set(pageId, rows)
        }),
      copySpace: (fromSpaceId, toSpaceId) =>
        Effect.sync(() => void spaces.set(toSpaceId, new MemoryStore.TxMap(spaces.get(fromSpaceId) ?? []))),
      removeSpace: (spaceId) => Effect.sync(() => void spaces.delete(spaceId)),
      search: (query) =>
        Effect.sync(() => {
          const entries: Array<{ readonly spaceId: string; readonly pageId: string; readonly rows: ReadonlyArray<Row> }> = []
          for (const spaceId of new Set(query.spaceIds)) {
            for (const [pageId, rows] of spaces.get(spaceId) ?? []) entries.push({ spaceId, pageId, rows })
          }
          const pages = rankRows(entries, query)
          return {
            pages: pages.slice(query.offset, query.offset + query.limit),
            more: pages.length > query.offset + query.limit
          }
        })
    })
  })
}
