/**
 * What a question stands on: the passages that answer it best, and their pages. Every Ask of
 * Quire (a published site's, the organization's) retrieves through `rankPages` with a finder of
 * its own over what its asker may read; the ranking is the same. The search runs once per word of
 * the question, per pair of its words and with all of them, to gather candidate sections; their
 * passages are then scored on their own (docs/sites.md, "Ask").
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

/**
 * How near in meaning the question is to each text (cosine similarity of an embedding model's
 * vectors, in the texts' order), or `undefined` when it cannot say (no model answering): the
 * ranking is then by words alone.
 */
export type Similarity = (question: string, texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<number> | undefined>

/** Pages whose passages are weighed by meaning as well as by words: the best this many by their searches and words. */
const semanticPages = 30
/**
 * What nearness in meaning adds to a passage at most: as much as its words' share. A page's words
 * count twice (its best passage's share, its searches' share), so meaning reorders pages whose words
 * are close and does not override words that clearly answer. Measured with word vectors standing in
 * for an embedding model (`pnpm bench --ask-retrieval`, docs/sites.md): at 0.5 and 1 one more fact
 * reached the model and nothing was lost; at 2 every repository lost a page.
 */
const semanticWeight = 1

/** The weight of a word that fills its search's limit: as if it were on ten times the limit's pages. */
const frequentWordWeight = Math.log(1 + 2 / 10)

type Section = PageHit["sections"][number]

/** A passage: a run of a section's paragraphs, at most `sectionCharacters` long, scored on its own. */
interface Passage {
  readonly page: string
  readonly section: Section
  readonly body: string
  score: number
}

/** Lowercase words of `text`. */
const wordsOf = (text: string): ReadonlyArray<string> => text.toLowerCase().normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? []

/** Whether `word` is a form of the question's word whose stem is `stem`. */
const formOf = (word: string, stem: string): boolean => stem.length >= 4 ? word.startsWith(stem) : word === stem || stemOf(word) === stem

/** `body` cut into runs of paragraphs (of sentences, for a paragraph too long) of at most `max` characters. */
export const passagesIn = (body: string, max: number): ReadonlyArray<string> => {
  const pieces: Array<string> = []
  for (const paragraph of body.split(/\n/)) {
    const flat = paragraph.trim()
    if (flat === "") continue
    if (flat.length <= max) pieces.push(flat)
    else {
      let run = ""
      for (const sentence of flat.split(/(?<=[.!?])\s+/)) {
        if (run !== "" && run.length + sentence.length + 1 > max) {
          pieces.push(run)
          run = ""
        }
        run = run === "" ? sentence : `${run} ${sentence}`
      }
      if (run !== "") pieces.push(run)
    }
  }
  const out: Array<string> = []
  let run = ""
  for (const piece of pieces) {
    if (run !== "" && run.length + piece.length + 2 > max) {
      out.push(run)
      run = ""
    }
    run = run === "" ? piece : `${run}\n${piece}`
  }
  if (run !== "" || out.length === 0) out.push(run)
  return out
}

// BM25's constants: how fast repeats of a word stop counting, and how much a long passage is discounted.
const k1 = 1.2
const b = 0.75
/** What a question word in the page's title, or in the section's heading, adds to a passage, as repeats in its text would at most. */
const titleWeight = k1 + 1
const headingWeight = (k1 + 1) / 2
/** The longest passage (characters): a few sentences, so that a long section's answering lines are passed without the rest. */
const passageCharacters = 500
/** Passages of a page passed, per section a page may pass (`bounds.sectionsPerPage`): passages are a third of a section's bound. */
const passagesPerSection = 2

/** How far apart (in words that say something) two of the question's words still count as close. */
const nearWords = 3

/**
 * A search's own score of a page (PostgreSQL's `ts_rank` of its best section, which counts repeats
 * and not length), discounted by that section's length: a 40 KB video transcript holds every word
 * many times and topped each search, so it led the fused rank of pages whatever the question.
 * Measured (`pnpm bench --ask-retrieval`): from 200 to 1,000 characters the same; at 5,000 no gain.
 */
const discountCharacters = 1_000
const lengthDiscounted = (hit: PageHit): number => hit.score / (1 + Math.log(1 + (hit.sections[0]?.body.length ?? 0) / discountCharacters))

/**
 * What two of the question's words close together in a passage add (term-pair proximity, after
 * Rasolofo and Savoy): for each pair of its words, each time they are at most `nearWords` words apart
 * (words that say nothing not counted), the inverse of their distance, saturated as BM25 saturates
 * repeats, weighed by the pair's weights. A passage where the question's words make one phrase
 * answers it better than one where they are far apart.
 */
const nearness = (words: ReadonlyArray<string>, stems: ReadonlyArray<string>, weights: ReadonlyMap<string, number>, norm: number): number => {
  const positions = stems.map((): Array<number> => [])
  let at = 0
  for (const word of words) {
    if (stopWords.has(word)) continue
    for (const [i, stem] of stems.entries()) if (formOf(word, stem)) positions[i]!.push(at)
    at++
  }
  let total = 0
  for (let i = 0; i < stems.length; i++) {
    for (let j = i + 1; j < stems.length; j++) {
      let near = 0
      for (const x of positions[i]!) {
        for (const y of positions[j]!) {
          const d = Math.abs(x - y)
          if (d > 0 && d <= nearWords) near += 1 / d
        }
      }
      if (near > 0) total += (((weights.get(stems[i]!) ?? 0) + (weights.get(stems[j]!) ?? 0)) / 2) * ((near * (k1 + 1)) / (near + norm))
    }
  }
  return total
}

/**
 * Adds to each passage of the `semanticPages` most promising pages (by their searches, then their
 * best passage's words) its nearness in meaning to the question, from 0 for the farthest of them to
 * `semanticWeight` for the nearest; the text weighed is the page's title, the heading and the passage.
 */
const weighMeaning = (
  similarity: Similarity,
  question: string,
  passages: ReadonlyArray<Passage>,
  fused: ReadonlyMap<string, number>,
  titles: ReadonlyMap<string, string>
) =>
  Effect.gen(function*() {
    const bestWords = new Map<string, number>()
    for (const p of passages) bestWords.set(p.page, Math.max(bestWords.get(p.page) ?? 0, p.score))
    const promising = new Set(
      [...bestWords.keys()]
        .toSorted((x, y) => (fused.get(y) ?? 0) + (bestWords.get(y) ?? 0) - ((fused.get(x) ?? 0) + (bestWords.get(x) ?? 0)))
        .slice(0, semanticPages)
    )
    const weighed = passages.filter((p) => promising.has(p.page))
    const near = yield* similarity(question, weighed.map((p) => [titles.get(p.page) ?? "", p.section.title, p.body].filter((t) => t !== "").join("\n")))
    if (near === undefined || near.length !== weighed.length) return
    const low = Math.min(...near)
    const high = Math.max(...near)
    if (!(high > low)) return
    for (const [i, passage] of weighed.entries()) passage.score += (semanticWeight * (near[i]! - low)) / (high - low)
  })

/**
 * The pages a question's words find, best first (at most `bounds.pages`), each with the passages
 * of it that answer best. Searches gather candidates (each word, each pair of words, all of them);
 * then every passage of every candidate section is scored on its own (BM25 over the question's
 * words, rare words weighing more, page title and heading counting as text that names the
 * subject, the question's words close together counting more: `nearness`); given `similarity`
 * (an embedding model: AskEmbeddings), the passages of the most promising pages also gain their
 * nearness in meaning to the question, so that a question in other words than the page's ("phone"
 * for "mobile") still finds it. A page ranks by its best passage, so its length is no weight, and
 * the best passages of the best pages fill the budget.
 */
export const rankPages = <F extends { readonly hit: PageHit }, E, R>(
  find: Finder<F, E, R>,
  question: string,
  bounds: AskBounds = defaultBounds,
  similarity?: Similarity
) =>
  Effect.gen(function*() {
    const keywords = keywordsOf(question)
    const stems = keywords.map(stemOf)
    const pages = new Map<string, { readonly found: F; readonly sections: Map<string, Section> }>()
    // Each search's pages fused by rank (reciprocal rank fusion), the page's search-level score; a
    // search's pages ranked by its score discounted by length (lengthDiscounted).
    const fused = new Map<string, number>()
    const gather = (found: ReadonlyArray<F>, weight: number) => {
      for (const [rank, f] of found.toSorted((x, y) => lengthDiscounted(y.hit) - lengthDiscounted(x.hit)).entries()) {
        const key = `${f.hit.spaceId}/${f.hit.pageId}`
        const page = pages.get(key) ?? { found: f, sections: new Map() }
        pages.set(key, page)
        fused.set(key, (fused.get(key) ?? 0) + (weight * 4) / (4 + rank))
        for (const section of f.hit.sections) if (!page.sections.has(section.id)) page.sections.set(section.id, section)
      }
    }
    const limit = 50
    const pairLimit = 10
    const sectionsPerPage = Math.max(bounds.sectionsPerPage, 6)
    const weights = new Map<string, number>()
    for (const [i, stem] of stems.entries()) {
      const found = yield* find(stem, { limit, sectionsPerPage, prefix: stem !== keywords[i] })
      // A word on few pages tells more than one on many. One on more pages than a search returns
      // ("docs", "site" on a docs site) is taken to be on most of them: it tells little.
      // One the search finds on no page (a word it does not index, "what") tells nothing either.
      const weight = found.length === 0 ? 0 : found.length >= limit ? frequentWordWeight : Math.log(1 + (2 * limit) / found.length)
      weights.set(stem, weight)
      gather(found, weight)
    }
    // Pages holding two of the question's words, or all of them, together: where a long page's
    // many words would crowd out the page that holds both in one place.
    for (let i = 0; i < stems.length; i++) {
      for (let j = i + 1; j < stems.length; j++) {
        const both = yield* find(`${stems[i]} ${stems[j]}`, { limit: pairLimit, sectionsPerPage, prefix: false })
        gather(both, Math.log(1 + (2 * pairLimit) / Math.max(1, both.length)))
      }
    }
    if (stems.length > 2) {
      const all = yield* find(stems.join(" "), { limit: pairLimit, sectionsPerPage, prefix: false })
      gather(all, Math.log(1 + (2 * pairLimit) / Math.max(1, all.length)))
    }

    const passages: Array<Passage> = []
    for (const [key, { sections }] of pages) {
      for (const section of sections.values()) {
        for (const body of passagesIn(section.body, Math.min(bounds.sectionCharacters, passageCharacters))) {
          if (body.trim() !== "") passages.push({ page: key, section, body, score: 0 })
        }
      }
    }
    const lengths = passages.map((p) => wordsOf(p.body).length)
    const average = Math.max(1, lengths.reduce((a, n) => a + n, 0) / Math.max(1, lengths.length))
    const titles = new Map([...pages].map(([key, { found }]) => [key, found.hit.title]))
    for (const [n, passage] of passages.entries()) {
      const words = wordsOf(passage.body)
      const heading = wordsOf(passage.section.title)
      const title = wordsOf(titles.get(passage.page) ?? "")
      const norm = k1 * (1 - b + (b * lengths[n]!) / average)
      let score = 0
      for (const stem of stems) {
        let tf = 0
        for (const word of words) if (formOf(word, stem)) tf++
        const text = tf === 0 ? 0 : (tf * (k1 + 1)) / (tf + norm)
        const named = (title.some((w) => formOf(w, stem)) ? titleWeight : 0) + (heading.some((w) => formOf(w, stem)) ? headingWeight : 0)
        score += (weights.get(stem) ?? frequentWordWeight) * (text + named)
      }
      passage.score = score + nearness(words, stems, weights, norm)
    }

    // Each passage's words as a share of the best passage's; with a model of meaning, the passages of
    // the most promising pages gain their nearness to the question, as a share of the nearest.
    const topWords = Math.max(0, ...passages.map((p) => p.score))
    for (const passage of passages) passage.score = topWords > 0 ? passage.score / topWords : 0
    if (similarity !== undefined && passages.length > 0) yield* weighMeaning(similarity, question, passages, fused, titles)

    const best = new Map<string, Passage>()
    for (const passage of passages) {
      const seen = best.get(passage.page)
      if (passage.score > 0 && (seen === undefined || passage.score > seen.score)) best.set(passage.page, passage)
    }
    // A page ranks by its best passage and by how its searches ranked it, each as a share of the
    // best: the passage says where the answer is, the searches which page most of the words are about.
    // (A passage's score is already its words' share of the best, plus its nearness in meaning.)
    const topFused = Math.max(0, ...fused.values())
    const pageScore = (p: Passage) => p.score + (topFused > 0 ? (fused.get(p.page) ?? 0) / topFused : 0)
    const chosen = [...best.values()].toSorted((x, y) => pageScore(y) - pageScore(x)).slice(0, bounds.pages)
    // Each page's best passage, then the next best passages of those pages, whichever page they
    // are on, while the budget lasts.
    const kept = new Map<string, Array<Passage>>(chosen.map((p) => [p.page, [p]]))
    let budget = bounds.totalCharacters - chosen.reduce((n, p) => n + p.body.length + p.section.title.length, 0)
    const rest = passages
      .filter((p) => kept.has(p.page) && best.get(p.page) !== p && p.score > 0)
      .toSorted((x, y) => y.score - x.score)
    for (const passage of rest) {
      const list = kept.get(passage.page)!
      const size = passage.body.length + passage.section.title.length
      if (list.length >= bounds.sectionsPerPage * passagesPerSection || size > budget) continue
      list.push(passage)
      budget -= size
    }
    return chosen.map((top) => ({
      found: pages.get(top.page)!.found,
      sections: kept.get(top.page)!.map((p): Section => ({ id: p.section.id, title: p.section.title, body: p.body, score: p.score }))
    }))
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
