/**
 * `pnpm bench --smoke`: every bench flag at a tiny size in this process, each through its real code
 * path (servers started, requests made, figures computed and printed), so a bench that no longer
 * runs is a failing test (test/Smoke.test.ts runs this in `pnpm test`). It builds dist/ first only
 * when a source is newer (Build.current), so that the flags that start the built server share one
 * build, and fails naming each flag that errored.
 *
 * The flags run `concurrency` at a time (4; `--smoke-concurrency`), the longest first: each waits on
 * its servers, databases and child processes most of its time. Each has its own database, directory
 * and ports, except the browser flags, which share one Chromium and one built server serving the app
 * (SharedWeb.ts), and the flags that need only a built server on the embedded database with the
 * admin token (--documents, --sites-insights, --git's embedded pass, --fidelity, --startup's CLI
 * calls), which share one, and those that need one on PostgreSQL (--sites, --git's PostgreSQL pass),
 * which share another: each makes its own organization there. Their reports are printed at the end, in the
 * order of `entries`, since a flag may redirect standard output while it runs (--fidelity). One at a
 * time, the summary gives each flag's CPU seconds too: where the smoke's CPU goes.
 */
import { Cause, Duration, Effect, Exit, Scope } from "effect"
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as BenchScripts from "./BenchScripts.ts"
import { Database } from "@quire/db"
import * as Build from "./Build.ts"
import * as Scratch from "./Scratch.ts"
import * as Seed from "./Seed.ts"
import * as Servers from "./Servers.ts"
import * as SharedWeb from "./SharedWeb.ts"
import type * as WebSetup from "./WebSetup.ts"

/** What some flags need besides their sizes. */
export interface Fixtures {
  /** A tiny GitBook repository (a git repository: SUMMARY.md, pages, a link, a hint). */
  readonly gitbookRepository: string
  /** The browser flags' Chromium and built server, started once for the whole smoke. */
  readonly web?: WebSetup.Shared | undefined
  /**
   * The built server on a new embedded database with the bench's admin token, for the flags that
   * need nothing else (each makes its own organization there): started by the first that asks.
   */
  readonly embedded?: Effect.Effect<Servers.Running, Servers.ServerError> | undefined
  /** The same on a new PostgreSQL database seeded as --sites and --git seed theirs (--git starts its worker beside it). */
  readonly postgres?: Effect.Effect<Servers.OnPostgres, unknown> | undefined
}

export interface Entry {
  readonly flag: string
  readonly argv: (fixtures: Fixtures) => ReadonlyArray<string>
  /** Runs the bench with `argv`, and with what `fixtures` shares; its report. */
  readonly run: (argv: ReadonlyArray<string>, fixtures: Fixtures) => Effect.Effect<string, unknown>
}

/** The longest one flag may take before it counts as failed. */
const perFlag = Duration.minutes(10)

/** Flags run at once, unless told (`--smoke-concurrency 1`: one after another, with each flag's CPU). */
export const defaultConcurrency = 4

/**
 * The flags that take longest at smoke size, longest first (the order they start in; the others
 * follow in their own order), so that no long flag starts last and runs alone.
 */
const longestFirst = [
  "live", "web-against", "startup", "sites", "web", "http", "compare", "http-flags", "git", "ask-retrieval", "sites-large", "sites-insights", "search", "pages-deep"
]

const gitbookFiles: Record<string, string> = {
  "README.md": "# Tiny handbook\n\nStart with [the guide](guide/README.md).\n",
  "SUMMARY.md": "# Table of contents\n\n* [Tiny handbook](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n",
  "guide/README.md": "# Guide\n\n{% hint style=\"info\" %}\nRead [Install](install.md) first.\n{% endhint %}\n",
  "guide/install.md": "---\ndescription: How to install it\n---\n\n# Install\n\n## Requirements\n\nSee [the guide](README.md#guide).\n"
}

/** Writes the tiny GitBook repository into `dir` and commits it. */
export const gitbookRepository = (dir: string) => {
  for (const [path, text] of Object.entries(gitbookFiles)) {
    mkdirSync(join(dir, path, ".."), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  const git = (...args: ReadonlyArray<string>) =>
    execFileSync("git", ["-c", "user.name=Smoke", "-c", "user.email=smoke@bench.test", ...args], { cwd: dir, stdio: "ignore" })
  git("init", "--quiet", "--initial-branch=main")
  git("add", "--all")
  git("commit", "--quiet", "--no-verify", "-m", "A tiny GitBook repository")
  return dir
}

/** The parent pid and the CPU ticks (its own and its waited-for children's) of process `pid`, from /proc. */
const statOf = (pid: string) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return { parent: fields[1]!, ticks: [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) }
  } catch {
    return undefined
  }
}

/**
 * CPU seconds of this process and of every process below it: those it has waited for (the servers
 * it stopped) and those still running (the servers and the browser shared by several flags).
 */
const cpuSeconds = () => {
  const parents = new Map<string, string>()
  const ticks = new Map<string, number>()
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue
    const stat = statOf(pid)
    if (stat === undefined) continue
    parents.set(pid, stat.parent)
    ticks.set(pid, stat.ticks)
  }
  const self = String(process.pid)
  const below = (pid: string): boolean => {
    for (let at: string | undefined = pid; at !== undefined && at !== "0"; at = parents.get(at)) if (at === self) return true
    return false
  }
  let total = 0
  for (const [pid, n] of ticks) if (below(pid)) total += n
  return total / 100
}

interface Outcome {
  readonly flag: string
  readonly seconds: number
  /** CPU seconds of this process and the processes below it over the flag's run: its own only when flags run one at a time. */
  readonly cpu: number
  readonly report?: string | undefined
  readonly error?: string | undefined
}

const runOne = (entry: Entry, fixtures: Fixtures, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const argv = entry.argv(fixtures)
    yield* progress(`smoke: ${argv.join(" ")}`)
    const started = performance.now()
    const cpu = cpuSeconds()
    const exit = yield* Effect.exit(entry.run(argv, fixtures).pipe(Effect.timeout(perFlag)))
    const seconds = (performance.now() - started) / 1000
    const error = Exit.isFailure(exit)
      ? Cause.pretty(exit.cause).split("\n").slice(0, 12).join("\n")
      : /\d/.test(exit.value) ? undefined : `it printed no figure: ${JSON.stringify(exit.value.slice(0, 200))}`
    const used = cpuSeconds() - cpu
    yield* progress(`smoke: --${entry.flag} ${error === undefined ? "ok" : "FAILED"} in ${seconds.toFixed(1)} s, ${used.toFixed(1)} s of CPU while it ran`)
    return { flag: entry.flag, seconds, cpu: used, report: Exit.isSuccess(exit) ? exit.value : undefined, error } satisfies Outcome
  })

/**
 * Runs `entries` with `fixtures`, `concurrency` at a time, prints their reports and a line per flag;
 * fails naming the flags that errored or printed no figure.
 */
export const runEntries = (
  entries: ReadonlyArray<Entry>,
  fixtures: Fixtures,
  progress: (message: string) => Effect.Effect<void>,
  concurrency = defaultConcurrency
) =>
  Effect.gen(function*() {
    const started = performance.now()
    const cpu = cpuSeconds()
    const rank = (entry: Entry) => {
      const at = longestFirst.indexOf(entry.flag)
      return at === -1 ? longestFirst.length : at
    }
    const order = entries.toSorted((a, b) => rank(a) - rank(b))
    const finished = yield* Effect.forEach(order, (entry) => runOne(entry, fixtures, progress), { concurrency })
    const outcomes = entries.map((entry) => finished.find((outcome) => outcome.flag === entry.flag)!)
    for (const outcome of outcomes) if (outcome.report !== undefined) console.log(`\n${outcome.report}`)
    const failed = outcomes.filter((outcome) => outcome.error !== undefined)
    const lines = [
      "",
      `bench --smoke: ${outcomes.length} flags in ${((performance.now() - started) / 1000).toFixed(0)} s, ${concurrency} at a time, ` +
      `${(cpuSeconds() - cpu).toFixed(0)} s of CPU (this process and every process it started)`,
      ...outcomes.map((o) =>
        `  --${o.flag.padEnd(16)} ${o.error === undefined ? "ok    " : "FAILED"} ${o.seconds.toFixed(1).padStart(6)} s` +
        (concurrency === 1 ? ` ${o.cpu.toFixed(1).padStart(6)} s of CPU` : ""))
    ]
    console.log(lines.join("\n"))
    for (const outcome of failed) console.error(`\n--${outcome.flag} errored:\n${outcome.error}`)
    if (failed.length > 0) return yield* Effect.fail(new Error(`bench --smoke: ${failed.map((o) => `--${o.flag}`).join(", ")} errored`))
  })

/**
 * The shared embedded server, stopped when the smoke's scope closes. Git's local repositories
 * (--git, --fidelity) are file URLs, which it is told to allow, with its own Git cache.
 */
const sharedEmbedded = (scratch: string) =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    return yield* Effect.cached(Servers.start("quire (embedded)", {
      server: "quire",
      backend: { kind: "embedded", dataDir: join(scratch, "shared-embedded") },
      env: { QUIRE_GIT_ALLOW_FILE: "1", QUIRE_GIT_CACHE_DIR: join(scratch, "shared-git-cache") },
      adminToken: Seed.adminToken,
      adminEmail: Seed.adminEmail
    }).pipe(Scope.provide(scope)))
  })

/**
 * The shared server on PostgreSQL, with its database dropped and the server stopped when the
 * smoke's scope closes; its settings are those --git's worker needs too (one instance secret).
 */
const sharedPostgres = (scratch: string, adminUrl: string) =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    return yield* Effect.cached(Effect.gen(function*() {
      const databaseUrl = yield* Scratch.postgresDatabase(adminUrl)
      yield* Seed.seed(Database.layerUrl(databaseUrl))
      const env = {
        QUIRE_GIT_ALLOW_FILE: "1",
        QUIRE_GIT_CACHE_DIR: join(scratch, "shared-postgres-git-cache"),
        QUIRE_SECRET: randomBytes(32).toString("hex")
      }
      const server = yield* Servers.start("quire (postgres)", {
        server: "quire",
        backend: { kind: "postgres", url: databaseUrl },
        env,
        adminToken: Seed.adminToken,
        adminEmail: Seed.adminEmail
      })
      return { server, databaseUrl, env } satisfies Servers.OnPostgres
    }).pipe(Scope.provide(scope)))
  })

/** Builds dist/ when stale, writes the fixtures, and runs every entry; fails naming the flags that errored. */
export const run = (
  entries: ReadonlyArray<Entry>,
  progress: (message: string) => Effect.Effect<void>,
  adminUrl: string,
  concurrency = defaultConcurrency
) =>
  Effect.scoped(Effect.gen(function*() {
    // The flags that start the built server share this build; embedded databases start from its initial one.
    yield* Build.current(progress)
    // And those that start the benches' own servers, this bundle (made here once, not by each flag at once).
    yield* BenchScripts.current(progress)
    const scratch = yield* Scratch.directory
    const fixtures: Fixtures = {
      gitbookRepository: gitbookRepository(join(scratch, "gitbook")),
      web: yield* SharedWeb.make,
      embedded: yield* sharedEmbedded(scratch),
      postgres: yield* sharedPostgres(scratch, adminUrl)
    }
    yield* runEntries(entries, fixtures, progress, concurrency)
  }))
