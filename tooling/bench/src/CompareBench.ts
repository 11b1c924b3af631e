/**
 * `pnpm bench --compare <git ref>`: the production build of `ref` (Build.ofRef: a worktree in the
 * temporary directory, built once per commit) against this tree's, both started as users start
 * them (tooling/build/start.sh server), each on a database of its own seeded over the public API
 * alone (so an old build's API is all it needs), measured in alternating rounds (ref, this tree;
 * this tree, ref; ...) in one run. Each figure prints both values and their ratio, this tree over
 * the ref, with which side is better.
 */
import { Cause, Effect, Exit, Ref, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import * as Build from "./Build.ts"
import * as Load from "./Load.ts"
import * as Scratch from "./Scratch.ts"

/** What `--figures` chooses from. */
export const figureNames = ["orgs", "large-page", "links", "commit"] as const
export type FigureName = typeof figureNames[number]

export interface CompareOptions {
  readonly ref: string
  readonly figures: ReadonlyArray<FigureName>
  readonly adminUrl: string
  /** Alternating rounds of each figure (each build measured once a round). */
  readonly rounds: number
  /** `orgs`: autocannon's connections, seconds per build and round, and seconds of warm-up. */
  readonly connections: number
  readonly duration: number
  readonly warmup: number
  /** `large-page`: characters of the page one `POST .../content` inserts. */
  readonly pageBytes: number
  /** `links` and `commit`: pages of the large space (in groups of 50). */
  readonly pages: number
  /**
   * `large-page` and `commit`: operations a build runs back to back in a round, timed together
   * and divided: Linux counts a process's CPU in ticks of 10 ms, as coarse as the operations.
   */
  readonly repeats: number
  /**
   * When both sides are the same checkout (`.`), one server per backend answers for both, each
   * side with its own organization and spaces (the smoke's: the code path runs, for half the starts).
   */
  readonly oneServerForSameBuild?: boolean | undefined
}

/**
 * One figure of both builds: `higher` when a larger value is better; `rounds`, this tree's value
 * over the ref's in each round, where the two were measured back to back.
 */
export interface Figure {
  readonly name: string
  readonly unit: string
  readonly higher: boolean
  readonly ref: number
  readonly current: number
  readonly rounds?: ReadonlyArray<number> | undefined
}

/** Each round's `current` over its `ref` (the two were measured back to back in a round). */
const perRound = Load.ratiosByRound

type Progress = (message: string) => Effect.Effect<void>

/** A JSON call as the administrator; a non-2xx answer fails with its status and body. */
const call = (server: Build.BuiltServer, token: string) => <A>(method: string, path: string, body?: unknown) =>
  Effect.tryPromise({
    try: async () => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await response.text()
      if (!response.ok) throw new Error(`${server.name}: ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`)
      return (text === "" ? undefined : JSON.parse(text)) as A
    },
    catch: (cause) => cause instanceof Error ? cause : new Error(String(cause))
  })

/** Wall ms and the server's CPU ms of `self`. */
const timed = <A, E, R>(server: Build.BuiltServer, self: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const cpu = yield* server.cpuMicros
    const started = performance.now()
    const value = yield* self
    const ms = performance.now() - started
    return { value, ms, cpuMs: ((yield* server.cpuMicros) - cpu) / 1000 }
  })

/** `times` runs of `operation` back to back (the `k`th given `k`), timed together: wall and CPU ms of one, on average. */
const timedEach = <E, R>(server: Build.BuiltServer, times: number, operation: (k: number) => Effect.Effect<unknown, E, R>) =>
  Effect.map(
    timed(server, Effect.forEach(Array.from({ length: times }, (_, k) => k), operation, { discard: true })),
    ({ ms, cpuMs }) => ({ ms: ms / times, cpuMs: cpuMs / times })
  )

const median = (values: ReadonlyArray<number>) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!

/** A page of about `bytes` characters: short paragraphs, a heading and a link every 50 of them. */
export const pageOf = (bytes: number) => {
  const parts: Array<string> = []
  let length = 0
  for (let i = 0; length < bytes; i++) {
    const part = i % 50 === 0 ? `## Part ${i}\n\nSee [the next part](https://example.com/${i}).` : `Paragraph ${i} about topic ${i % 37}.`
    parts.push(part)
    length += part.length + 2
  }
  return parts.join("\n\n")
}

/** Both builds' servers on one backend: `pair[0]` the ref's, `pair[1]` this tree's. */
interface Side {
  readonly server: Build.BuiltServer
  readonly organizationId: string
}
type Pair = readonly [Side, Side]

/** `measure` on each side, `rounds` times, the order reversed every other round; its values per side. */
const alternate = <A>(pair: Pair, rounds: number, progress: Progress, label: string, measure: (side: Side, round: number) => Effect.Effect<A, Error>) =>
  Effect.gen(function*() {
    const values: [Array<A>, Array<A>] = [[], []]
    for (let round = 0; round < rounds; round++) {
      yield* progress(`${label}: round ${round + 1}/${rounds}`)
      const order = round % 2 === 0 ? [0, 1] as const : [1, 0] as const
      for (const i of order) values[i].push(yield* measure(pair[i], round))
    }
    return values
  })

const twoFigures = (name: string, values: readonly [ReadonlyArray<{ ms: number; cpuMs: number }>, ReadonlyArray<{ ms: number; cpuMs: number }>]): ReadonlyArray<Figure> => {
  const figure = (figureName: string, of: (v: { ms: number; cpuMs: number }) => number): Figure => {
    const [ref, current] = [values[0].map(of), values[1].map(of)]
    return { name: figureName, unit: "ms", higher: false, ref: median(ref), current: median(current), rounds: perRound(ref, current) }
  }
  return [figure(name, (v) => v.ms), figure("  server CPU", (v) => v.cpuMs)]
}

const endpoint = (side: Side): Load.Endpoint => ({ name: "GET /v1/orgs/{id}", path: `/v1/orgs/${side.organizationId}` })

/** Authenticated `GET /v1/orgs/{id}` under autocannon: requests a second and server CPU per request. */
const orgsFigure = (pair: Pair, token: string, options: CompareOptions, progress: Progress) =>
  Effect.gen(function*() {
    for (const side of pair) {
      if (options.warmup > 0) yield* Load.sample(side.server, endpoint(side), token, options.connections, options.warmup)
    }
    // A round that no answer ended in (a short --duration on a machine loaded by other work) is measured again for longer.
    const longer = Math.max(5, options.duration * 5)
    const answered = (side: Side) =>
      Load.sample(side.server, endpoint(side), token, options.connections, options.duration).pipe(
        Effect.flatMap((sample) => sample.requests > 0 ? Effect.succeed(sample) : Load.sample(side.server, endpoint(side), token, options.connections, longer)))
    const samples = yield* alternate(pair, options.rounds, progress, "GET /v1/orgs/{id}", answered)
    const [ref, current] = samples.map((s, i) => Load.combine(pair[i]!.server.name, "orgs", s))
    const silent = pair.filter((_, i) => samples[i]!.some((s) => s.requests === 0)).map((side) => side.server.name)
    if (silent.length > 0) {
      return yield* Effect.fail(new Error(`GET /v1/orgs/{id} was answered no request in ${options.duration} s, nor then in ${longer} s, on ${silent.join(" and ")}`))
    }
    if (ref!.failures + current!.failures > 0) return yield* Effect.fail(new Error(`GET /v1/orgs/{id} failed ${ref!.failures} times on the ref and ${current!.failures} on this tree`))
    const rounds = (of: (sample: Load.Sample) => number) => perRound(ref!.rounds.map(of), current!.rounds.map(of))
    return [
      { name: `GET /v1/orgs/{id}, PostgreSQL, ${options.connections} connections`, unit: "req/s", higher: true, ref: ref!.requestsPerSecond, current: current!.requestsPerSecond, rounds: rounds(Load.roundRate) },
      { name: "  server CPU per request", unit: "µs", higher: false, ref: ref!.cpuPerRequest, current: current!.cpuPerRequest, rounds: rounds(Load.roundCpu) }
    ] satisfies ReadonlyArray<Figure>
  })

/**
 * A change request edit inserting a page of `pageBytes` characters: one `POST .../content` (each of
 * `repeats` change requests its own, timed together), after one small insert that warms the path.
 */
const largePageFigure = (pair: Pair, token: string, backend: string, options: CompareOptions, progress: Progress) =>
  Effect.gen(function*() {
    const markdown = pageOf(options.pageBytes)
    const spaces = yield* Effect.forEach(pair, (side) =>
      call(side.server, token)<{ id: string }>("POST", `/v1/orgs/${side.organizationId}/spaces`, { title: "Large page" }))
    const insert = (side: Side, i: number, page: string, times: number) =>
      Effect.gen(function*() {
        const api = call(side.server, token)
        const space = spaces[pair.indexOf(side)]!.id
        const crs = yield* Effect.forEach(Array.from({ length: times }, (_, k) => k), (k) =>
          api<{ id: string }>("POST", `/v1/spaces/${space}/change-requests`, { subject: `Large page ${i}.${k}` }))
        return yield* timedEach(side.server, times, (k) =>
          api("POST", `/v1/spaces/${space}/change-requests/${crs[k]!.id}/content`, {
            changes: [{ operation: "insert_page", title: `Large ${i}.${k}`, document: { markdown: page } }]
          }))
      })
    for (const side of pair) yield* insert(side, -1, pageOf(20_000), 1)
    const values = yield* alternate(pair, options.rounds, progress, `large page, ${backend}`, (side, round) => insert(side, round, markdown, options.repeats))
    return twoFigures(`change request insert of a ${(markdown.length / 1e6).toFixed(2)} MB page, ${backend}`, values)
  })

/** The pages of group `g` of the large space, in one batch: the group's page and 49 children that link to each other. */
const groupBatch = (g: number) => {
  const children = Array.from({ length: 49 }, (_, i) => ({
    operation: "insert_page",
    title: `Page ${g}-${i}`,
    into: `g${g}`,
    document: {
      markdown: `# Page ${g}-${i}\n\nAbout topic ${(g * 49 + i) % 37}: see [the next page](page-${g}-${(i + 1) % 49}.md), ` +
        `[another group](../group-${g + 1}/page-${g + 1}-${i}.md) and [the site](https://example.com/${g}/${i}).\n\nMore words of page ${i}.\n`
    }
  }))
  return [{ operation: "insert_page", title: `Group ${g}`, ref: `g${g}`, document: { markdown: `# Group ${g}\n\nIts ${children.length} pages.\n` } }, ...children]
}

/** A space of about `pages` pages (groups of 50, one `POST .../content` each) merged in one change request; its id. */
const seedSpace = (side: Side, token: string, title: string, pages: number) =>
  Effect.gen(function*() {
    const api = call(side.server, token)
    const space = yield* api<{ id: string }>("POST", `/v1/orgs/${side.organizationId}/spaces`, { title })
    const cr = yield* api<{ id: string }>("POST", `/v1/spaces/${space.id}/change-requests`, { subject: "Seed" })
    for (let g = 0; g < Math.max(1, Math.round(pages / 50)); g++) {
      yield* api("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: groupBatch(g) })
    }
    yield* api("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)
    return space.id
  })

/** A one-page change request (an edit inserting a page, then its merge) into `space`. */
const onePageCommit = (side: Side, token: string, space: string, i: number) =>
  Effect.gen(function*() {
    const api = call(side.server, token)
    const cr = yield* api<{ id: string }>("POST", `/v1/spaces/${space}/change-requests`, { subject: `One page ${i}` })
    yield* api("POST", `/v1/spaces/${space}/change-requests/${cr.id}/content`, {
      changes: [{ operation: "insert_page", title: `New page ${i}`, document: { markdown: `# New page ${i}\n\nA few words.\n` } }]
    })
    yield* api("POST", `/v1/spaces/${space}/change-requests/${cr.id}/merge`)
  })

export interface Restartable {
  /** The side as it runs now. */
  readonly side: Effect.Effect<Side>
  /** Stops the server and starts it again on the same database: every cache empty. */
  readonly restart: Effect.Effect<void, Error>
}

/**
 * `links`: the first `GET /v1/spaces/{id}/links` of the large space's revision on a restarted
 * server (after one on a small space, which loads the code path), its graph stored by a listing
 * before the restarts; `commit`: a one-page change
 * request into the large space, and into a 10-page one (`repeats` of each a round, timed together).
 */
const spaceFigures = (pair: readonly [Restartable, Restartable], token: string, options: CompareOptions, progress: Progress) =>
  Effect.gen(function*() {
    const sides = [yield* pair[0].side, yield* pair[1].side] as const
    yield* progress(`seeding a ${options.pages}-page and a 10-page space on both builds over the API`)
    const large = yield* Effect.forEach(sides, (side) => seedSpace(side, token, "Large space", options.pages))
    const small = yield* Effect.forEach(sides, (side) => seedSpace(side, token, "Small space", 10))
    const figures: Array<Figure> = []
    if (options.figures.includes("links")) {
      // The first listing of a revision builds its graph and stores it: every round's restarted
      // server then reads it back, as after any restart but the first listing of a new revision.
      for (const [i, side] of sides.entries()) yield* call(side.server, token)("GET", `/v1/spaces/${large[i]}/links?limit=50`)
      const measured: [Array<{ ms: number; cpuMs: number }>, Array<{ ms: number; cpuMs: number }>] = [[], []]
      for (let round = 0; round < options.rounds; round++) {
        yield* progress(`cold links listing: round ${round + 1}/${options.rounds}`)
        for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
          yield* pair[i]!.restart
          const side = yield* pair[i]!.side
          yield* call(side.server, token)("GET", `/v1/spaces/${small[i]}/links?limit=50`)
          measured[i]!.push(yield* timed(side.server, call(side.server, token)("GET", `/v1/spaces/${large[i]}/links?limit=50`)))
        }
      }
      figures.push(...twoFigures(`cold links listing of a ${options.pages}-page revision, PostgreSQL`, measured))
    }
    if (options.figures.includes("commit")) {
      const current = [yield* pair[0].side, yield* pair[1].side] as const
      for (const [i, side] of current.entries()) yield* onePageCommit(side, token, small[i]!, -1)
      const inLarge = yield* alternate(current, options.rounds, progress, "one-page commit, large space", (side, round) =>
        timedEach(side.server, options.repeats, (k) => onePageCommit(side, token, large[current.indexOf(side)]!, round * options.repeats + k)))
      const inSmall = yield* alternate(current, options.rounds, progress, "one-page commit, 10-page space", (side, round) =>
        timedEach(side.server, options.repeats, (k) => onePageCommit(side, token, small[current.indexOf(side)]!, round * options.repeats + k)))
      figures.push(...twoFigures(`one-page change request (edit, merge), ${options.pages}-page space, PostgreSQL`, inLarge))
      figures.push(...twoFigures("the same, 10-page space", inSmall))
      const ratio = (k: 0 | 1) => median(inLarge[k].map((v) => v.ms)) / median(inSmall[k].map((v) => v.ms))
      const roundRatio = (k: 0 | 1) => inLarge[k].map((v, round) => v.ms / inSmall[k][round]!.ms)
      figures.push({ name: `  ${options.pages} pages over 10 pages`, unit: "x", higher: false, ref: ratio(0), current: ratio(1), rounds: perRound(roundRatio(0), roundRatio(1)) })
    }
    return figures
  })

/**
 * `build`'s server on `storage`, restartable: a scope of its own, closed (the server stopped) on
 * restart and when the enclosing scope closes. A restart keeps the port, and so the public URL, as
 * an operator's restart does: what the server stored under its URL (the link graphs) is its own.
 */
const restartable = (name: string, build: Build.Build, storage: Build.Storage, token: string, log: string) =>
  Effect.gen(function*() {
    const start = (port?: number) => Effect.gen(function*() {
      const scope = yield* Scope.make()
      const server = yield* Build.startServer(name, build, storage, token, log, {}, port).pipe(Scope.provide(scope))
      return { scope, server }
    })
    const first = yield* start()
    const port = Number(new URL(first.server.baseUrl).port)
    const running = yield* Ref.make(first)
    yield* Effect.addFinalizer(() => Effect.flatMap(Ref.get(running), ({ scope }) => Scope.close(scope, Exit.void)))
    const organization = yield* call(first.server, token)<{ id: string }>("POST", "/v1/orgs", { title: "Compare bench" })
    const restart = Effect.gen(function*() {
      yield* Scope.close((yield* Ref.get(running)).scope, Exit.void)
      yield* Ref.set(running, yield* start(port))
    }).pipe(Effect.mapError((error) => new Error(error.message)))
    return {
      side: Effect.map(Ref.get(running), ({ server }) => ({ server, organizationId: organization.id })),
      restart
    } satisfies Restartable
  })

/**
 * `server` as two sides, the second with an organization of its own there. A restart serves both:
 * the side that asks first restarts the server, and the other's next ask finds it restarted (its own
 * large space still never listed since), so each side's cold listing costs one restart, not two.
 */
const twoSidesOf = (server: Restartable, token: string) =>
  Effect.gen(function*() {
    const { server: running } = yield* server.side
    const organization = yield* call(running, token)<{ id: string }>("POST", "/v1/orgs", { title: "Compare bench, the other side" })
    const served = new Set<number>()
    const restartFor = (side: number) =>
      Effect.suspend(() => {
        if (served.size > 0 && !served.has(side)) return Effect.sync(() => void served.add(side))
        served.clear()
        served.add(side)
        return server.restart
      })
    const other = {
      side: Effect.map(server.side, ({ server }) => ({ server, organizationId: organization.id })),
      restart: restartFor(0)
    } satisfies Restartable
    return [other, { side: server.side, restart: restartFor(1) } satisfies Restartable] as const
  })

/**
 * Both builds' servers on `backend`, each on a new database (PostgreSQL) or data directory
 * (embedded); one for both when they are the same checkout and `oneServerForSameBuild` says so.
 */
const serversOn = (backend: "postgres" | "embedded", builds: readonly [Build.Build, Build.Build], token: string, options: CompareOptions, scratch: string) =>
  Effect.gen(function*() {
    const one = options.oneServerForSameBuild === true && builds[0].checkout === builds[1].checkout
    const servers = yield* Effect.forEach(one ? [builds[1]] : builds, (build, i) =>
      Effect.gen(function*() {
        const storage: Build.Storage = backend === "postgres"
          ? { databaseUrl: yield* Scratch.postgresDatabase(options.adminUrl) }
          : { dataDir: join(scratch, `${backend}-${i}`) }
        const name = `${build.label} (${backend})`
        return yield* restartable(name, build, storage, token, join(scratch, `${backend}-${i}.log`))
      }))
    return one ? yield* twoSidesOf(servers[0]!, token) : [servers[0]!, servers[1]!] as const
  })

const fixed = (value: number) => value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)

/** Within this of 1, a ratio says neither build is better. */
const sameWithin = 0.03

/**
 * Which build a figure favours: `same` within 3%; a side only when every round favours it too
 * (beyond 3%, or at least not the other way), else `unclear`: the rounds disagree, so the
 * difference is the machine's noise until more rounds (`--compare-rounds`) say otherwise.
 */
export const verdict = (figure: Figure): "same" | "this tree" | "ref" | "unclear" => {
  const favours = (ratio: number) => Math.abs(ratio - 1) < sameWithin ? "same" : (ratio > 1) === figure.higher ? "this tree" : "ref"
  const overall = favours(figure.current / figure.ref)
  if (overall === "same" || figure.rounds === undefined || figure.rounds.length < 2) return overall
  return figure.rounds.every((ratio) => favours(ratio) === overall || favours(ratio) === "same") ? overall : "unclear"
}

/** The figures as a table: both values, this tree over the ref, its lowest and highest round, and which is better (`verdict`). */
export const table = (refLabel: string, figures: ReadonlyArray<Figure>) => {
  const header = ["figure", "unit", `ref ${refLabel}`, "this tree", "this/ref", "rounds", "better"]
  const rows = figures.map((f) => {
    const spread = f.rounds === undefined || f.rounds.length < 2 ? "" : `${Math.min(...f.rounds).toFixed(2)}-${Math.max(...f.rounds).toFixed(2)}`
    return [f.name, f.unit, fixed(f.ref), fixed(f.current), (f.current / f.ref).toFixed(2), spread, verdict(f)]
  })
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i < 2 || i === 6 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd()
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n")
}

/** Builds both sides, measures the chosen figures alternately, and answers the report and the figures. */
export const run = (options: CompareOptions, progress: Progress) =>
  Effect.gen(function*() {
    const started = Date.now()
    const ref = yield* Build.ofRef(options.ref, progress)
    const current = yield* Build.current(progress)
    const builds = [ref, current] as const
    const token = `quire_bench_compare_${randomBytes(12).toString("hex")}`
    const scratch = yield* Scratch.directory
    const chosen = (name: FigureName) => options.figures.includes(name)
    const figures: Array<Figure> = []
    const errors: Array<string> = []
    // A figure that fails is reported beside the others, which are still measured and printed.
    const measure = (label: string, self: Effect.Effect<ReadonlyArray<Figure>, unknown, Scope.Scope>) =>
      Effect.scoped(self).pipe(
        Effect.tap((measured) => Effect.sync(() => figures.push(...measured))),
        Effect.catchCause((cause) => Effect.sync(() => errors.push(`${label}: ${Cause.pretty(cause).split("\n").slice(0, 6).join("\n")}`)))
      )
    if (chosen("orgs") || chosen("large-page") || chosen("links") || chosen("commit")) {
      yield* progress("starting both builds on PostgreSQL")
      const postgres = yield* serversOn("postgres", builds, token, options, scratch)
      const sides = [yield* postgres[0].side, yield* postgres[1].side] as const
      if (chosen("orgs")) yield* measure("orgs", orgsFigure(sides, token, options, progress))
      if (chosen("large-page")) yield* measure("large-page, PostgreSQL", largePageFigure(sides, token, "PostgreSQL", options, progress))
      if (chosen("links") || chosen("commit")) yield* measure("links, commit", spaceFigures(postgres, token, options, progress))
    }
    if (chosen("large-page")) {
      yield* progress("starting both builds on the embedded database")
      yield* measure("large-page, embedded", Effect.gen(function*() {
        const servers = yield* serversOn("embedded", builds, token, options, scratch)
        return yield* largePageFigure([yield* servers[0].side, yield* servers[1].side], token, "embedded", options, progress)
      }))
    }
    const refName = `${options.ref}${ref.commit === undefined ? "" : ` (${ref.commit.slice(0, 10)})`}`
    const report = [
      `This tree against ${refName}: production builds started with tooling/build/start.sh, ${options.rounds} alternating rounds; ` +
      `medians of the rounds; total ${((Date.now() - started) / 1000).toFixed(0)} s`,
      "",
      table(options.ref, figures)
    ].join("\n")
    // What failed comes first: a caller that shows the start of the message (the smoke) shows why.
    if (errors.length > 0) return yield* Effect.fail(new Error(`--compare: ${errors.length} figures failed\n${errors.map((error) => `FAILED ${error}`).join("\n")}\n\n${report}`))
    return { report, figures }
  })
