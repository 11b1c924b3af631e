/**
 * `pnpm bench --search`: full-text search and its upkeep on a fresh database of the machine's
 * PostgreSQL. Seeds 10,000 pages (`--search-pages`) of generated markdown (English function words
 * plus a Zipf-distributed vocabulary, headings, links between pages) through the use cases, in
 * commits of 100 groups per space; more than `pagesPerSpace` pages are spread over several spaces
 * of the organization, as a large team keeps them, seeded two at a time (100,000 pages: 4 spaces
 * of 25,000, about 5 minutes), and searched together. Then it measures, through the use cases:
 * - search latency (p50/p95/p99) over a few hundred varied queries (frequent, mid-frequency and
 *   rare words, two-word queries, phrases): of the space, or, over several spaces, of the
 *   organization (every page); goal: p95 under 30 ms;
 * - the cost of commits that change 1, 10 and 100 pages, and of their index update alone, to
 *   show that it grows with the pages changed, not with the space;
 * - the link graph of the revision, built cold and served from cache.
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { ContentLayers, ContentLinks, documentHash, indexUpdate, type PageNode, RevisionsRepo, Search, SearchIndex, SpaceContent, Spaces } from "@quire/content"
import { Database } from "@quire/db"
import { CollabStoredMarkdown } from "@quire/live"
import { Queue, Services } from "@quire/platform"
import * as Seed from "./Seed.ts"

export interface SearchBenchOptions {
  readonly pages: number
  readonly queries: number
}


const functionWords = "the of and to a in is it that for on with as are be this by or from at an can you your not".split(" ")
const onsets = ["b", "c", "d", "f", "g", "gr", "k", "l", "m", "n", "p", "pl", "r", "s", "st", "t", "tr", "v", "z"]
const vowels = ["a", "e", "i", "o", "u", "ai", "ou"]
const codas = ["", "n", "r", "l", "x", "m", "nt", "sk"]

/** 6,000 distinct made-up content words, the first ones most frequent. */
const vocabulary = (() => {
  const next = Seed.random(7)
  const pick = <A>(list: ReadonlyArray<A>) => list[Math.floor(next() * list.length)]!
  const words = new Set<string>()
  while (words.size < 6_000) {
    const syllables = 2 + Math.floor(next() * 2)
    let word = ""
    for (let i = 0; i < syllables; i++) word += pick(onsets) + pick(vowels)
    words.add(word + pick(codas))
  }
  return Array.from(words)
})()

/** A Zipf (s = 1) sampler over the vocabulary. */
const zipf = (next: () => number) => {
  const weights = vocabulary.map((_, i) => 1 / (i + 1))
  const total = weights.reduce((a, b) => a + b, 0)
  const cumulative: Array<number> = []
  let sum = 0
  for (const w of weights) cumulative.push((sum += w / total))
  return () => {
    const x = next()
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid]! < x) lo = mid + 1
      else hi = mid
    }
    return vocabulary[lo]!
  }
}

const groups = 100
/** Pages per space when there are more: an organization's search spans its spaces. */
const pagesPerSpace = 25_000
const p95Goal = 30

const pagePath = (n: number, perGroup: number) => ({ group: `area-${Math.floor(n / perGroup)}`, slug: `topic-${n % perGroup}` })

/** The markdown of page `n`: a lead paragraph, 3 to 6 sections, links to other pages, sometimes code. */
const markdownOf = (n: number, total: number, word: () => string, next: () => number): { title: string; markdown: string } => {
  const perGroup = Math.ceil(total / groups)
  const sentence = () => {
    const length = 8 + Math.floor(next() * 14)
    const words: Array<string> = []
    for (let i = 0; i < length; i++) words.push(next() < 0.45 ? functionWords[Math.floor(next() * functionWords.length)]! : word())
    const text = words.join(" ")
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`
  }
  const paragraph = () => Array.from({ length: 2 + Math.floor(next() * 4) }, sentence).join(" ")
  const title = `${word()} ${word()}`.replace(/^./, (c) => c.toUpperCase())
  const parts = [paragraph()]
  const sections = 3 + Math.floor(next() * 4)
  for (let s = 0; s < sections; s++) {
    parts.push(`## ${word()} ${word()}`.replace(/## ./, (c) => c.toUpperCase()), paragraph())
    if (next() < 0.5) {
      const target = pagePath(Math.floor(next() * total), perGroup)
      parts.push(`See [${word()}](../${target.group}/${target.slug}.md) and [the reference](https://example.com/${word()}).`)
    }
    if (next() < 0.2) parts.push(`\`\`\`bash\n${word()} --${word()} ${word()}\n\`\`\``)
  }
  return { title, markdown: `${parts.join("\n\n")}\n` }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
const ms = (n: number) => n.toFixed(1)
const median = (values: ReadonlyArray<number>) => percentile(values.toSorted((a, b) => a - b), 50)

const timed = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = performance.now()
    const value = yield* self
    return { value, ms: performance.now() - start }
  })

/** `count` queries, a mix of what people type, and the kinds they are of. */
const queryMix = (count: number) => {
  const queryNext = Seed.random(99)
  const band = (from: number, to: number) => vocabulary[from + Math.floor(queryNext() * (to - from))]!
  const kinds = [
    { name: "frequent word (rank 1-30)", make: () => band(0, 30) },
    { name: "mid-frequency word (rank 30-1000)", make: () => band(30, 1_000) },
    { name: "rare word (rank 1000-6000)", make: () => band(1_000, 6_000) },
    { name: "two words", make: () => `${band(0, 1_000)} ${band(0, 1_000)}` },
    { name: "phrase / or / -word", make: () => queryNext() < 0.5 ? `"${band(0, 300)} ${band(0, 300)}"` : `${band(0, 500)} or ${band(0, 500)} -${band(0, 100)}` }
  ] as const
  const queries = Array.from({ length: count }, (_, i) => {
    const kind = kinds[i % kinds.length]!
    return { kind: kind.name, text: kind.make() }
  })
  return { kinds, queries }
}

/** The latency table: percentiles over all queries, then over each kind. */
const latencyTable = (
  samples: ReadonlyArray<{ kind: string; ms: number; results: number }>,
  kinds: ReadonlyArray<{ readonly name: string }>
): ReadonlyArray<string> => {
  const header = ["queries", "n", "p50 ms", "p95 ms", "p99 ms", "max ms", "avg results"]
  const table: Array<Array<string>> = []
  const row = (name: string, list: ReadonlyArray<{ ms: number; results: number }>) => {
    const sorted = list.map((s) => s.ms).toSorted((a, b) => a - b)
    table.push([
      name,
      String(list.length),
      ms(percentile(sorted, 50)),
      ms(percentile(sorted, 95)),
      ms(percentile(sorted, 99)),
      ms(sorted.at(-1)!),
      (list.reduce((a, s) => a + s.results, 0) / list.length).toFixed(1)
    ])
  }
  row("all", samples)
  for (const kind of kinds) row(kind.name, samples.filter((s) => s.kind === kind.name))
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
  return ["", line(header), widths.map((w) => "-".repeat(w)).join("  "), ...table.map(line)]
}

export const run = (databaseUrl: string, options: SearchBenchOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const spaces = yield* Spaces
    const content = yield* SpaceContent
    const search = yield* Search
    const links = yield* ContentLinks
    const revisions = yield* RevisionsRepo
    const searchIndex = yield* SearchIndex
    const { as, organization: org } = yield* Seed.benchAdmin("search@bench.test", "quire_bench_search_token_0123456789", "Search bench")
    const spaceCount = Math.ceil(options.pages / pagesPerSpace)
    // The pages of each space (the upkeep and links figures use the first).
    const spacePages = Math.ceil(options.pages / spaceCount)

    // Seeding: one commit per group of pages, as an import would do; spaces two at a time.
    const next = Seed.random(42)
    const word = zipf(next)
    const perGroup = Math.ceil(spacePages / groups)
    const at = new Date().toISOString()
    let made = 0
    const seedStart = performance.now()
    const seedSpace = Effect.fnUntraced(function*(s: number) {
      const spaceId = (yield* as(spaces.create(org.organization.id, { title: `Pages ${s * spacePages} to ${(s + 1) * spacePages - 1}` }))).space.id
      const spaceNext = Seed.random(42 + s)
      const spaceWord = zipf(spaceNext)
      let n = 0
      for (let g = 0; g < groups && n < spacePages; g++) {
        const documents = new Map<string, string>()
        const children: Array<PageNode> = []
        for (let i = 0; i < perGroup && n < spacePages; i++, n++) {
          const { markdown, title } = markdownOf(n, spacePages, spaceWord, spaceNext)
          const hash = documentHash(markdown)
          documents.set(hash, markdown)
          children.push({ id: `p${n}`, type: "document", title, slug: `topic-${i}`, document: hash, createdAt: at, updatedAt: at, pages: [] })
        }
        const group: PageNode = { id: `g${g}`, type: "group", title: `Area ${g}`, slug: `area-${g}`, createdAt: at, updatedAt: at, pages: children }
        yield* as(content.commit(spaceId, (current) => Effect.succeed({ pages: [...current.pages, group], documents })))
        made += children.length
        if ((g + 1) % 20 === 0) yield* progress(`seeded ${made} pages`)
      }
      return spaceId
    })
    const spaceIds = yield* Effect.forEach(Array.from({ length: spaceCount }, (_, s) => s), seedSpace, { concurrency: 2 })
    const spaceId = spaceIds[0]!
    const seedSeconds = (performance.now() - seedStart) / 1000
    const searched = spaceCount === 1 ? "the space" : `the organization (${spaceCount} spaces of ${spacePages} pages)`
    const query = (text: string, limit?: number) =>
      spaceCount === 1
        ? Effect.map(as(search.space(spaceId, { query: text, limit })), (page) => page.items.length)
        : Effect.map(as(search.organization(org.organization.id, { query: text, limit })), (page) => page.items.reduce((n, s) => n + s.pages.length, 0))
    const sql = yield* SqlClient.SqlClient
    yield* sql`ANALYZE`.pipe(Effect.orDie)
    const [stats] = yield* sql<{ rows: number; size: string; titles: string }>`
      SELECT count(*)::int AS rows, pg_size_pretty(pg_total_relation_size('content_search_sections')) AS size,
        pg_size_pretty(pg_total_relation_size('content_search_titles')) AS titles
      FROM content_search_sections`.pipe(Effect.orDie)

    // Queries: a mix of what people type.
    const { kinds, queries } = queryMix(options.queries)
    // Warm-up: caches and plans.
    for (const q of queries.slice(0, 20)) yield* query(q.text)
    const samples: Array<{ kind: string; ms: number; results: number }> = []
    for (const q of queries) {
      const { ms: took, value } = yield* timed(query(q.text, 20))
      samples.push({ kind: q.kind, ms: took, results: value })
    }

    // Upkeep: commits that change 1, 10, 100 pages (new text for each), 5 times each.
    const upkeep: Array<{ changed: number; commit: number; index: number; prepare: number; write: number }> = []
    let round = 0
    for (const changed of [1, 10, 100]) {
      const commits: Array<number> = []
      const indexing: Array<number> = []
      const prepares: Array<number> = []
      const writes: Array<number> = []
      for (let r = 0; r < 5; r++, round++) {
        const targets = new Set(Array.from({ length: changed }, (_, i) => `p${(round * 997 + i * 89) % spacePages}`))
        const edit = (current: { readonly pages: ReadonlyArray<PageNode> }) => {
          const documents = new Map<string, string>()
          const pages = current.pages.map((group) => ({
            ...group,
            pages: group.pages.map((page) => {
              if (!targets.has(page.id)) return page
              const markdown = markdownOf(Number(page.id.slice(1)) + round, spacePages, word, next).markdown
              const hash = documentHash(markdown)
              documents.set(hash, markdown)
              return { ...page, document: hash }
            })
          }))
          return { pages, documents }
        }
        // The index update alone, on a revision that is not committed (parse the changed pages, replace their rows).
        const current = yield* as(content.revision(spaceId))
        const change = edit(current.revision)
        const candidate = { ...current.revision, id: `bench-${round}`, parents: [current.revision.id], pages: change.pages }
        const prepared = yield* timed(indexUpdate(revisions, current.revision, candidate, change.documents))
        const written = yield* timed(searchIndex.update(spaceId, prepared.value.pages, prepared.value.removed))
        prepares.push(prepared.ms)
        writes.push(written.ms)
        indexing.push(prepared.ms + written.ms)
        const committed = yield* timed(as(content.commit(spaceId, (parent) => Effect.succeed(edit(parent)))))
        commits.push(committed.ms)
      }
      upkeep.push({ changed, commit: median(commits), index: median(indexing), prepare: median(prepares), write: median(writes) })
    }

    // Links: the graph of the current 10,000-page revision, cold then cached.
    const base = "http://quire.bench"
    const cold = yield* timed(as(links.spaceLinks(spaceId, { appBaseUrl: base, limit: 50 })))
    const warm = yield* timed(as(links.spaceLinks(spaceId, { appBaseUrl: base, limit: 50 })))
    // After a 1-page commit, only that page's document is parsed again.
    yield* as(content.commit(spaceId, (parent) => {
      const [first, ...rest] = parent.pages
      const [page, ...others] = first!.pages
      const markdown = `Changed page.\n\nSee [x](topic-2.md).\n`
      return Effect.succeed({
        pages: [{ ...first!, pages: [{ ...page!, document: documentHash(markdown) }, ...others] }, ...rest],
        documents: new Map([[documentHash(markdown), markdown]])
      })
    }))
    const incremental = yield* timed(as(links.spaceLinks(spaceId, { appBaseUrl: base, limit: 50 })))

    const lines: Array<string> = []
    lines.push(`Search on PostgreSQL: ${made} pages seeded in ${seedSeconds.toFixed(1)} s; index ${stats?.rows} section rows, ${stats?.size}, page titles ${stats?.titles}; queries search ${searched}`)
    const all = samples.map((s) => s.ms).toSorted((a, b) => a - b)
    lines.push(...latencyTable(samples, kinds))
    const p95 = percentile(all, 95)
    lines.push(``, `search at ${made} pages: p95 over all queries ${ms(p95)} ms (goal < ${p95Goal} ms) ${p95 < p95Goal ? "PASS" : "MISS"}`)
    lines.push("", "Index upkeep (median of 5 commits each):", "pages changed  commit ms  index update ms  (parse + read docs ms, replace rows ms)")
    for (const u of upkeep) {
      lines.push(`${String(u.changed).padStart(13)}  ${ms(u.commit).padStart(9)}  ${ms(u.index).padStart(15)}  (${ms(u.prepare)}, ${ms(u.write)})`)
    }
    lines.push("", `Links of the ${spacePages}-page revision: cold ${ms(cold.ms)} ms (${cold.value.list.stats.total} targets, ` +
      `${cold.value.list.stats.broken} broken), cached ${ms(warm.ms)} ms, after a 1-page commit ${ms(incremental.ms)} ms`)
    lines.push(`cold links listing of the ${spacePages}-page revision: ${ms(cold.ms)} ms (goal < 200 ms) ${cold.ms < 200 ? "PASS" : "MISS"}`)
    return lines.join("\n")
  }).pipe(Effect.provide(
    // The ports too, to time the index update apart from the commit.
    Layer.mergeAll(Services.layerSql.pipe(Layer.provide([Queue.layerEnqueueOnly, CollabStoredMarkdown.layer])), ContentLayers.layerReposSql).pipe(Layer.provideMerge(Database.layerUrl(databaseUrl)))
  ))
