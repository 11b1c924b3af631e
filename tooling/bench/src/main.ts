/**
 * `pnpm bench`: the Quire server against a plain node:http + pg baseline, on a fresh database on
 * the machine's PostgreSQL and on embedded PGlite, under the same autocannon load.
 *
 *   pnpm bench [--duration 10] [--rounds 5] [--warmup 2] [--connections 10]
 *              [--backends postgres,embedded] [--variants] [--profile]
 *   pnpm bench --http [--backends postgres]                              (the HTTP comparison with node:http + pg only)
 *   pnpm bench --search [--search-pages 10000] [--search-queries 300]   (search only; over 25,000 pages: several spaces, organization search)
 *   pnpm bench --skip-search                                             (HTTP and merge)
 *   pnpm bench --merge                                                   (merge only)
 *   pnpm bench --scale [--scale-pages 10000] [--scale-commits 15] [--profile]   (large spaces at flat cost, ScaleBench.ts)
 *   pnpm bench --pages-deep [--pages-deep-depth 1000]                    (page 1,000 of each listing vs page 1, DeepPagesBench.ts)
 *   pnpm bench --startup [--startup-runs 5]                              (cold start and memory footprint only)
 *   pnpm bench --large-page                                              (1.5 MB and 10 MB pages only)
 *   pnpm bench --markdown-attack                                         (hostile markdown while /health is probed, MarkdownAttackBench.ts)
 *   pnpm bench --sites [--sites-connections 50]                          (published sites only)
 *   pnpm bench --sites-large [--sites-large-pages 10000] [--profile]     (a 10,000-page site's navigation and uncached pages, SitesBench.ts)
 *   pnpm bench --git [--git-pages 1000]                                  (Git sync only, GitBench.ts)
 *   pnpm bench --unit [--unit-rounds 5]                                  (times unit tests no longer limit, UnitBench.ts)
 *   pnpm bench --fidelity <GitBook repository or project dir> [--project-dir docs] [--json]
 *              [--fidelity-concurrency 2] [--fidelity-timeout 30000] [--hold]   (import, export, publish, crawl: FidelityBench.ts)
 *   pnpm bench --web [--web-runs 5] [--web-quiet 500] [--web-keys 100] [--profile]   (the browser app in Chromium, WebBench.ts)
 *
 * Each target gets `duration` seconds per endpoint, in `rounds` slices alternating with the other
 * targets of its backend. --variants adds Quire variants on PostgreSQL (user from token,
 * tracer off) and both servers without a database (memory), to tell framework cost from
 * database cost. --profile records a CPU profile of Quire and of the baseline under load on each
 * backend and summarizes where the time went. Then it measures full-text search and its upkeep
 * on PostgreSQL (SearchBench.ts), merges of change requests (MergeBench.ts), and the cold start
 * and shutdown of the built server (StartupBench.ts), and the times of functions whose results unit tests
 * check (UnitBench.ts).
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { cp, mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { Database } from "@quire/db"
import * as Load from "./Load.ts"
import * as FidelityBench from "./FidelityBench.ts"
import * as GitBench from "./GitBench.ts"
import * as FootprintBench from "./FootprintBench.ts"
import * as LargePageBench from "./LargePageBench.ts"
import * as MarkdownAttackBench from "./MarkdownAttackBench.ts"
import * as MergeBench from "./MergeBench.ts"
import * as ProfileSummary from "./ProfileSummary.ts"
import * as Scratch from "./Scratch.ts"
import * as ScaleBench from "./ScaleBench.ts"
import * as SearchBench from "./SearchBench.ts"
import * as SitesBench from "./SitesBench.ts"
import * as StartupBench from "./StartupBench.ts"
import * as UnitBench from "./UnitBench.ts"
import * as WebBench from "./WebBench.ts"
import * as DeepPagesBench from "./DeepPagesBench.ts"
import * as Seed from "./Seed.ts"
import * as Servers from "./Servers.ts"
import type * as Target from "./Target.ts"

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: "string", default: "10" },
    rounds: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "10" },
    backends: { type: "string", default: "postgres,embedded" },
    variants: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    http: { type: "boolean", default: false },
    search: { type: "boolean", default: false },
    "skip-search": { type: "boolean", default: false },
    merge: { type: "boolean", default: false },
    scale: { type: "boolean", default: false },
    "scale-pages": { type: "string", default: "10000" },
    "scale-commits": { type: "string", default: "15" },
    "pages-deep": { type: "boolean", default: false },
    "pages-deep-depth": { type: "string", default: "1000" },
    startup: { type: "boolean", default: false },
    "large-page": { type: "boolean", default: false },
    "markdown-attack": { type: "boolean", default: false },
    sites: { type: "boolean", default: false },
    "sites-connections": { type: "string", default: "50" },
    "sites-large": { type: "boolean", default: false },
    "sites-large-pages": { type: "string", default: "10000" },
    git: { type: "boolean", default: false },
    "git-pages": { type: "string", default: "1000" },
    "startup-runs": { type: "string", default: "5" },
    unit: { type: "boolean", default: false },
    "unit-rounds": { type: "string", default: "5" },
    "search-pages": { type: "string", default: "10000" },
    "search-queries": { type: "string", default: "300" },
    fidelity: { type: "boolean", default: false },
    "project-dir": { type: "string" },
    "fidelity-concurrency": { type: "string", default: "2" },
    "fidelity-timeout": { type: "string", default: "30000" },
    "fidelity-examples": { type: "string", default: "3" },
    web: { type: "boolean", default: false },
    "web-runs": { type: "string", default: "5" },
    "web-quiet": { type: "string", default: "500" },
    "web-keys": { type: "string", default: "100" },
    json: { type: "boolean", default: false },
    hold: { type: "boolean", default: false }
  }
})

const load: Load.LoadOptions = {
  duration: Number(args.duration),
  rounds: Math.max(1, Number(args.rounds)),
  warmup: Number(args.warmup),
  connections: Number(args.connections)
}
const backends = new Set(args.backends.split(","))
const adminUrl = process.env.QUIRE_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

const progress = (message: string) => Effect.sync(() => console.error(`[bench] ${message}`))

type Config = Omit<Target.TargetConfig, "port" | "adminToken" | "adminEmail">

/** Targets measured against each other; the first baseline is the reference of the group. */
interface Group {
  readonly name: string
  readonly targets: ReadonlyArray<{ readonly name: string; readonly config: Config }>
  /** The seeded organization, or "discover": ask the first target (memory backends). */
  readonly organizationId: string
}

interface Row {
  readonly group: string
  readonly baseline: boolean
  readonly measurement: Load.Measurement
}

const endpoints = (organizationId: string): ReadonlyArray<Load.Endpoint> => [
  { name: "GET /v1/orgs/{id}", path: `/v1/orgs/${organizationId}` },
  { name: "GET /v1/user", path: "/v1/user" }
]

/** The administrator's only organization on a memory backend. */
const discoverOrganization = (running: Servers.Running) =>
  Effect.promise(async () => {
    const response = await fetch(`${running.baseUrl}/v1/orgs`, { headers: { authorization: `Bearer ${Seed.adminToken}` } })
    const body = await response.json() as { readonly items: ReadonlyArray<{ readonly id: string }> }
    return body.items[0]!.id
  })

const runGroup = (group: Group, rows: Array<Row>, reports: Array<string>, profileDir: string) =>
  Effect.scoped(Effect.gen(function*() {
    const running: Array<Servers.Running> = []
    let organizationId = group.organizationId
    for (const target of group.targets) {
      yield* progress(`starting ${target.name}`)
      running.push(yield* Servers.start(target.name, {
        ...target.config,
        organizationId,
        adminToken: Seed.adminToken,
        adminEmail: Seed.adminEmail
      }))
      if (organizationId === "discover") organizationId = yield* discoverOrganization(running[0]!)
    }
    for (const endpoint of endpoints(organizationId)) {
      const measured = yield* Load.compare(running, endpoint, Seed.adminToken, load, progress)
      measured.forEach((measurement, i) =>
        rows.push({ group: group.name, baseline: group.targets[i]!.config.server === "baseline", measurement })
      )
      if (!args.profile) continue
      for (const [i, target] of running.entries()) {
        if (group.targets[i]!.config.variant !== undefined) continue
        const file = join(profileDir, `${target.name.replace(/\W+/g, "-")}${endpoint.path.split("/")[2]}.cpuprofile`)
        yield* progress(`${endpoint.name}: profiling ${target.name}`)
        const seconds = Math.max(1, Math.round(load.duration / load.rounds))
        yield* Load.sample(target, endpoint, Seed.adminToken, load.connections, seconds).pipe(target.profiled(file))
        const summary = yield* Effect.promise(() => ProfileSummary.summarize(file, measured[i]!.cpuPerRequest))
        reports.push(`${target.name}, ${endpoint.name} (${file}):\n${summary}`)
      }
    }
  }))

const table = (rows: ReadonlyArray<Row>): string => {
  const header = ["target", "endpoint", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "vs baseline", "failed"]
  const groupOrder = [...new Set(rows.map((r) => r.group))]
  const ordered = rows.toSorted((a, b) =>
    groupOrder.indexOf(a.group) - groupOrder.indexOf(b.group) || Number(b.baseline) - Number(a.baseline)
  )
  const body = ordered.map(({ group, measurement: m }) => {
    const base = rows.find((r) => r.group === group && r.baseline && r.measurement.endpoint === m.endpoint)
    return [
      m.target,
      m.endpoint,
      m.requestsPerSecond.toFixed(0),
      m.p50.toFixed(1),
      m.p99.toFixed(1),
      m.cpuPerRequest.toFixed(0),
      base === undefined ? "" : (m.requestsPerSecond / base.measurement.requestsPerSecond).toFixed(2),
      String(m.failures)
    ]
  })
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n")
}

/**
 * Issue 23's goal: GET /v1/orgs/{id} on PostgreSQL at no less than 0.9 of the plain node:http + pg
 * server doing the same queries, in CPU time per request (baseline µs / Quire µs).
 */
const cpuGoals = (rows: ReadonlyArray<Row>): string => {
  const goal = 0.9
  const lines = rows.filter((row) => !row.baseline && row.measurement.endpoint === "GET /v1/orgs/{id}" && row.group !== "memory").flatMap((row) => {
    const base = rows.find((r) => r.group === row.group && r.baseline && r.measurement.endpoint === row.measurement.endpoint)
    if (base === undefined) return []
    const ratio = base.measurement.cpuPerRequest / row.measurement.cpuPerRequest
    return [`  ${`${row.measurement.target}, CPU per request vs node:http + pg`.padEnd(60)} ${ratio.toFixed(2)} ` +
      `(${base.measurement.cpuPerRequest.toFixed(0)} vs ${row.measurement.cpuPerRequest.toFixed(0)} µs)   goal >= ${goal}   ${ratio >= goal ? "PASS" : "MISS"}`]
  })
  return ["GET /v1/orgs/{id}: the baseline's CPU per request over Quire's", ...lines].join("\n")
}

const program = Effect.gen(function*() {
  const started = Date.now()
  const groups: Array<Group> = []

  if (backends.has("postgres")) {
    const backend: Target.Backend = { kind: "postgres", url: yield* Scratch.postgresDatabase(adminUrl) }
    yield* progress(`seeding ${backend.url} (${Seed.extraRows} extra users, organizations, tokens)`)
    const seeded = yield* Seed.seed(Database.layerUrl(backend.url))
    groups.push({
      name: "postgres",
      organizationId: seeded.organizationId,
      targets: [
        { name: "baseline (postgres)", config: { server: "baseline", backend } },
        { name: "quire (postgres)", config: { server: "quire", backend } },
        ...(args.variants
          ? [
            { name: "quire +user from token (pg)", config: { server: "quire", backend, variant: { userFromToken: true } } },
            { name: "quire +tracer off (pg)", config: { server: "quire", backend, variant: { noTracer: true } } }
          ] as const
          : [])
      ]
    })
  }
  if (backends.has("embedded")) {
    // PGlite admits one process per directory: the baseline gets a copy of the seeded one.
    const root = yield* Scratch.directory
    const quire = join(root, "quire")
    const baseline = join(root, "baseline")
    yield* progress(`seeding PGlite in ${quire}`)
    const seeded = yield* Seed.seed(Database.layerEmbedded({ dataDir: quire }))
    yield* Effect.promise(() => cp(quire, baseline, { recursive: true }))
    groups.push({
      name: "embedded",
      organizationId: seeded.organizationId,
      targets: [
        { name: "baseline (embedded)", config: { server: "baseline", backend: { kind: "embedded", dataDir: baseline } } },
        { name: "quire (embedded)", config: { server: "quire", backend: { kind: "embedded", dataDir: quire } } }
      ]
    })
  }
  if (args.variants) {
    groups.push({
      name: "memory",
      organizationId: "discover",
      targets: [
        { name: "quire (memory)", config: { server: "quire", backend: { kind: "memory" } } },
        { name: "baseline (memory)", config: { server: "baseline", backend: { kind: "memory" } } }
      ]
    })
  }

  const rows: Array<Row> = []
  const reports: Array<string> = []
  const profileDir = args.profile ? yield* Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-profiles-"))) : ""
  for (const group of groups) yield* runGroup(group, rows, reports, profileDir)

  console.log(`\nQuire vs node:http + pg: ${load.connections} connections, ${load.duration} s per target and endpoint ` +
    `in ${load.rounds} alternating rounds after ${load.warmup} s of warm-up; total ${((Date.now() - started) / 1000).toFixed(0)} s\n`)
  console.log(table(rows))
  console.log(`\n${cpuGoals(rows)}`)
  for (const report of reports) console.log(`\n${report}`)
})

const searchProgram = Effect.gen(function*() {
  const url = yield* Scratch.postgresDatabase(adminUrl)
  yield* progress(`search bench on ${url}`)
  const report = yield* SearchBench.run(url, {
    pages: Number(args["search-pages"]),
    queries: Number(args["search-queries"])
  }, progress)
  console.log(`\n${report}`)
})

const scaleProgram = Effect.gen(function*() {
  const url = yield* Scratch.postgresDatabase(adminUrl)
  yield* progress(`scale bench on ${url}`)
  const profileDir = args.profile ? yield* Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-profiles-"))) : undefined
  const options = { pages: Number(args["scale-pages"]), commits: Math.max(3, Number(args["scale-commits"])), profileDir }
  console.log(`\n${yield* ScaleBench.run(url, options, progress)}`)
})

const deepPagesProgram = Effect.gen(function*() {
  const databaseUrl = yield* Scratch.postgresDatabase(adminUrl)
  yield* progress(`pages-deep bench on ${databaseUrl}`)
  console.log(`\n${yield* DeepPagesBench.run({ databaseUrl, depth: Number(args["pages-deep-depth"]) }, progress)}`)
})

const mergeProgram = Effect.gen(function*() {
  const url = yield* Scratch.postgresDatabase(adminUrl)
  yield* progress(`merge bench on ${url}`)
  console.log(`\n${yield* MergeBench.run(url, progress)}`)
})

const largePageProgram = Effect.gen(function*() {
  console.log(`\n${yield* LargePageBench.run(progress)}`)
})

const markdownAttackProgram = Effect.gen(function*() {
  console.log(`\n${(yield* MarkdownAttackBench.run(MarkdownAttackBench.defaultOptions, progress)).report}`)
})

const sitesProgram = Effect.gen(function*() {
  const profileDir = args.profile ? yield* Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-profiles-"))) : undefined
  const sitesLoad = { ...load, connections: Number(args["sites-connections"]) }
  console.log(`\n${yield* SitesBench.run({ load: sitesLoad, backends, adminUrl, profileDir }, progress)}`)
})

const sitesLargeProgram = Effect.gen(function*() {
  const profileDir = args.profile ? yield* Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-profiles-"))) : undefined
  console.log(`\n${yield* SitesBench.runLarge({ adminUrl, pages: Number(args["sites-large-pages"]), profileDir }, progress)}`)
})

const gitProgram = Effect.gen(function*() {
  const profileDir = args.profile ? yield* Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-profiles-"))) : undefined
  console.log(`\n${yield* GitBench.run({ backends, adminUrl, pages: Number(args["git-pages"]), profileDir }, progress)}`)
})

const unitProgram = Effect.gen(function*() {
  console.log(`\n${yield* UnitBench.run(Math.max(1, Number(args["unit-rounds"])), progress)}`)
})

const startupProgram = Effect.gen(function*() {
  console.log(`\n${yield* StartupBench.run(Math.max(1, Number(args["startup-runs"])), progress)}`)
  console.log(`\n${yield* FootprintBench.run(adminUrl, progress)}`)
})

const fidelityProgram = Effect.gen(function*() {
  const path = positionals[0]
  if (path === undefined) return yield* Effect.die(new Error("pnpm bench --fidelity <path of a GitBook repository or project directory>"))
  const examples = Number(args["fidelity-examples"])
  // Only the report goes to standard output (the seed's and the server's logs to standard error).
  const print = console.log
  console.log = console.error
  const report = yield* FidelityBench.run({
    // pnpm runs the script in tooling/bench: a relative path is the caller's.
    path: resolve(process.env["INIT_CWD"] ?? process.cwd(), path),
    projectDirectory: args["project-dir"],
    concurrency: Math.max(1, Number(args["fidelity-concurrency"])),
    timeout: Number(args["fidelity-timeout"]),
    examples
  })
  print(args.json ? JSON.stringify(report, null, 2) : `\n${FidelityBench.table(report, examples)}`)
  if (args.hold) {
    console.error(`[bench] fidelity: the site stays at ${report.site} until Ctrl-C`)
    yield* Effect.never
  }
})

const webProgram = Effect.gen(function*() {
  const profileDir = args.profile ? yield* Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-profiles-"))) : undefined
  const report = yield* Effect.promise(() => WebBench.run({
    runs: Math.max(1, Number(args["web-runs"])),
    quiet: Number(args["web-quiet"]),
    keys: Math.max(1, Number(args["web-keys"])),
    profileDir
  }, (message) => console.error(`[bench] ${message}`)))
  console.log(`\n${report}`)
})

// The HTTP comparison, the search figures, the merge figures, large pages, the unit tests' times,
// then the cold start; `--search`, `--merge`, `--large-page`, `--unit` and `--startup` run only theirs,
// `--skip-search` skips search.
const selected = args.fidelity
  ? fidelityProgram
  : args.http
  ? program
  : args.web
  ? webProgram
  : args.search
  ? searchProgram
  : args.scale
  ? scaleProgram
  : args["pages-deep"]
  ? deepPagesProgram
  : args.merge
  ? mergeProgram
  : args.startup
  ? startupProgram
  : args["large-page"]
  ? largePageProgram
  : args["markdown-attack"]
  ? markdownAttackProgram
  : args.sites
  ? sitesProgram
  : args["sites-large"]
  ? sitesLargeProgram
  : args.git
  ? gitProgram
  : args.unit
  ? unitProgram
  : Effect.andThen(
    Effect.andThen(
      Effect.andThen(args["skip-search"] ? program : Effect.andThen(program, searchProgram), mergeProgram),
      Effect.andThen(largePageProgram, unitProgram)
    ),
    startupProgram
  )

NodeRuntime.runMain(Effect.scoped(selected))
