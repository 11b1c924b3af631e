/**
 * Deterministic lexical clustering of records into topics: a record's words are its title's
 * keywords, stemmed; a record joins the cluster it shares most words with
 * (at least two, or its only word), else starts one. A cluster is named by its most shared words.
 */
import { keywordsOf, stemOf } from "@quire/content"

/** The stems of a text's keywords, in order. */
export const stemsOf = (text: string): ReadonlyArray<string> => [...new Set(keywordsOf(text).map(stemOf))]

export interface Clusterable {
  readonly id: string
  readonly title: string
  readonly body: string
}

export interface Cluster<A extends Clusterable> {
  /** Its words (stems), most shared first. */
  readonly keywords: ReadonlyArray<string>
  /** The same words as a record first wrote them. */
  readonly words: ReadonlyArray<string>
  readonly members: ReadonlyArray<A>
}

// The title says what a record is about; bodies (a ticket's thread, a page's text) bring words every record shares.
const textOf = (r: Clusterable) => r.title
const wordsOfRecord = (r: Clusterable) => stemsOf(textOf(r))

/** How many words two sets share. */
const shared = (a: ReadonlySet<string>, b: ReadonlyArray<string>) => b.reduce((n, w) => n + (a.has(w) ? 1 : 0), 0)

/**
 * `records` clustered; `seeds` (the topics already known, by their words) are tried first, so a
 * subject keeps its topic from one scan to the next. Records with no words are left out.
 */
export const cluster = <A extends Clusterable>(
  records: ReadonlyArray<A>,
  seeds: ReadonlyArray<{ readonly key: string; readonly keywords: ReadonlyArray<string> }> = []
): ReadonlyArray<Cluster<A> & { readonly seed: string | undefined }> => {
  const groups: Array<{ seed: string | undefined; words: Set<string>; counts: Map<string, number>; members: Array<A> }> = seeds.map((s) => ({
    seed: s.key,
    words: new Set(s.keywords),
    counts: new Map(s.keywords.map((w) => [w, 0])),
    members: []
  }))
  const written = new Map<string, string>()
  // The order words were first seen in: among words as shared, the earlier names the topic.
  const firstSeen = new Map<string, number>()
  for (const record of records) {
    for (const word of keywordsOf(textOf(record))) {
      if (written.has(stemOf(word))) continue
      written.set(stemOf(word), word)
      firstSeen.set(stemOf(word), firstSeen.size)
    }
    const words = wordsOfRecord(record)
    if (words.length === 0) continue
    let best: (typeof groups)[number] | undefined
    let bestScore = 0
    for (const group of groups) {
      const score = shared(group.words, words)
      const enough = score >= Math.min(2, words.length, group.words.size)
      if (enough && score > bestScore) {
        best = group
        bestScore = score
      }
    }
    const group = best ?? { seed: undefined, words: new Set<string>(), counts: new Map<string, number>(), members: [] }
    if (best === undefined) groups.push(group)
    group.members.push(record)
    for (const w of words) {
      group.words.add(w)
      group.counts.set(w, (group.counts.get(w) ?? 0) + 1)
    }
  }
  return groups.filter((g) => g.members.length > 0).map((g) => {
    const keywords = [...g.counts.entries()].toSorted((a, b) => b[1] - a[1] || (firstSeen.get(a[0]) ?? 0) - (firstSeen.get(b[0]) ?? 0)).map(([w]) => w).slice(0, 12)
    return { seed: g.seed, members: g.members, keywords, words: keywords.map((k) => written.get(k) ?? k) }
  })
}

/** A topic's name without a model: its one record's title, else its most shared words, capitalized. */
export const labelOf = (keywords: ReadonlyArray<string>, titles: ReadonlyArray<string> = []): string => {
  if (titles.length === 1) {
    const title = titles[0]!.trim().replace(/[?.!]+$/, "")
    return title.length <= 80 ? title : `${title.slice(0, 79)}…`
  }
  const words = keywords.slice(0, 3)
  if (words.length === 0) return "Other questions"
  const text = words.join(", ")
  return text.charAt(0).toUpperCase() + text.slice(1)
}
