/** A site's search: the results page, or JSON as the reader types, over the spaces the audience sees. */
import { Effect } from "effect"
import { hiddenPath, type PageHit, type PageNode, type PublishedContent, type SearchHits } from "@quire/content"
import { adaptMarkdown } from "../render/Adaptive.ts"
import { withIncludes } from "../render/Includes.ts"
import * as Layout from "../render/Layout.ts"
import type * as View from "../render/View.ts"
import { htmlAnswer, type RenderAnswer } from "./Answer.ts"
import { chrome } from "./Chrome.ts"
import { sectionTitle } from "./Navigation.ts"
import type { Reading } from "./Reading.ts"
import type { Place } from "./Places.ts"

/** A page the search found that the reader may see, with its place and URL. */
export interface FoundPage {
  readonly hit: PageHit
  readonly place: Place
  readonly revisionId: string
  /** The page's URL below the site's root as the reader reaches it (no anchor). */
  readonly url: string
}

export interface FindOptions {
  readonly limit: number
  readonly sectionsPerPage: number
  /** The query's last word is the start of a word. */
  readonly prefix: boolean
}

/**
 * `hits` as the reader's own text of their pages answers them: a page with adaptive content their
 * claims do not open is searched again in what it shows them (it goes when only hidden text
 * matched; its sections and snippets are the shown text's), the others are as the index found them.
 */
const adaptedHits = (
  reading: Reading,
  published: PublishedContent["Service"],
  query: Parameters<PublishedContent["Service"]["search"]>[0],
  hits: SearchHits,
  places: ReadonlyArray<Place>
) =>
  Effect.gen(function*() {
    const read: Array<{ readonly hit: PageHit; readonly page: PageNode; readonly revision: Effect.Success<ReturnType<Reading["revision"]>> }> = []
    for (const hit of hits.pages) {
      const place = places.find((p) => p.siteSpace.space.id === hit.spaceId)
      if (place === undefined) continue
      const rev = yield* reading.revision(place)
      const entry = reading.infoOf(rev).byPath.get(hit.path)
      if (entry !== undefined && entry.page.id === hit.pageId && entry.page.document !== undefined) read.push({ hit, page: entry.page, revision: rev })
    }
    const stored = yield* published.documents(read.map(({ page }) => page.document!))
    const changed = new Set<string>()
    const ownText: Array<{ readonly spaceId: string; readonly page: PageNode; readonly path: string; readonly markdown: string }> = []
    for (const { hit, page, revision } of read) {
      const markdown = stored.get(page.document!)
      if (markdown === undefined) continue
      const adapted = adaptMarkdown(yield* withIncludes(markdown, revision, page.git?.path, published.documents), reading.request.claims)
      if (!adapted.hid) continue
      changed.add(`${hit.spaceId}/${hit.pageId}`)
      ownText.push({ spaceId: hit.spaceId, page, path: hit.path, markdown: adapted.markdown })
    }
    if (ownText.length === 0) return hits.pages
    const again = yield* published.searchPages({ ...query, offset: 0, limit: ownText.length }, ownText)
    return [...hits.pages.filter((hit) => !changed.has(`${hit.spaceId}/${hit.pageId}`)), ...again.pages].toSorted((a, b) => b.score - a.score)
  })

/**
 * The search over the spaces of the places the reader sees, best first, without the pages their
 * revisions hide: what the results page lists, and what Ask reads its sources from.
 */
export const findPages = (reading: Reading, published: PublishedContent["Service"], q: string, options: FindOptions) =>
  Effect.gen(function*() {
    const { places } = reading.visible
    const spaceIds = [...new Set(places.map((p) => p.siteSpace.space.id))]
    if (spaceIds.length === 0) return []
    const query = { spaceIds, query: q, offset: 0, ...options }
    const previewed = reading.request.previewSpace === undefined ? undefined : places.find((p) => p.siteSpace.space.id === reading.request.previewSpace)
    const hits = previewed === undefined
      ? yield* published.search(query)
      : yield* published.searchAt(query, new Map([[previewed.siteSpace.space.id, previewed.siteSpace.space.revisionId]]))
    const found: Array<FoundPage> = []
    for (const hit of yield* adaptedHits(reading, published, query, hits, places)) {
      const place = places.find((p) => p.siteSpace.space.id === hit.spaceId)
      if (place === undefined) continue
      const rev = yield* reading.revision(place)
      if (hiddenPath(rev.pages, hit.path)) continue
      const home = reading.infoOf(rev).home?.path
      found.push({ hit, place, revisionId: rev.id, url: reading.urls.pageUrl(place, hit.path, home) })
    }
    return found
  })

const results = (reading: Reading, published: PublishedContent["Service"], q: string) =>
  Effect.map(
    // The JSON search answers as the reader types: its last word is the start of a word.
    findPages(reading, published, q, { limit: 20, sectionsPerPage: 1, prefix: reading.request.json === true }),
    (pages) =>
      pages.map(({ hit, place, url }): View.SearchResult => {
        const best = hit.sections[0]
        const anchor = best !== undefined && best.id !== "" ? `#${encodeURIComponent(best.id)}` : ""
        const body = (best?.body ?? "").replace(/\s+/g, " ").trim()
        return {
          title: hit.title,
          url: `${url}${anchor}`,
          snippet: body.length > 200 ? `${body.slice(0, 197)}…` : body,
          section: sectionTitle(reading, place)
        }
      })
  )

/** `~search?q=…`: at most 20 pages, the query cut at 200 characters. */
export const searchAnswer = (reading: Reading, published: PublishedContent["Service"]) =>
  Effect.gen(function*(): Effect.fn.Return<RenderAnswer> {
    const q = (reading.request.query.get("q") ?? "").slice(0, 200)
    const items = q.trim() === "" ? [] : yield* results(reading, published, q)
    if (reading.request.json === true) return { kind: "Json", body: { items } }
    const home = reading.visible.home
    const rev = home === undefined ? undefined : yield* reading.revision(home)
    const view = chrome(reading, home, rev, undefined)
    return htmlAnswer(200, Layout.searchDocument({ ...view, query: q, results: items }), view)
  })
