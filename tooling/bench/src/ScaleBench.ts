/**
 * `pnpm bench --scale`: what a large space costs against a small one, on a fresh database of the
 * machine's PostgreSQL, through the use cases (issue 23, "Large spaces at flat cost"):
 * - a one-page commit to a 10,000-page space against the same commit to a 10-page space (median of
 *   `commits` each; goal: within 2x);
 * - the bytes such a commit writes (revision parts and documents), from the tables' sizes.
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Content, documentHash, type PageNode, SpaceContent, Spaces } from "@quire/content"
import { Database } from "@quire/db"
import { Queue, Services } from "@quire/platform"
import * as Seed from "./Seed.ts"

export interface ScaleBenchOptions {
  readonly pages: number
  readonly commits: number
}

const at = new Date().toISOString()
const median = (values: ReadonlyArray<number>) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!
const ms = (value: number) => value.toFixed(1)

/** Page `n` of a space: a short document linking to its neighbour. */
const pageOf = (n: number, text: string): { page: PageNode; hash: string; markdown: string } => {
  const markdown = `${text} ${n}.\n\nSee [the next page](topic-${n + 1}.md).\n`
  const hash = documentHash(markdown)
  return { page: { id: `p${n}`, type: "document", title: `Topic ${n}`, slug: `topic-${n}`, document: hash, createdAt: at, updatedAt: at, pages: [] }, hash, markdown }
}

export const run = (databaseUrl: string, options: ScaleBenchOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const spaces = yield* Spaces
    const content = yield* SpaceContent
    const sql = yield* SqlClient.SqlClient
    const { as, organization: org } = yield* Seed.benchAdmin("scale@bench.test", "quire_bench_scale_token_0123456789", "Scale bench")

    /** A space of `pages` pages in groups of 100, one commit per group as an import writes them. */
    const seeded = Effect.fnUntraced(function*(pages: number) {
      const space = yield* as(spaces.create(org.organization.id, { title: `${pages} pages` }))
      const spaceId = space.space.id
      for (let start = 0; start < pages; start += 100) {
        const documents = new Map<string, string>()
        const children: Array<PageNode> = []
        for (let n = start; n < Math.min(pages, start + 100); n++) {
          const { page, hash, markdown } = pageOf(n, "Seeded page")
          documents.set(hash, markdown)
          children.push(page)
        }
        const group: PageNode = { id: `g${start}`, type: "group", title: `Area ${start / 100}`, slug: `area-${start / 100}`, createdAt: at, updatedAt: at, pages: children }
        yield* as(content.commit(spaceId, (current) => Effect.succeed({ pages: [...current.pages, group], documents })))
      }
      return spaceId
    })

    /** The median of `commits` commits each changing one page's text (a different page each time). */
    const onePageCommits = Effect.fnUntraced(function*(spaceId: string, pages: number) {
      const times: Array<number> = []
      for (let round = 0; round < options.commits; round++) {
        const target = `p${(round * 7919) % pages}`
        const start = performance.now()
        yield* as(content.commit(spaceId, (current) => {
          const documents = new Map<string, string>()
          const edit = (nodes: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> => nodes.map((node) => {
            if (node.id === target) {
              const { hash, markdown } = pageOf(Number(node.id.slice(1)), `Edited in round ${round}`)
              documents.set(hash, markdown)
              return { ...node, document: hash }
            }
            return node.pages.length === 0 ? node : { ...node, pages: edit(node.pages) }
          })
          return Effect.succeed({ pages: edit(current.pages), documents })
        }))
        times.push(performance.now() - start)
      }
      return median(times)
    })

    const tableBytes = sql<{ parts: string; documents: string }>`
      SELECT (pg_total_relation_size('content_revision_parts') + pg_total_relation_size('content_tree_parts'))::text AS parts, pg_total_relation_size('content_documents')::text AS documents`.pipe(
      Effect.map((rows) => ({ parts: Number(rows[0]!.parts), documents: Number(rows[0]!.documents) })),
      Effect.orDie
    )

    yield* progress("scale: seeding a 10-page space")
    const small = yield* seeded(10)
    yield* progress(`scale: seeding a ${options.pages}-page space`)
    const seedStart = performance.now()
    const large = yield* seeded(options.pages)
    const seedSeconds = (performance.now() - seedStart) / 1000
    yield* sql`ANALYZE`.pipe(Effect.orDie)

    // Warm both (revision cache, plans), then measure each.
    yield* onePageCommits(small, 10)
    const smallMs = yield* onePageCommits(small, 10)
    yield* onePageCommits(large, options.pages)
    const before = yield* tableBytes
    const largeMs = yield* onePageCommits(large, options.pages)
    const after = yield* tableBytes
    const ratio = largeMs / smallMs
    const perCommit = (bytes: number) => `${(bytes / options.commits / 1024).toFixed(0)} KB`

    return [
      `Scale on PostgreSQL: a ${options.pages}-page space seeded in ${seedSeconds.toFixed(1)} s (groups of 100 pages, one commit each)`,
      `one-page commit, median of ${options.commits}: 10 pages ${ms(smallMs)} ms, ${options.pages} pages ${ms(largeMs)} ms`,
      `one-page commit to ${options.pages} pages vs 10 pages: ${ratio.toFixed(2)}x (goal <= 2x) ${ratio <= 2 ? "PASS" : "MISS"}`,
      `written per one-page commit to ${options.pages} pages: tree parts ${perCommit(after.parts - before.parts)}, documents ${perCommit(after.documents - before.documents)} (table growth)`
    ].join("\n")
  }).pipe(Effect.provide(
    Layer.mergeAll(Services.layerSql.pipe(Layer.provide(Queue.layerEnqueueOnly)), Content.layerReposSql).pipe(Layer.provideMerge(Database.layerUrl(databaseUrl)))
  ))
