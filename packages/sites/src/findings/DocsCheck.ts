/**
 * Whether a site's docs answer a record: its words searched in the site's published spaces (Ask's
 * retrieval over the search index), and how many of them one page's best passages hold.
 */
import { Effect } from "effect"
import { type AskBounds, type PublishedContent, rankPages, stemOf } from "@quire/content"
import type { PageRef } from "../domain/Findings.ts"
import { stemsOf } from "./Clustering.ts"

/** A record's words a page must hold for the docs to answer it. */
export const answeredShare = 0.75
/** A page that holds this share of them is about the record: it is linked to the finding. */
const relatedShare = 0.5

const bounds: AskBounds = { pages: 3, sectionsPerPage: 2, sectionCharacters: 1_500, totalCharacters: 6_000 }

const wordsOf = (text: string): ReadonlyArray<string> => text.toLowerCase().normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? []

export interface Coverage {
  /** Whether one page holds enough of the record's words. */
  readonly answered: boolean
  /** The pages about it, best first. */
  readonly pages: ReadonlyArray<PageRef>
  /** The page that holds most of its words, with the passages that do (what a model judges). */
  readonly best: { readonly page: PageRef; readonly share: number; readonly passages: string } | undefined
}

/** How the docs of `spaceIds` cover `text`. */
export const coverage = (published: PublishedContent["Service"], spaceIds: ReadonlyArray<string>, text: string): Effect.Effect<Coverage> =>
  Effect.gen(function*() {
    const stems = stemsOf(text)
    if (stems.length === 0 || spaceIds.length === 0) return { answered: false, pages: [], best: undefined }
    const found = yield* rankPages(
      (query, options) =>
        Effect.map(published.search({ spaceIds, query, offset: 0, ...options }), (hits) => hits.pages.map((hit) => ({ hit }))),
      text,
      bounds
    )
    let answered = false
    const pages: Array<PageRef> = []
    let best: Coverage["best"] = undefined
    for (const { found: page, sections } of found) {
      const words = new Set(wordsOf([page.hit.title, ...sections.flatMap((s) => [s.title, s.body])].join(" ")).map(stemOf))
      const share = stems.filter((s) => words.has(s) || [...words].some((w) => s.length >= 4 && w.startsWith(s))).length / stems.length
      if (share >= answeredShare) answered = true
      if (share < relatedShare) continue
      const ref = { spaceId: page.hit.spaceId, pageId: page.hit.pageId, title: page.hit.title, path: page.hit.path }
      pages.push(ref)
      if (best === undefined || share > best.share) {
        best = { page: ref, share, passages: sections.map((s) => [s.title, s.body].filter((t) => t.trim() !== "").join("\n")).join("\n\n") }
      }
    }
    return { answered, pages, best }
  })
