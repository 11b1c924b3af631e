/**
 * `pnpm bench --scale`: what a large space costs against a small one, on a fresh database of the
 * machine's PostgreSQL, through the use cases. Each space is written in one commit, as a Git import
 * writes it (pages with a description and their file's path; groups of 99 documents). Prints each
 * goal with PASS or MISS:
 * - a one-page commit to a `pages`-page space against the same commit to a 10-page space, side by
 *   side (median of `commits` each, interleaved, wall and this process's CPU; goal: within 2x), and
 *   the same with a builder that copies every node (a change set, a Git import);
 * - the cold links listing of a `linksPages`-page space whose pages link to each other and out
 *   (a new link graph service, the revision already read: the graph stored when it was first built
 *   read back; goal: under 200 ms), and the same with no graph stored (built from the recorded links);
 * - what a one-page commit writes (one tree part, a part list or two, a short revision row), the
 *   largest rows and statement parameters against the client's message limit, and the large
 *   revision read back from the tables.
 * `smokeOptions` runs every step at a size `pnpm bench --smoke` affords.
 */
import { Session } from "node:inspector/promises"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect, Layer, Option } from "effect"
import { SqlClient, Statement } from "effect/sql"
import { ContentLayers, ContentLinks, defaultRevisionLimits, documentHash, flattenPages, type PageNode, partBytes, RevisionsRepo, SpaceContent, Spaces } from "@quire/content"
import { Database } from "@quire/db"
import type { Actor } from "@quire/kernel"
import { CollabStoredMarkdown } from "@quire/live"
import { Queue, Services } from "@quire/platform"
import * as ProfileSummary from "./ProfileSummary.ts"
import * as Seed from "./Seed.ts"

export interface ScaleBenchOptions {
  /** Pages of the large space (at most a revision's pages). */
  readonly pages: number
  /** Pages of the space whose links are listed. */
  readonly linksPages: number
  readonly commits: number
  /** Where to write a CPU profile of the measured commits (`--profile`). */
  readonly profileDir?: string | undefined
}

/** The goals' sizes. */
export const defaultOptions: ScaleBenchOptions = { pages: defaultRevisionLimits.pages, linksPages: 10_000, commits: 15 }

/** Every step, at sizes a smoke run affords (a few seconds). */
export const smokeOptions: ScaleBenchOptions = { pages: 400, linksPages: 200, commits: 3 }

const commitGoal = 2
const linksGoalMs = 200
/** Cold listings measured, each with a link graph service of its own. */
const coldListings = 5

const at = new Date().toISOString()
const median = (values: ReadonlyArray<number>) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!
const ms = (value: number) => value.toFixed(1)
const verdict = (pass: boolean) => (pass ? "PASS" : "MISS")
const cpuMs = () => {
  const used = process.cpuUsage()
  return (used.user + used.system) / 1000
}

/** Documents of a group; the group is a page too. */
const perGroup = 99

/** The documents of a space of `pages` pages in all, groups included. */
const documentsOf = (pages: number) => pages - Math.ceil(pages / (perGroup + 1))

/** Pages share their markdown every `distinct` pages, as templated pages do: the seeding parses each once. */
const distinct = 20_000

const markdownOf = (n: number, text: string) => `# Topic ${n}\n\n${text} See [the next topic](topic-${n + 1}.md).\n`

/** Page `n` of group `a` as a Git import makes it: a title, a slug, a description and the file it came from. */
const pageOf = (a: number, n: number, markdown: string): PageNode => ({
  id: `p${n}`,
  type: "document",
  title: `Configuring the authentication provider, topic ${n}`,
  slug: `topic-${n}`,
  description: "How to set this up, what each setting does, and what to check when it fails.",
  document: documentHash(markdown),
  git: { oid: n.toString(16).padStart(40, "0"), path: `docs/area-${a}/topic-${n}.md` },
  createdAt: at,
  updatedAt: at,
  pages: []
})

/** `pages` pages in groups of `perGroup` documents, built by `page` (which records its markdown). */
const groupsOf = (pages: number, page: (a: number, n: number, i: number) => PageNode): Array<PageNode> => {
  const count = documentsOf(pages)
  const groups: Array<PageNode> = []
  for (let start = 0, a = 0; start < count; start += perGroup, a++) {
    const children: Array<PageNode> = []
    for (let n = start; n < Math.min(count, start + perGroup); n++) children.push(page(a, n, n - start))
    groups.push({ id: `g${a}`, type: "group", title: `Area ${a}`, slug: `area-${a}`, createdAt: at, updatedAt: at, pages: children })
  }
  return groups
}

/** A page of the links space: 3 to 6 sections, about one in two linking to another page and out (as `--search` writes them). */
const linkedMarkdown = (n: number, pages: number, next: () => number) => {
  const parts = [`Lead paragraph of topic ${n}.`]
  const sections = 3 + Math.floor(next() * 4)
  for (let s = 0; s < sections; s++) {
    parts.push(`## Section ${s}`, `What section ${s} of topic ${n} says.`)
    if (next() < 0.5) {
      const target = Math.floor(next() * documentsOf(pages))
      parts.push(`See [topic ${target}](../area-${Math.floor(target / perGroup)}/topic-${target}.md) and ` +
        `[the reference](https://example.com/reference/${Math.floor(next() * 3_000)}).`)
    }
  }
  return `${parts.join("\n\n")}\n`
}

/** UTF-8 bytes of a statement parameter as sent (an array: its elements). */
const paramBytes = (param: unknown): number =>
  typeof param === "string"
    ? Buffer.byteLength(param)
    : Array.isArray(param)
    ? param.reduce((sum: number, item) => sum + paramBytes(item) + 1, 2)
    : param instanceof Uint8Array
    ? param.byteLength
    : param === null || param === undefined
    ? 0
    : Buffer.byteLength(String(param))

/** Every statement `self` runs, measured into `largest`: its largest parameter and its largest statement (text and parameters). */
const measured = <A, E, R>(self: Effect.Effect<A, E, R>, largest: { param: number; statement: number }) => {
  const transformer: Statement.Transformer = (statement) =>
    Effect.sync(() => {
      const [text, params] = statement.compile()
      const sizes = params.map(paramBytes)
      largest.param = Math.max(largest.param, ...sizes)
      largest.statement = Math.max(largest.statement, sizes.reduce((sum, size) => sum + size, Buffer.byteLength(text)))
      return statement
    })
  return Effect.provideService(self, Statement.CurrentTransformer, transformer)
}

export const run = (databaseUrl: string, options: ScaleBenchOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const spaces = yield* Spaces
    const content = yield* SpaceContent
    const sql = yield* SqlClient.SqlClient
    const { as, organization: org } = yield* Seed.benchAdmin("scale@bench.test", "quire_bench_scale_token_0123456789", "Scale bench")
    if (options.pages > defaultRevisionLimits.pages) {
      return yield* Effect.die(new Error(`--scale-pages ${options.pages}: a revision holds at most ${defaultRevisionLimits.pages} pages`))
    }
    const largest = { param: 0, statement: 0 }

    /** A space of `pages` pages in all, written in one commit as a Git import writes them. */
    const seeded = Effect.fnUntraced(function*(pages: number, title: string, markdown: (n: number) => string) {
      const space = yield* as(spaces.create(org.organization.id, { title }))
      const documents = new Map<string, string>()
      const groups = groupsOf(pages, (a, n) => {
        const text = markdown(n)
        documents.set(documentHash(text), text)
        return pageOf(a, n, text)
      })
      yield* measured(as(content.commit(space.space.id, () => Effect.succeed({ pages: groups, documents }))), largest)
      return space.space.id
    })

    yield* progress("scale: seeding a 10-page space")
    const small = yield* seeded(10, "10 pages", (n) => markdownOf(n, "Seeded page"))
    yield* progress(`scale: seeding a ${options.linksPages}-page space of links`)
    const next = Seed.random(42)
    const linked = yield* seeded(options.linksPages, "Links", (n) => linkedMarkdown(n, options.linksPages, next))
    yield* progress(`scale: seeding a ${options.pages}-page space`)
    const seedStart = performance.now()
    const large = yield* seeded(options.pages, `${options.pages} pages`, (n) => markdownOf(n % distinct, "Imported from Git."))
    const seedSeconds = (performance.now() - seedStart) / 1000
    yield* sql`ANALYZE`.pipe(Effect.orDie)

    const links = yield* coldLinks(linked, as, options.profileDir)
    const commits = yield* commitRounds(small, large, options, as, largest)
    // After the commits, so that its garbage does not fall on them.
    const built = yield* builtLinks(linked, as)
    const stored = yield* storedRows(large, options.pages, as, largest)

    const ratio = commits.largeMs / commits.smallMs
    return [
      `Scale on PostgreSQL: a ${options.pages}-page space seeded in ${seedSeconds.toFixed(1)} s (one commit, as a Git import; groups of ${perGroup} documents)`,
      "",
      `one-page commit, median of ${options.commits} (interleaved):       10 pages   ${options.pages} pages   ratio`,
      `  wall ms                                        ${ms(commits.smallMs).padStart(9)}  ${ms(commits.largeMs).padStart(9)}   ${ratio.toFixed(2)}x`,
      `  CPU ms of this process                         ${ms(commits.smallCpu).padStart(9)}  ${ms(commits.largeCpu).padStart(9)}   ${(commits.largeCpu / commits.smallCpu).toFixed(2)}x`,
      `  ${options.pages} pages, every node copied (a change set)  ${ms(commits.copiedMs).padStart(9)} ms wall, ${(commits.copiedMs / commits.smallMs).toFixed(2)}x`,
      `one-page commit to ${options.pages} pages vs 10 pages: ${ratio.toFixed(2)}x (goal <= ${commitGoal}x) ${verdict(ratio <= commitGoal)}`,
      "",
      `links of the ${options.linksPages}-page space (${links.targets} targets, ${links.broken} broken): first listing in this process ${ms(links.firstMs)} ms; ` +
      `cold, median of ${coldListings} (a new link graph service each; CPU ${ms(links.cpuMs)} ms) ${ms(links.coldMs)} ms; cached ${ms(links.cachedMs)} ms`,
      `  cold with no graph stored (built from the recorded links, then stored), median of ${coldListings}: ${ms(built.ms)} ms (CPU ${ms(built.cpu)} ms)`,
      `cold links listing of the ${options.linksPages}-page space: ${ms(links.coldMs)} ms (goal < ${linksGoalMs} ms) ${verdict(links.coldMs < linksGoalMs)}`,
      "",
      ...stored
    ].join("\n") + links.profiled + commits.profiled
  }).pipe(Effect.provide(
    Layer.mergeAll(Services.layerSql.pipe(Layer.provide([Queue.layerEnqueueOnly, CollabStoredMarkdown.layer])), ContentLayers.layerReposSql).pipe(Layer.provideMerge(Database.layerUrl(databaseUrl)))
  ))

type As = <A, E>(self: Effect.Effect<A, E, Actor.Actor>) => Effect.Effect<A, E>

/** A CPU profile of this process started when `--profile` gave a directory. */
const startProfile = async (profileDir: string | undefined): Promise<Session | undefined> => {
  if (profileDir === undefined) return undefined
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.setSamplingInterval", { interval: 200 })
  await session.post("Profiler.start")
  return session
}

/** Stops `session`'s profile, writes it as `<name>.cpuprofile` and summarizes it per `perMicros` of work; "" without a profile. */
const stopProfile = async (session: Session | undefined, profileDir: string | undefined, name: string, perMicros: number, what: string): Promise<string> => {
  if (session === undefined || profileDir === undefined) return ""
  const file = join(profileDir, `${name}.cpuprofile`)
  const { profile } = await session.post("Profiler.stop")
  await writeFile(file, JSON.stringify(profile))
  session.disconnect()
  return `\nCPU profile of ${what} (${file}):\n${await ProfileSummary.summarize(file, perMicros)}`
}

/**
 * The links listing of the space: the first in this process, then `coldListings` more, each with a
 * link graph service of its own (nothing of the graph kept in the process; the revision read
 * already), then one served from the graph cache.
 */
const coldLinks = Effect.fnUntraced(function*(spaceId: string, as: As, profileDir: string | undefined) {
  const request = { appBaseUrl: "http://quire.bench", limit: 50 }
  const listing = Effect.gen(function*() {
    const links = yield* ContentLinks
    const cpu = cpuMs()
    const start = performance.now()
    const found = yield* as(links.spaceLinks(spaceId, request))
    return { ms: performance.now() - start, cpu: cpuMs() - cpu, stats: found.list.stats }
  })
  const first = yield* listing
  const cold: Array<{ ms: number; cpu: number }> = []
  const profiler = yield* Effect.promise(() => startProfile(profileDir))
  for (let i = 0; i < coldListings; i++) cold.push(yield* listing.pipe(Effect.provide(ContentLinks.layer, { local: true })))
  const profiled = yield* Effect.promise(() => stopProfile(profiler, profileDir, "scale-links", median(cold.map((c) => c.cpu)) * 1000, "the cold listings"))
  const cached = yield* listing
  return {
    targets: first.stats.total,
    broken: first.stats.broken,
    firstMs: first.ms,
    coldMs: median(cold.map((c) => c.ms)),
    cpuMs: median(cold.map((c) => c.cpu)),
    cachedMs: cached.ms,
    profiled
  }
})

/** Cold listings of the space with its stored graphs removed first: the graph built from the recorded links and stored again. */
const builtLinks = Effect.fnUntraced(function*(spaceId: string, as: As) {
  const sql = yield* SqlClient.SqlClient
  const request = { appBaseUrl: "http://quire.bench", limit: 50 }
  const built: Array<{ ms: number; cpu: number }> = []
  for (let i = 0; i < coldListings; i++) {
    yield* sql`DELETE FROM content_link_graphs WHERE space_id = ${spaceId}`.pipe(Effect.orDie)
    built.push(yield* Effect.gen(function*() {
      const links = yield* ContentLinks
      const cpu = cpuMs()
      const start = performance.now()
      yield* as(links.spaceLinks(spaceId, request))
      return { ms: performance.now() - start, cpu: cpuMs() - cpu }
    }).pipe(Effect.provide(ContentLinks.layer, { local: true })))
  }
  return { ms: median(built.map((c) => c.ms)), cpu: median(built.map((c) => c.cpu)) }
})

/**
 * One-page commits to the small and the large space, interleaved so that the machine's noise falls
 * on both alike, after a warm-up round: medians of wall and CPU time. The edit copies the path to
 * the page and keeps every other page's object, as an editor's write does (it walked and copied
 * every group before, which timed the bench's own walk of the tree); `copied` copies every node, as
 * a change set does.
 */
const commitRounds = Effect.fnUntraced(function*(
  small: string,
  large: string,
  options: ScaleBenchOptions,
  as: As,
  largest: { param: number; statement: number }
) {
  const content = yield* SpaceContent
  let edits = 0
  const onePageCommit = Effect.fnUntraced(function*(spaceId: string, pages: number, copied: boolean) {
    const round = edits++
    const target = `p${(round * 7919) % documentsOf(pages)}`
    const cpu = cpuMs()
    const start = performance.now()
    yield* measured(as(content.commit(spaceId, (current) => {
      const documents = new Map<string, string>()
      const edit = (nodes: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> =>
        nodes.map((node) => {
          if (node.id === target) {
            const markdown = markdownOf(Number(node.id.slice(1)), `Edited in round ${round}`)
            documents.set(documentHash(markdown), markdown)
            return { ...node, document: documentHash(markdown) }
          }
          return node.pages.length === 0 && !copied ? node : { ...node, pages: edit(node.pages) }
        })
      if (copied) return Effect.succeed({ pages: edit(current.pages), documents })
      // The page's group (`groupsOf` puts page n in group n / perGroup) is the only node copied on the way.
      const group = `g${Math.floor(Number(target.slice(1)) / perGroup)}`
      return Effect.succeed({ pages: current.pages.map((node) => node.id === group ? { ...node, pages: edit(node.pages) } : node), documents })
    })), largest)
    return { ms: performance.now() - start, cpu: cpuMs() - cpu }
  })
  const targets = [{ spaceId: small, pages: 10, copied: false }, { spaceId: large, pages: options.pages, copied: false }, {
    spaceId: large,
    pages: options.pages,
    copied: true
  }]
  const rounds = Effect.fnUntraced(function*(count: number) {
    const times = targets.map(() => [] as Array<{ ms: number; cpu: number }>)
    for (let round = 0; round < count; round++) {
      for (const [i, target] of targets.entries()) times[i]!.push(yield* onePageCommit(target.spaceId, target.pages, target.copied))
    }
    return times.map((list) => ({ ms: median(list.map((t) => t.ms)), cpu: median(list.map((t) => t.cpu)) }))
  })
  // Warm both (revision cache, layouts, plans), then measure.
  yield* rounds(2)
  const profiler = yield* Effect.promise(() => startProfile(options.profileDir))
  const [smallRun, largeRun, copiedRun] = (yield* rounds(options.commits)) as [{ ms: number; cpu: number }, { ms: number; cpu: number }, { ms: number; cpu: number }]
  const profiled = yield* Effect.promise(() =>
    stopProfile(profiler, options.profileDir, `scale-${options.pages}`, (smallRun.ms + largeRun.ms + copiedRun.ms) * 1000, "the measured rounds (a commit to each space)")
  )
  return {
    smallMs: smallRun.ms,
    smallCpu: smallRun.cpu,
    largeMs: largeRun.ms,
    largeCpu: largeRun.cpu,
    copiedMs: copiedRun.ms,
    profiled
  }
})

/** Rows and statements a row may take: well under the client's 16 MiB message (a 16th), and a statement an 8th. */
const rowBound = Database.clientMaxMessageBytes / 16
const statementBound = Database.clientMaxMessageBytes / 8

/** Part lists a one-page commit writes: the one holding the changed part, two if the change moved a cut between lists. */
const partListsGoal = 2

/**
 * What the large space's writes stored: the tree parts a one-page commit adds, the largest row of
 * each table and the largest statement against the client's message limit, and the revision read
 * back from the tables (not the cache), which must hold every page.
 */
const storedRows = Effect.fnUntraced(function*(spaceId: string, pages: number, as: As, largest: { param: number; statement: number }) {
  const sql = yield* SqlClient.SqlClient
  const content = yield* SpaceContent
  const partsOf = sql<{ n: number; lists: number }>`
    SELECT (SELECT count(*)::int FROM content_tree_parts WHERE space_id = ${spaceId}) AS n,
      (SELECT count(*)::int FROM content_tree_part_lists WHERE space_id = ${spaceId}) AS lists`.pipe(Effect.orDie)
  const sizes = sql<{ revisions: string; documents: string }>`
    SELECT (pg_total_relation_size('content_revisions') + pg_total_relation_size('content_revision_parts') + pg_total_relation_size('content_tree_parts') +
        pg_total_relation_size('content_tree_part_lists'))::text AS revisions,
      pg_total_relation_size('content_documents')::text AS documents`.pipe(Effect.orDie)
  const [partsBefore] = yield* partsOf
  const [bytesBefore] = yield* sizes
  // One page edited, as an editor writes it: the path to the page copied, the rest kept.
  const markdown = markdownOf(-1, "Edited once more.")
  const edited = yield* measured(as(content.commit(spaceId, (parent) => {
    const target = flattenPages(parent.pages).find(({ page }) => page.type === "document")!.page.id
    return Effect.succeed({
      pages: parent.pages.map((group) =>
        group.pages.some((page) => page.id === target)
          ? { ...group, pages: group.pages.map((page) => page.id === target ? { ...page, document: documentHash(markdown) } : page) }
          : group
      ),
      documents: new Map([[documentHash(markdown), markdown]])
    })
  })), largest)
  const [partsAfter] = yield* partsOf
  const [bytesAfter] = yield* sizes
  // Read back from the tables, not the cache: every page is there, the edit too.
  const stored = yield* Effect.gen(function*() {
    const repo = yield* RevisionsRepo
    return yield* repo.find(edited.id)
  }).pipe(Effect.provide(ContentLayers.layerRevisionsRepoSqlUncached, { local: true }))
  const read = Option.isSome(stored) ? flattenPages(stored.value.pages) : []
  if (read.length !== pages || !read.some(({ page }) => page.document === documentHash(markdown))) {
    return yield* Effect.die(new Error(`the ${pages}-page revision read back from the tables has ${read.length} pages, or lost its edit`))
  }
  const rows = yield* sql<{ name: string; largest: number }>`
    SELECT 'content_tree_parts' AS name, max(octet_length(t::text))::int AS largest FROM content_tree_parts t
    UNION ALL SELECT 'content_revisions', max(octet_length(r::text))::int FROM content_revisions r
    UNION ALL SELECT 'content_tree_part_lists', max(octet_length(l::text))::int FROM content_tree_part_lists l
    UNION ALL SELECT 'content_documents', max(octet_length(d::text))::int FROM content_documents d
    UNION ALL SELECT 'content_search_sections', max(octet_length(s::text))::int FROM content_search_sections s`.pipe(Effect.orDie)
  const [part] = yield* sql<{ largest: number }>`SELECT max(octet_length(body))::int AS largest FROM content_tree_parts`.pipe(Effect.orDie)
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`
  const written = partsAfter!.n - partsBefore!.n
  const lists = partsAfter!.lists - partsBefore!.lists
  const [row] = yield* sql<{ bytes: number }>`SELECT octet_length(r::text)::int AS bytes FROM content_revisions r WHERE id = ${edited.id}`.pipe(Effect.orDie)
  const widest = rows.reduce((top, row) => (row.largest ?? 0) > top.largest ? { name: row.name, largest: row.largest } : top, { name: "", largest: 0 })
  return [
    `tree parts written by a one-page commit to ${pages} pages: ${written} (goal 1) ${verdict(written === 1)}; part lists ${lists} (goal <= ${partListsGoal}) ` +
    `${verdict(lists <= partListsGoal)}; revision row ${kb(row?.bytes ?? 0)}; tables grew ` +
    `${kb(Number(bytesAfter!.revisions) - Number(bytesBefore!.revisions))} (revisions) and ${kb(Number(bytesAfter!.documents) - Number(bytesBefore!.documents))} (documents)`,
    `largest tree part ${kb(part?.largest ?? 0)} (bound ${kb(partBytes)}) ${verdict((part?.largest ?? 0) <= partBytes)}; largest row ${kb(widest.largest)} ` +
    `(${widest.name}; goal < ${kb(rowBound)}, a 16th of the client's message limit) ${verdict(widest.largest < rowBound)}`,
    `largest statement ${kb(largest.statement)}, largest parameter ${kb(largest.param)} (goal < ${kb(statementBound)}, an 8th of the limit) ` +
    `${verdict(largest.statement < statementBound && largest.param < statementBound)}`,
    `the ${pages}-page revision read back from the tables: ${read.length} pages, the edit kept PASS`
  ]
})
