/**
 * `pnpm bench`: Quire's figures of speed and size. Each flag runs one bench; without one, the HTTP
 * comparison, search, merge, large pages, unit tests' times and start-up run in turn.
 *
 * `pnpm bench --help` prints each flag with its options (`usage` below).
 *
 * Servers that users run are measured as built (tooling/build/build.mjs, started by start.sh):
 * dist/ is built again only when a source is newer than it (Build.ts). --compare keeps the builds
 * of refs, by commit, in the temporary directory.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, type Scope } from "effect"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { basename, join, resolve } from "node:path"
import { parseArgs } from "node:util"
import * as AgentTasksBench from "./AgentTasksBench.ts"
import * as AskRetrievalBench from "./AskRetrievalBench.ts"
import * as CompareBench from "./CompareBench.ts"
import * as DeepPagesBench from "./DeepPagesBench.ts"
import * as FidelityBench from "./FidelityBench.ts"
import * as FootprintBench from "./FootprintBench.ts"
import * as GitBench from "./GitBench.ts"
import * as HttpFlagsBench from "./HttpFlagsBench.ts"
import * as DocumentsBench from "./DocumentsBench.ts"
import * as HttpBench from "./HttpBench.ts"
import * as LargePageBench from "./LargePageBench.ts"
import * as LiveEditingBench from "./LiveEditingBench.ts"
import * as MarkdownAttackBench from "./MarkdownAttackBench.ts"
import * as MergeBench from "./MergeBench.ts"
import * as ScaleBench from "./ScaleBench.ts"
import * as Seed from "./Seed.ts"
import * as Scratch from "./Scratch.ts"
import * as SearchBench from "./SearchBench.ts"
import * as SitesBench from "./SitesBench.ts"
import * as Smoke from "./Smoke.ts"
import * as StartupBench from "./StartupBench.ts"
import * as UnitBench from "./UnitBench.ts"
import * as WebBench from "./WebBench.ts"
import * as WebCompare from "./WebCompare.ts"
import * as WebSetup from "./WebSetup.ts"

/** What `--help` prints, and a wrong option after its error. */
const usage = `  pnpm bench --http [--duration 10] [--rounds 5] [--warmup 2] [--connections 10]
             [--backends postgres,embedded] [--variants] [--profile]   (Quire vs node:http + pg, HttpBench.ts)
  pnpm bench --http-flags [--http-flags-sets start.sh,semi=8+malloc,...] [--http-flags-root dir] [--http-flags-builds name=dir,...]
             [--http-flags-rest 10] [--profile]   (the built server per Node flags and malloc settings: throughput beside memory, HttpFlagsBench.ts)
  pnpm bench --search [--search-pages 10000] [--search-queries 300]   (search only; over 25,000 pages: several spaces, organization search)
  pnpm bench --skip-search                                             (the default run without search)
  pnpm bench --merge [--merge-pages 1000] [--merge-rounds 5]          (merges of 1, 10 and 100 pages, MergeBench.ts)
  pnpm bench --scale [--scale-pages 100000] [--scale-links-pages 10000] [--scale-commits 15] [--profile]
                                                                       (large spaces at flat cost: commits, links, rows; ScaleBench.ts)
  pnpm bench --pages-deep [--pages-deep-depth 1000]                    (page 1,000 of each listing vs page 1, DeepPagesBench.ts)
  pnpm bench --startup [--startup-runs 5] [--startup-cli-runs 15] [--startup-initdb-runs 5] [--startup-idle 10000]   (cold start, CLI calls, memory of the built processes)
  pnpm bench --large-page [--large-page-bytes 1500000,limit] [--large-page-rounds 3] [--large-page-against <dir>,...]
                                                                       (one large page over HTTP, the built server: LargePageBench.ts)
  pnpm bench --markdown-attack [--attack-sizes 65536,409600] [--attack-idle 2000]   (hostile markdown while /health is probed)
  pnpm bench --sites [--sites-connections 50] [--sites-chapters 40]   (published sites only)
  pnpm bench --sites-insights [same options]                          (the same with insights and feedback on: each page read sends its beacon)
  pnpm bench --documents [--documents-large-bytes 1500000] [--documents-reads 5] [--duration 10] [--connections 50]
                                                                      (a page read as GitBook's document against its markdown and node:http, DocumentsBench.ts)
  pnpm bench --sites-large [--sites-large-pages 10000] [--profile]     (a 10,000-page site's navigation and uncached pages, SitesBench.ts)
  pnpm bench --git [--git-pages 1000]                                  (Git sync only, GitBench.ts)
  pnpm bench --ask-retrieval [--ask-questions 20]                      (Ask's sources on real GitBook repositories, AskRetrievalBench.ts)
  pnpm bench --agent-tasks                                              (the agent's success on ten edits; QUIRE_AGENT_TASKS_AI_URL for a real model, AgentTasksBench.ts)
  pnpm bench --unit [--unit-rounds 5]                                  (times unit tests no longer limit, UnitBench.ts)
  pnpm bench --fidelity <GitBook repository or project dir> [--project-dir docs] [--json]
             [--fidelity-concurrency 2] [--fidelity-timeout 30000] [--hold]   (import, export, publish, crawl: FidelityBench.ts)
  pnpm bench --web [--web-runs 5] [--web-quiet 500] [--web-keys 100] [--web-chapters 20] [--web-paragraphs 5000] [--profile]
  pnpm bench --web --web-against <dir of another build of the app> [--web-runs 5] [--web-keys 100]  (WebCompare.ts)
                                                                       (the browser app in Chromium, WebBench.ts)
  pnpm bench --live [--live-paragraphs 5000] [--live-keys 100] [--live-people 50] [--live-seconds 20] [--live-rate 5]
             [--live-browser] [--profile]
                                    (live editing: keystroke paint in Chromium, relay on one and two servers, 50 people; LiveEditingBench.ts;
                                     --live-browser: the keystroke paint only; --profile: each of its rounds once more under Chromium's profiler)
  pnpm bench --compare <git ref> [--figures orgs,large-page,links,commit] [--compare-rounds 5] [--compare-repeats 3]
             [--duration 8] [--warmup 2] [--connections 50] [--page-bytes 1500000] [--compare-pages 10000]
                                    (the production builds of <ref> and of this tree, alternately; \`.\` for this tree against itself)
  pnpm bench --smoke [--smoke-only live,web] [--smoke-concurrency 4]
                                    (every flag above, or those named, at a tiny size, through its real code path, 4 at a time;
                                     fails naming each flag that errored; with 1 at a time, each flag's CPU seconds)
`

const options = {
  duration: { type: "string" },
  rounds: { type: "string" },
  warmup: { type: "string" },
  connections: { type: "string" },
  backends: { type: "string", default: "postgres,embedded" },
  variants: { type: "boolean", default: false },
  profile: { type: "boolean", default: false },
  http: { type: "boolean", default: false },
  "http-flags": { type: "boolean", default: false },
  "http-flags-sets": { type: "string" },
  "http-flags-builds": { type: "string", default: "" },
  "http-flags-root": { type: "string" },
  "http-flags-rest": { type: "string", default: "10" },
  search: { type: "boolean", default: false },
  "skip-search": { type: "boolean", default: false },
  "search-pages": { type: "string", default: "10000" },
  "search-queries": { type: "string", default: "300" },
  merge: { type: "boolean", default: false },
  "merge-pages": { type: "string", default: "1000" },
  "merge-rounds": { type: "string", default: "5" },
  scale: { type: "boolean", default: false },
  "scale-pages": { type: "string", default: String(ScaleBench.defaultOptions.pages) },
  "scale-links-pages": { type: "string", default: String(ScaleBench.defaultOptions.linksPages) },
  "scale-commits": { type: "string", default: String(ScaleBench.defaultOptions.commits) },
  "pages-deep": { type: "boolean", default: false },
  "pages-deep-depth": { type: "string", default: "1000" },
  startup: { type: "boolean", default: false },
  "startup-runs": { type: "string", default: "5" },
  "startup-cli-runs": { type: "string" },
  "startup-initdb-runs": { type: "string" },
  "startup-idle": { type: "string", default: String(FootprintBench.defaultIdleMillis) },
  "large-page": { type: "boolean", default: false },
  "large-page-bytes": { type: "string", default: "1500000,limit" },
  "large-page-rounds": { type: "string", default: "3" },
  "large-page-against": { type: "string", default: "" },
  "markdown-attack": { type: "boolean", default: false },
  "attack-sizes": { type: "string", default: MarkdownAttackBench.defaultOptions.sizes.join(",") },
  "attack-idle": { type: "string", default: String(MarkdownAttackBench.defaultOptions.idleMillis) },
  sites: { type: "boolean", default: false },
  "ask-retrieval": { type: "boolean", default: false },
  "agent-tasks": { type: "boolean", default: false },
  "ask-questions": { type: "string" },
  "sites-connections": { type: "string", default: "50" },
  "sites-chapters": { type: "string", default: "40" },
  "sites-insights": { type: "boolean", default: false },
  "sites-large": { type: "boolean", default: false },
  "sites-large-pages": { type: "string", default: "10000" },
  documents: { type: "boolean", default: false },
  "documents-large-bytes": { type: "string", default: "1500000" },
  "documents-reads": { type: "string", default: "5" },
  git: { type: "boolean", default: false },
  "git-pages": { type: "string", default: "1000" },
  unit: { type: "boolean", default: false },
  "unit-rounds": { type: "string", default: "5" },
  fidelity: { type: "boolean", default: false },
  "project-dir": { type: "string" },
  "fidelity-concurrency": { type: "string", default: "2" },
  "fidelity-timeout": { type: "string", default: "30000" },
  "fidelity-examples": { type: "string", default: "3" },
  web: { type: "boolean", default: false },
  "web-runs": { type: "string", default: "5" },
  "web-quiet": { type: "string", default: "500" },
  "web-keys": { type: "string", default: "100" },
  "web-chapters": { type: "string", default: "20" },
  "web-paragraphs": { type: "string", default: "5000" },
  "web-against": { type: "string" },
  live: { type: "boolean", default: false },
  "live-paragraphs": { type: "string", default: String(LiveEditingBench.defaultOptions.paragraphs) },
  "live-keys": { type: "string", default: String(LiveEditingBench.defaultOptions.keys) },
  "live-people": { type: "string", default: String(LiveEditingBench.defaultOptions.people) },
  "live-seconds": { type: "string", default: String(LiveEditingBench.defaultOptions.seconds) },
  "live-rate": { type: "string", default: String(LiveEditingBench.defaultOptions.rate) },
  "live-browser": { type: "boolean", default: false },
  compare: { type: "string" },
  figures: { type: "string", default: CompareBench.figureNames.join(",") },
  "compare-rounds": { type: "string", default: "5" },
  "compare-repeats": { type: "string", default: "3" },
  "compare-pages": { type: "string", default: "10000" },
  "page-bytes": { type: "string", default: "1500000" },
  smoke: { type: "boolean", default: false },
  "smoke-only": { type: "string" },
  "smoke-concurrency": { type: "string", default: String(Smoke.defaultConcurrency) },
  json: { type: "boolean", default: false },
  hold: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false }
} as const

const parse = (argv: ReadonlyArray<string>) => parseArgs({ args: [...argv], allowPositionals: true, strict: true, options })
type Parsed = ReturnType<typeof parse>
type Args = Parsed["values"]

const adminUrl = process.env.QUIRE_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
const startedAt = performance.now()
/** A progress line on standard error, with the seconds since the bench started (where each phase's time goes). */
const say = (message: string) => console.error(`[bench ${((performance.now() - startedAt) / 1000).toFixed(1)}s] ${message}`)
const progress = (message: string) => Effect.sync(() => say(message))
const number = (value: string | undefined, fallback: number) => value === undefined ? fallback : Number(value)
const numbers = (value: string) => value.split(",").map(Number)
const profileDirectory = (args: Args) =>
  args.profile ? Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-profiles-"))) : Effect.succeed(undefined)

/** The load options of --http and --sites: 10 connections, 10 s in 5 rounds after 2 s of warm-up unless given. */
const loadOf = (args: Args, connections = number(args.connections, 10)) => ({
  duration: number(args.duration, 10),
  rounds: Math.max(1, number(args.rounds, 5)),
  warmup: number(args.warmup, 2),
  connections
})

/** One bench flag: what it runs (its report), and the arguments that run it at a tiny size (--smoke). */
interface Bench {
  readonly flag: string
  /** Runs the bench; under --smoke, `shared` holds what the smoke starts once for several flags. */
  readonly run: (args: Args, positionals: ReadonlyArray<string>, shared?: Smoke.Fixtures) => Effect.Effect<string, unknown, Scope.Scope>
  readonly smoke: (fixtures: Smoke.Fixtures) => ReadonlyArray<string>
}

/** A fifth of a second of load a target at 2 connections: autocannon, the servers and the figures all run, for little CPU. */
const tinyLoad = ["--duration", "0.2", "--rounds", "1", "--warmup", "0", "--connections", "2"]

const benches: ReadonlyArray<Bench> = [
  {
    flag: "http",
    run: (args) => HttpBench.run({ load: loadOf(args), backends: new Set(args.backends.split(",")), adminUrl, variants: args.variants, profile: args.profile }, progress),
    // Without --variants: its four extra servers from the sources were a sixth of the smoke's CPU;
    // QuireServer.ts, which they run, is --markdown-attack's server. On PostgreSQL alone, as --sites:
    // the same code measures either backend, and the embedded pass (a PGlite seeded and copied, two
    // more servers, each profiled) was half of the flag's CPU; --startup, --sites-insights and
    // --compare start the built server on the embedded database.
    smoke: () => [...tinyLoad, "--profile", "--backends", "postgres"]
  },
  {
    flag: "http-flags",
    run: (args) => Effect.gen(function*() {
      const here = (dir: string) => resolve(process.env["INIT_CWD"] ?? process.cwd(), dir)
      const only = args["http-flags-sets"]?.split(",")
      const builds = args["http-flags-builds"].split(",").filter((build) => build !== "").flatMap((build) => {
        const [name, dir] = build.split("=")
        return HttpFlagsBench.buildSets(name!, here(dir!))
      })
      const root = args["http-flags-root"] === undefined ? undefined : here(args["http-flags-root"])
      const sets = [...HttpFlagsBench.defaultSets(root), ...builds].filter((set) => only === undefined || only.includes(set.name))
      const profileDir = yield* profileDirectory(args)
      return yield* HttpFlagsBench.run({ adminUrl, sets, load: loadOf(args, number(args.connections, 50)), baseline: true, rest: Number(args["http-flags-rest"]), profileDir }, progress)
    }),
    smoke: () => [...tinyLoad, "--http-flags-sets", "start.sh", "--http-flags-rest", "0"]
  },
  {
    flag: "search",
    run: (args) => Effect.flatMap(Scratch.postgresDatabase(adminUrl), (url) =>
      SearchBench.run(url, { pages: Number(args["search-pages"]), queries: Number(args["search-queries"]) }, progress)),
    smoke: () => ["--search-pages", "100", "--search-queries", "10"]
  },
  {
    flag: "merge",
    run: (args) => Effect.flatMap(Scratch.postgresDatabase(adminUrl), (url) =>
      MergeBench.run(url, { pages: Number(args["merge-pages"]), rounds: Number(args["merge-rounds"]) }, progress)),
    smoke: () => ["--merge-pages", "100", "--merge-rounds", "1"]
  },
  {
    flag: "scale",
    run: (args) => Effect.gen(function*() {
      const url = yield* Scratch.postgresDatabase(adminUrl)
      const profileDir = yield* profileDirectory(args)
      const options = {
        pages: Number(args["scale-pages"]),
        linksPages: Number(args["scale-links-pages"]),
        commits: Math.max(3, Number(args["scale-commits"])),
        profileDir
      }
      return yield* ScaleBench.run(url, options, progress)
    }),
    smoke: () => [
      "--scale-pages", String(ScaleBench.smokeOptions.pages),
      "--scale-links-pages", String(ScaleBench.smokeOptions.linksPages),
      "--scale-commits", String(ScaleBench.smokeOptions.commits)
    ]
  },
  {
    flag: "pages-deep",
    run: (args) => Effect.flatMap(Scratch.postgresDatabase(adminUrl), (databaseUrl) =>
      DeepPagesBench.run({ databaseUrl, depth: Number(args["pages-deep-depth"]) }, progress)),
    smoke: () => ["--pages-deep-depth", "3"]
  },
  {
    flag: "startup",
    run: (args, _, shared) => Effect.gen(function*() {
      const runs = Math.max(1, Number(args["startup-runs"]))
      // Under the smoke, the CLI's calls are answered by the shared embedded server.
      const cli = shared?.embedded === undefined ? undefined : Effect.map(shared.embedded, (server) => ({ url: server.baseUrl, token: Seed.adminToken }))
      const startup = yield* StartupBench.run(runs, progress, number(args["startup-cli-runs"], Math.max(runs, 15)), cli, number(args["startup-initdb-runs"], runs))
      return `${startup}\n\n${yield* FootprintBench.run(adminUrl, progress, Number(args["startup-idle"]))}`
    }),
    // Without the start that runs initdb (the fallback when the build's initial cluster is missing),
    // a third of the flag's CPU; every other start and the memory figures run.
    smoke: () => ["--startup-runs", "1", "--startup-cli-runs", "0", "--startup-initdb-runs", "0", "--startup-idle", "200"]
  },
  {
    flag: "large-page",
    run: (args, _, fixtures) => {
      const sizes = args["large-page-bytes"].split(",").map((size) => size.trim() === "limit" ? LargePageBench.limitBytes : Number(size))
      const others = args["large-page-against"].split(",").filter((dir) => dir !== "").map((dir) => {
        const at = resolve(process.env["INIT_CWD"] ?? process.cwd(), dir)
        return { name: basename(at), root: at }
      })
      const shared = (backend: string) => {
        const server = backend === "postgres" ? fixtures?.postgres?.pipe(Effect.map((on) => on.server)) : fixtures?.embedded
        return server?.pipe(Effect.map(({ baseUrl, pid }) => ({ baseUrl, pid, token: Seed.adminToken })))
      }
      const options = { sizes, backends: new Set(args.backends.split(",")), adminUrl, rounds: Math.max(1, Number(args["large-page-rounds"])), others, shared }
      return LargePageBench.run(options, progress)
    },
    smoke: () => ["--large-page-bytes", "20000", "--large-page-rounds", "1"]
  },
  {
    flag: "markdown-attack",
    run: (args) =>
      Effect.map(MarkdownAttackBench.run({ sizes: numbers(args["attack-sizes"]), idleMillis: Number(args["attack-idle"]) }, progress), (figures) => figures.report),
    smoke: () => ["--attack-sizes", "4096", "--attack-idle", "100"]
  },
  {
    flag: "sites",
    run: (args, _, shared) => Effect.gen(function*() {
      const profileDir = yield* profileDirectory(args)
      const load = loadOf(args, Number(args["sites-connections"]))
      const options = { load, backends: new Set(args.backends.split(",")), adminUrl, profileDir, chapters: Number(args["sites-chapters"]), embedded: shared?.embedded, postgres: shared?.postgres }
      return yield* SitesBench.run(options, progress)
    }),
    // PostgreSQL here (its seeding, its transactions per request), the embedded database in --sites-insights:
    // the same code runs on each, and a second pass of either was a fifth of the smoke's CPU.
    smoke: () => [...tinyLoad, "--backends", "postgres", "--sites-connections", "2", "--sites-chapters", "2"]
  },
  {
    flag: "sites-insights",
    run: (args, _, shared) => Effect.gen(function*() {
      const profileDir = yield* profileDirectory(args)
      const load = loadOf(args, Number(args["sites-connections"]))
      const options = {
        load,
        backends: new Set(args.backends.split(",")),
        adminUrl,
        profileDir,
        chapters: Number(args["sites-chapters"]),
        insights: true,
        embedded: shared?.embedded,
        postgres: shared?.postgres
      }
      return yield* SitesBench.run(options, progress)
    }),
    smoke: () => [...tinyLoad, "--backends", "embedded", "--sites-connections", "2", "--sites-chapters", "2"]
  },
  {
    flag: "sites-large",
    run: (args) => Effect.gen(function*() {
      const profileDir = yield* profileDirectory(args)
      return yield* SitesBench.runLarge({ adminUrl, pages: Number(args["sites-large-pages"]), profileDir }, progress)
    }),
    smoke: () => ["--sites-large-pages", "100"]
  },
  {
    flag: "documents",
    run: (args, _, shared) => DocumentsBench.run({
      load: loadOf(args, number(args.connections, 50)),
      largeBytes: Number(args["documents-large-bytes"]),
      largeReads: Math.max(1, Number(args["documents-reads"])),
      server: shared?.embedded
    }, progress),
    smoke: () => [...tinyLoad, "--documents-large-bytes", "20000", "--documents-reads", "1"]
  },
  {
    flag: "git",
    run: (args, _, shared) => Effect.gen(function*() {
      const profileDir = yield* profileDirectory(args)
      const options = { backends: new Set(args.backends.split(",")), adminUrl, pages: Number(args["git-pages"]), profileDir, embedded: shared?.embedded, postgres: shared?.postgres }
      return yield* GitBench.run(options, progress)
    }),
    smoke: () => ["--git-pages", "10"]
  },
  {
    flag: "ask-retrieval",
    run: (args) => AskRetrievalBench.run(progress, args["ask-questions"] === undefined ? undefined : Number(args["ask-questions"])),
    // Two questions over their pages and 40 others: the server suite asks all twenty over every page.
    smoke: () => ["--ask-questions", "2"]
  },
  {
    flag: "agent-tasks",
    run: () => AgentTasksBench.run(progress),
    smoke: () => []
  },
  {
    flag: "unit",
    run: (args) => UnitBench.run(Math.max(1, Number(args["unit-rounds"])), progress),
    smoke: () => ["--unit-rounds", "1"]
  },
  {
    flag: "fidelity",
    run: (args, positionals, shared) => fidelity(args, positionals, shared),
    smoke: (fixtures) => [fixtures.gitbookRepository, "--fidelity-timeout", "20000"]
  },
  {
    flag: "web",
    run: (args, _, shared) => Effect.gen(function*() {
      const size = { chapters: Number(args["web-chapters"]), paragraphs: Number(args["web-paragraphs"]) }
      const against = args["web-against"]
      if (against !== undefined) {
        return yield* Effect.promise(() => WebCompare.run({
          against: resolve(against),
          rounds: Math.max(1, Number(args["web-runs"])),
          quiet: Number(args["web-quiet"]),
          keys: Math.max(1, Number(args["web-keys"])),
          size
        }, say, shared?.web))
      }
      const profileDir = yield* profileDirectory(args)
      return yield* Effect.promise(() => WebBench.run({
        runs: Math.max(1, Number(args["web-runs"])),
        quiet: Number(args["web-quiet"]),
        keys: Math.max(1, Number(args["web-keys"])),
        size: { chapters: Number(args["web-chapters"]), paragraphs: Number(args["web-paragraphs"]) },
        profileDir
      }, say, shared?.web))
    }),
    smoke: () => ["--web-runs", "1", "--web-quiet", "100", "--web-keys", "3", "--web-chapters", "1", "--web-paragraphs", "50"]
  },
  {
    // `--web --web-against <dir>`, named apart so that --smoke runs it too (this tree's app against itself).
    flag: "web-against",
    run: (args, _, shared) => byFlag("web").run(args, [], shared),
    smoke: () => [join(WebSetup.root, "dist/web"), "--web", "--web-runs", "1", "--web-quiet", "100", "--web-keys", "3", "--web-chapters", "1", "--web-paragraphs", "50"]
  },
  {
    flag: "live",
    run: (args, _, shared) => Effect.gen(function*() {
      const profileDir = yield* profileDirectory(args)
      return yield* LiveEditingBench.run({
        paragraphs: Math.max(10, Number(args["live-paragraphs"])),
        keys: Math.max(1, Number(args["live-keys"])),
        people: Math.max(1, Number(args["live-people"])),
        seconds: Number(args["live-seconds"]),
        rate: Math.max(0.1, Number(args["live-rate"])),
        adminUrl,
        browserOnly: args["live-browser"],
        profileDir
      }, say, shared?.web)
    }),
    smoke: () => ["--live-paragraphs", "50", "--live-keys", "5", "--live-people", "3", "--live-seconds", "1"]
  },
  {
    flag: "compare",
    run: (args) => Effect.gen(function*() {
      const figures = args.figures.split(",").map((figure) => figure.trim())
      const unknown = figures.filter((figure) => !(CompareBench.figureNames as ReadonlyArray<string>).includes(figure))
      if (unknown.length > 0) return yield* Effect.fail(new Error(`--figures: unknown ${unknown.join(", ")}; choose from ${CompareBench.figureNames.join(",")}`))
      const result = yield* CompareBench.run({
        ref: args.compare!,
        figures: figures as ReadonlyArray<CompareBench.FigureName>,
        adminUrl,
        rounds: Math.max(1, Number(args["compare-rounds"])),
        connections: number(args.connections, 50),
        duration: number(args.duration, 8),
        warmup: number(args.warmup, 2),
        pageBytes: Number(args["page-bytes"]),
        pages: Number(args["compare-pages"]),
        repeats: Math.max(1, Number(args["compare-repeats"])),
        oneServerForSameBuild: args.smoke
      }, progress)
      return result.report
    }),
    // `.`: this tree against itself, so nothing is built twice.
    // A warm-up first and a second of load: on a busy machine a cold server may answer nothing in
    // the tiny load's 0.2 s.
    smoke: () => [".", ...tinyLoad, "--warmup", "0.5", "--duration", "1", "--compare-rounds", "1", "--compare-repeats", "2", "--page-bytes", "20000", "--compare-pages", "50"]
  }
]

/** --fidelity: only the report goes to standard output (the seed's and the server's logs to standard error). */
const fidelity = (args: Args, positionals: ReadonlyArray<string>, shared?: Smoke.Fixtures) =>
  Effect.gen(function*() {
    const path = positionals[0]
    if (path === undefined) return yield* Effect.fail(new Error("pnpm bench --fidelity <path of a GitBook repository or project directory>"))
    const examples = Number(args["fidelity-examples"])
    const print = console.log
    console.log = console.error
    const report = yield* FidelityBench.run({
      // pnpm runs the script in tooling/bench: a relative path is the caller's.
      path: resolve(process.env["INIT_CWD"] ?? process.cwd(), path),
      projectDirectory: args["project-dir"],
      concurrency: Math.max(1, Number(args["fidelity-concurrency"])),
      timeout: Number(args["fidelity-timeout"]),
      examples,
      server: shared?.embedded,
      browser: shared?.web?.browser
    }).pipe(Effect.ensuring(Effect.sync(() => (console.log = print))))
    if (report.errors.length > 0 && args.smoke) return yield* Effect.fail(new Error(`fidelity: ${report.errors.join("; ")}`))
    if (args.hold) {
      print(`\n${FidelityBench.table(report, examples)}`)
      console.error(`[bench] fidelity: the site stays at ${report.site} until Ctrl-C`)
      return yield* Effect.never
    }
    return args.json ? JSON.stringify(report, null, 2) : FidelityBench.table(report, examples)
  })

/** The bench a command line asks for, or undefined when it names none. */
const chosen = (args: Args) =>
  benches.find((bench) => bench.flag === "compare" ? args.compare !== undefined : args[bench.flag as keyof Args] === true)

const byFlag = (flag: string) => benches.find((bench) => bench.flag === flag)!

/** Runs the bench `argv` chooses and prints its report. */
const runArgv = ({ values: args, positionals }: Parsed): Effect.Effect<void, unknown, Scope.Scope> => {
  const bench = chosen(args)
  if (bench !== undefined) return Effect.flatMap(bench.run(args, positionals), (report) => Effect.sync(() => console.log(`\n${report}`)))
  // Without a flag: the HTTP comparison, search, merge, large pages, the unit tests' times, start-up.
  const flags = ["http", ...(args["skip-search"] ? [] : ["search"]), "merge", "large-page", "unit", "startup"]
  return Effect.forEach(flags, (flag) =>
    Effect.flatMap(Effect.scoped(byFlag(flag).run(args, positionals)), (report) => Effect.sync(() => console.log(`\n${report}`))), { discard: true })
}

/** The command line, or the usage (asked for, or after a wrong option's error) and an exit. */
const commandLine = (): Parsed => {
  try {
    const parsed = parse(process.argv.slice(2))
    if (!parsed.values.help) return parsed
    console.log(usage)
    process.exit(0)
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`)
    process.exit(2)
  }
}
const argv = commandLine()
/** The flags --smoke runs: all, or those --smoke-only names (one bench checked alone, without the others' load). */
const smoked = (only: string | undefined) => {
  if (only === undefined) return benches
  const names = only.split(",").map((name) => name.trim().replace(/^--/, ""))
  const unknown = names.filter((name) => !benches.some((bench) => bench.flag === name))
  if (unknown.length > 0) throw new Error(`--smoke-only: unknown ${unknown.join(", ")}; choose from ${benches.map((bench) => bench.flag).join(",")}`)
  return benches.filter((bench) => names.includes(bench.flag))
}
const main = argv.values.smoke
  ? Smoke.run(smoked(argv.values["smoke-only"]).map((bench) => ({
    flag: bench.flag,
    argv: (fixtures: Smoke.Fixtures) => [`--${bench.flag}`, ...bench.smoke(fixtures), "--smoke"],
    run: (args: ReadonlyArray<string>, fixtures: Smoke.Fixtures) => {
      const parsed = parse(args)
      return Effect.scoped(byFlag(bench.flag).run(parsed.values, parsed.positionals, fixtures))
    }
  })), progress, adminUrl, Math.max(1, Number(argv.values["smoke-concurrency"])))
  : Effect.scoped(runArgv(argv))

NodeRuntime.runMain(main)
