/**
 * What a question stands on: the pages its words find, ranked together. Every Ask of Quire (a
 * published site's, the organization's) retrieves through `rankPages` with a finder of its own
 * over what its asker may read; the ranking is the same. The search runs once per word of the
 * question and per pair of its words, fused by rank, so a question in plain words finds the pages
 * that hold most of its words together, the rarer words weighing more.
 */
import { Effect } from "effect"
import type { PageHit } from "../SearchIndex.ts"

/** How much a model is given. */
export interface AskBounds {
  readonly pages: number
  readonly sectionsPerPage: number
  readonly sectionCharacters: number
  readonly totalCharacters: number
}

export const defaultBounds: AskBounds = { pages: 5, sectionsPerPage: 3, sectionCharacters: 1_500, totalCharacters: 12_000 }

/** The longest question asked (characters). */
export const maxQuestion = 512

// Words that say nothing of what a question is about.
const stopWords = new Set((
  "a about above after again all also am an and any are as at be been before being below between both but by can could " +
  "did do does doing done down during each few for from further get gets got had has have having he her here how i if in " +
  "into is it its itself just let me more most my no nor not now of off on once one only or other our out over own same " +
  "she should so some such than that the their them then there these they this those through to too under until up us " +
  "use used using very want was way we were what when where which while who whom why will with would you your yours " +
  "make need possible tell thing things something anything know read find learn see show explain mean means " +
  "please"
).split(" "))

/** The words of a question worth searching for, in order, at most 8. */
export const keywordsOf = (question: string): ReadonlyArray<string> => {
  const words = question.toLowerCase().normalize("NFKC").split(/[^\p{L}\p{N}]+/u)
  const kept: Array<string> = []
  for (const word of words) {
    if (word.length < 2 || stopWords.has(word) || kept.includes(word)) continue
    kept.push(word)
  }
  return kept.slice(0, 8)
}

/** A word's stem for a prefix search: common English endings taken off, never below 4 letters. */
export const stemOf = (word: string): string => {
  for (const ending of ["ations", "ation", "ings", "ing", "ies", "ied", "ed", "es", "s", "ly"]) {
    if (word.endsWith(ending) && word.length - ending.length >= 4) return word.slice(0, -ending.length)
  }
  return word
}

/** One search of a finder: at most `limit` pages, each with its best `sectionsPerPage` sections. */
export interface FindOptions {
  readonly limit: number
  readonly sectionsPerPage: number
  /** The query's last word is the start of a word. */
  readonly prefix: boolean
}

/** The pages `query` finds among what the asker may read, best first. */
export type Finder<F extends { readonly hit: PageHit }, E, R> = (query: string, options: FindOptions) => Effect.Effect<ReadonlyArray<F>, E, R>

/** The weight of a word that fills its search's limit: as if it were on ten times the limit's pages. */
const frequentWordWeight = Math.log(1 + 2 / 10)

interface Candidate<F extends { readonly hit: PageHit }> {
  readonly found: F
  score: number
  readonly sections: Map<string, { readonly section: PageHit["sections"][number]; weight: number }>
}

/** The pages a question's words find, best first (at most `bounds.pages`), each with its best sections. */
export const rankPages = <F extends { readonly hit: PageHit }, E, R>(find: Finder<F, E, R>, question: string, bounds: AskBounds = defaultBounds) =>
  Effect.gen(function*() {
    const keywords = keywordsOf(question)
    const candidates = new Map<string, Candidate<F>>()
    const add = (pages: ReadonlyArray<F>, weight: number) => {
      const best = pages[0]?.hit.score ?? 0
      for (const [rank, found] of pages.entries()) {
        const key = `${found.hit.spaceId}/${found.hit.pageId}`
        const candidate = candidates.get(key) ?? { found, score: 0, sections: new Map() }
        candidates.set(key, candidate)
        // By rank within each search (reciprocal rank fusion): a page one word's search puts first
        // outweighs a long page that every search finds low.
        candidate.score += (weight * 4) / (4 + rank)
        for (const section of found.hit.sections) {
          const seen = candidate.sections.get(section.id) ?? { section, weight: 0 }
          seen.weight += weight * (best > 0 ? section.score / best : 1)
          candidate.sections.set(section.id, seen)
        }
      }
    }
    const limit = 50
    const pairLimit = 10
    const weights = new Map<string, number>()
    for (const word of keywords) {
      const stem = stemOf(word)
      const pages = yield* find(stem, { limit, sectionsPerPage: bounds.sectionsPerPage, prefix: stem !== word })
      // A word on few pages tells more than one on many. One on more pages than a search returns
      // ("docs", "site" on a docs site) is taken to be on most of them: it tells little, and which
      // of its many pages came back first is no reason to rank them.
      const weight = pages.length >= limit ? frequentWordWeight : Math.log(1 + (2 * limit) / Math.max(1, pages.length))
      weights.set(stem, weight)
      add(pages, weight)
    }
    // Pages holding two of the question's words together rank above those holding one.
    for (let i = 0; i < keywords.length; i++) {
      for (let j = i + 1; j < keywords.length; j++) {
        const both = yield* find(`${stemOf(keywords[i]!)} ${stemOf(keywords[j]!)}`, { limit: pairLimit, sectionsPerPage: bounds.sectionsPerPage, prefix: false })
        if (both.length > 0) add(both, Math.log(1 + (2 * pairLimit) / both.length))
      }
    }
    if (keywords.length > 2) {
      // And pages holding every word of it come first.
      const all = yield* find(keywords.join(" "), { limit: pairLimit, sectionsPerPage: bounds.sectionsPerPage, prefix: false })
      if (all.length > 0) add(all, Math.log(1 + (2 * pairLimit) / all.length))
    }
    // A page whose title names what is asked about is what a reader would open first.
    for (const candidate of candidates.values()) {
      const words = candidate.found.hit.title.toLowerCase().split(/[^\p{L}\p{N}]+/u)
      for (const [stem, weight] of weights) if (words.some((word) => word.startsWith(stem))) candidate.score += weight
    }
    return [...candidates.values()]
      .toSorted((a, b) => b.score - a.score)
      .slice(0, bounds.pages)
      .map((c) => ({ found: c.found, sections: [...c.sections.values()].toSorted((a, b) => b.weight - a.weight).slice(0, bounds.sectionsPerPage).map((s) => s.section) }))
  })

/** `text` with its runs of spaces and blank lines folded, cut at `max` characters. */
export const clip = (text: string, max: number): string => {
  const flat = text.replace(/[ \t]+/g, " ").replace(/\n{3,}/g, "\n\n").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** The passages of each ranked page within the bounds: each page's sections clipped, until the total is spent. */
export const passagesOf = <F extends { readonly hit: PageHit }>(
  ranked: ReadonlyArray<{ readonly found: F; readonly sections: ReadonlyArray<PageHit["sections"][number]> }>,
  bounds: AskBounds = defaultBounds
): ReadonlyArray<{ readonly found: F; readonly sections: ReadonlyArray<{ readonly id: string; readonly title: string; readonly body: string }> }> => {
  const out: Array<{ readonly found: F; readonly sections: ReadonlyArray<{ readonly id: string; readonly title: string; readonly body: string }> }> = []
  let budget = bounds.totalCharacters
  for (const { found, sections } of ranked) {
    if (budget <= 0) break
    const kept: Array<{ readonly id: string; readonly title: string; readonly body: string }> = []
    for (const section of sections) {
      const body = clip(section.body, Math.min(bounds.sectionCharacters, budget))
      if (body === "" && section.title === "") continue
      budget -= body.length + section.title.length
      kept.push({ id: section.id, title: section.title, body })
      if (budget <= 0) break
    }
    out.push({ found, sections: kept })
  }
  return out
}

/** The numbers an answer cites as `[n]` (or `[n, m]`). */
export const citedNumbers = (answer: string): ReadonlySet<number> => {
  const cited = new Set<number>()
  for (const match of answer.matchAll(/\[(\d{1,2})(?:\s*,\s*(\d{1,2}))*\]/g)) {
    for (const n of match[0].slice(1, -1).split(",")) cited.add(Number(n.trim()))
  }
  return cited
}

/** The sources an answer cites as `[n]`, in the order of their numbers; all of them when it cites none. */
export const citedIn = <S extends { readonly n: number }>(answer: string, sources: ReadonlyArray<S>): ReadonlyArray<S> => {
  const cited = citedNumbers(answer)
  const found = sources.filter((s) => cited.has(s.n))
  return found.length === 0 ? sources : found
}
