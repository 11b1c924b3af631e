/**
 * `pnpm bench --scale`: what a large space costs against a small one, on a fresh database of the
 * machine's PostgreSQL, through the use cases (issue 23, "Large spaces at flat cost"):
 * - each space written in one commit, as a Git import writes it (`--scale-pages` pages in all,
 *   groups of 99 documents and their group page; at most the pages a revision holds);
 * - a one-page commit to a 10,000-page space against the same commit to a 10-page space (median of
 *   `commits` each, interleaved; goal: within 2x), and the same with a builder that copies every node;
 * - the bytes such a commit writes (revision parts and documents), from the tables' sizes, and the
 *   largest rows stored (against the client's message limit).
 */
import { Session } from "node:inspector/promises"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Content, defaultRevisionLimits, documentHash, type PageNode, partBytes, SpaceContent, Spaces } from "@quire/content"
import { Database } from "@quire/db"
import { Queue, Services } from "@quire/platform"
import * as ProfileSummary from "./ProfileSummary.ts"
import * as Seed from "./Seed.ts"

export interface ScaleBenchOptions {
  readonly pages: number
  readonly commits: number
  /** Where to write a CPU profile of the measured commits to the large space (`--profile`). */
  readonly profileDir?: string | undefined
}

const at = new Date().toISOString()
const median = (values: ReadonlyArray<number>) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!
const ms = (value: number) => value.toFixed(1)

/** Documents of a group; the group is a page too. */
const perGroup = 99

/** The documents of a space of `pages` pages in all, groups included. */
const documentsOf = (pages: number) => pages - Math.ceil(pages / (perGroup + 1))

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

    /** A space of `pages` pages in all, `documentsOf(pages)` of them documents in groups of 99, written in one commit as a Git import writes them. */
    const seeded = Effect.fnUntraced(function*(pages: number) {
      const space = yield* as(spaces.create(org.organization.id, { title: `${pages} pages` }))
      const spaceId = space.space.id
      const count = documentsOf(pages)
      const documents = new Map<string, string>()
      const groups: Array<PageNode> = []
      for (let start = 0; start < count; start += perGroup) {
        const children: Array<PageNode> = []
        for (let n = start; n < Math.min(count, start + perGroup); n++) {
          const { page, hash, markdown } = pageOf(n, "Seeded page")
          documents.set(hash, markdown)
          children.push(page)
        }
        const area = start / perGroup
        groups.push({ id: `g${start}`, type: "group", title: `Area ${area}`, slug: `area-${area}`, createdAt: at, updatedAt: at, pages: children })
      }
      yield* as(content.commit(spaceId, () => Effect.succeed({ pages: groups, documents })))
      return spaceId
    })

    let edits = 0
    /**
     * One commit changing one page's text (a new text each time), in ms. The edit keeps the other
     * pages' objects, as an editor's write does; `copied`: it copies every node, as a change set
     * or a Git import builds the whole tree again.
     */
    const onePageCommit = Effect.fnUntraced(function*(spaceId: string, pages: number, copied = false) {
      const round = edits++
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
          return node.pages.length === 0 && !copied ? node : { ...node, pages: edit(node.pages) }
        })
        return Effect.succeed({ pages: edit(current.pages), documents })
      }))
      return performance.now() - start
    })

    /** Medians of `commits` rounds, each a commit to every space given (interleaved, so the machine's noise falls on all alike). */
    const rounds = Effect.fnUntraced(function*(targets: ReadonlyArray<{ readonly spaceId: string; readonly pages: number; readonly copied?: boolean }>) {
      const times = targets.map(() => [] as Array<number>)
      for (let round = 0; round < options.commits; round++) {
        for (const [i, target] of targets.entries()) times[i]!.push(yield* onePageCommit(target.spaceId, target.pages, target.copied))
      }
      return times.map(median)
    })

    const tableBytes = sql<{ parts: string; documents: string }>`
      SELECT (pg_total_relation_size('content_revision_parts') + pg_total_relation_size('content_tree_parts'))::text AS parts, pg_total_relation_size('content_documents')::text AS documents`.pipe(
      Effect.map((rows) => ({ parts: Number(rows[0]!.parts), documents: Number(rows[0]!.documents) })),
      Effect.orDie
    )

    if (options.pages > defaultRevisionLimits.pages) {
      return yield* Effect.die(new Error(`--scale-pages ${options.pages}: a revision holds at most ${defaultRevisionLimits.pages} pages`))
    }
    yield* progress("scale: seeding a 10-page space")
    const small = yield* seeded(10)
    yield* progress(`scale: seeding a ${options.pages}-page space`)
    const seedStart = performance.now()
    const large = yield* seeded(options.pages)
    const seedSeconds = (performance.now() - seedStart) / 1000
    yield* sql`ANALYZE`.pipe(Effect.orDie)

    // Warm both (revision cache, plans), then measure both, interleaved.
    const targets = [{ spaceId: small, pages: documentsOf(10) }, { spaceId: large, pages: documentsOf(options.pages) }, {
      spaceId: large,
      pages: documentsOf(options.pages),
      copied: true
    }]
    yield* rounds(targets.slice(0, 2))
    const session = options.profileDir === undefined ? undefined : new Session()
    if (session !== undefined) {
      session.connect()
      yield* Effect.promise(() => session.post("Profiler.enable").then(() => session.post("Profiler.setSamplingInterval", { interval: 200 })).then(() => session.post("Profiler.start")))
    }
    const [smallMs, largeMs, copiedMs] = (yield* rounds(targets)) as [number, number, number]
    let profiled = ""
    if (session !== undefined && options.profileDir !== undefined) {
      const file = join(options.profileDir, `scale-${options.pages}.cpuprofile`)
      const { profile } = yield* Effect.promise(() => session.post("Profiler.stop"))
      yield* Effect.promise(() => writeFile(file, JSON.stringify(profile)))
      session.disconnect()
      const summary = yield* Effect.promise(() => ProfileSummary.summarize(file, (smallMs + largeMs + copiedMs) * 1000))
      profiled = `\nCPU profile of the measured rounds (a commit to each space; ${file}):\n${summary}`
    }
    // What one commit writes, from the tables' growth over commits to the large space alone.
    const before = yield* tableBytes
    yield* rounds(targets.slice(1, 2))
    const after = yield* tableBytes
    const largest = yield* sql<{ part: number | null; parts: number; document: number | null }>`
      SELECT (SELECT max(octet_length(body)) FROM content_tree_parts)::int AS part,
        (SELECT max(parts) FROM content_revisions)::int AS parts,
        (SELECT max(octet_length(markdown)) FROM content_documents)::int AS document`.pipe(Effect.orDie)
    const ratio = largeMs / smallMs
    const perCommit = (bytes: number) => `${(bytes / options.commits / 1024).toFixed(0)} KB`

    const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`
    // Issue 23: no row near the client's message limit; "near" taken as within 16x of it (1 MiB).
    const rowGoal = Database.clientMaxMessageBytes / 16
    const largestRow = Math.max(largest[0]?.part ?? 0, largest[0]?.document ?? 0)
    return [
      `Scale on PostgreSQL: a ${options.pages}-page space seeded in ${seedSeconds.toFixed(1)} s (one commit, as a Git import; groups of ${perGroup} documents)`,
      `one-page commit, median of ${options.commits} (interleaved): 10 pages ${ms(smallMs)} ms, ${options.pages} pages ${ms(largeMs)} ms, ` +
      `${options.pages} pages with every node copied ${ms(copiedMs)} ms`,
      `one-page commit to ${options.pages} pages vs 10 pages: ${ratio.toFixed(2)}x (goal <= 2x) ${ratio <= 2 ? "PASS" : "MISS"}; ` +
      `with every node copied ${(copiedMs / smallMs).toFixed(2)}x`,
      `written per one-page commit to ${options.pages} pages: tree parts ${perCommit(after.parts - before.parts)}, documents ${perCommit(after.documents - before.documents)} (table growth)`,
      `largest rows: a tree part ${kb(largest[0]?.part ?? 0)} (bound ${kb(partBytes)}), a document ${kb(largest[0]?.document ?? 0)}; ` +
      `most parts of one revision ${largest[0]?.parts ?? 0} (its part list, one statement, ~${kb((largest[0]?.parts ?? 0) * 60)}); ` +
      `largest row ${kb(largestRow)} (goal < ${kb(rowGoal)}, a 16th of the client's message limit) ${largestRow < rowGoal ? "PASS" : "MISS"}`
    ].join("\n") + profiled
  }).pipe(Effect.provide(
    Layer.mergeAll(Services.layerSql.pipe(Layer.provide(Queue.layerEnqueueOnly)), Content.layerReposSql).pipe(Layer.provideMerge(Database.layerUrl(databaseUrl)))
  ))
