/** A site's search: the results page, or JSON as the reader types, over the spaces the audience sees. */
import { Effect } from "effect"
import { hiddenPath, type PublishedContent } from "@quire/content"
import * as Layout from "../render/Layout.ts"
import type * as View from "../render/View.ts"
import { htmlAnswer, type RenderAnswer } from "./Answer.ts"
import { chrome } from "./Chrome.ts"
import { sectionTitle } from "./Navigation.ts"
import type { Reading } from "./Reading.ts"

const results = (reading: Reading, published: PublishedContent["Service"], q: string) =>
  Effect.gen(function*() {
    const { places } = reading.visible
    const spaceIds = [...new Set(places.map((p) => p.siteSpace.space.id))]
    if (spaceIds.length === 0) return []
    // The JSON search answers as the reader types: its last word is the start of a word.
    const hits = yield* published.search({ spaceIds, query: q, offset: 0, limit: 20, sectionsPerPage: 1, prefix: reading.request.json === true })
    const found: Array<View.SearchResult> = []
    for (const hit of hits.pages) {
      const place = places.find((p) => p.siteSpace.space.id === hit.spaceId)
      if (place === undefined) continue
      const rev = yield* reading.revision(place)
      if (hiddenPath(rev.pages, hit.path)) continue
      const home = reading.infoOf(rev).home?.path
      const best = hit.sections[0]
      const anchor = best !== undefined && best.id !== "" ? `#${encodeURIComponent(best.id)}` : ""
      const body = (best?.body ?? "").replace(/\s+/g, " ").trim()
      found.push({
        title: hit.title,
        url: `${reading.urls.pageUrl(place, hit.path, home)}${anchor}`,
        snippet: body.length > 200 ? `${body.slice(0, 197)}…` : body,
        section: sectionTitle(reading, place)
      })
    }
    return found
  })

/** `~search?q=…`: at most 20 pages, the query cut at 200 characters. */
export const searchAnswer = (reading: Reading, published: PublishedContent["Service"]) =>
  Effect.gen(function*(): Effect.fn.Return<RenderAnswer> {
    const q = (reading.request.query.get("q") ?? "").slice(0, 200)
    const items = q.trim() === "" ? [] : yield* results(reading, published, q)
    if (reading.request.json === true) return { kind: "Json", body: { items } }
    const home = reading.visible.home
    const rev = home === undefined ? undefined : yield* reading.revision(home)
    const view = chrome(reading, home, rev, undefined)
    return htmlAnswer(200, Layout.searchDocument({ ...view, query: q, results: items }), view.styling)
  })
