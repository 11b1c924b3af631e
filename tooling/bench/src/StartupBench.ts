/**
 * `pnpm bench --startup`: the built server (tooling/build, as the Dockerfile builds and starts it)
 * on the embedded database, from spawn to the first `200` of /health, on a new data directory (made
 * from the build's initial cluster, and for comparison by initdb) and on one that already holds a
 * database; then the time from SIGTERM to its exit. Then the CLI: a `quire whoami` answered by
 * that server, from spawn to exit, through `./quire` (the bundle when it is up to date), through
 * `start.sh quire`, and from the sources, against issue 12's target of 300 ms.
 */
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { existsSync, readFileSync, statSync } from "node:fs"
import { copyFile, cp, link, mkdir, mkdtemp, readdir, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import { LocalServer } from "@quire/testkit"
import * as Build from "./Build.ts"

const root = fileURLToPath(new URL("../../..", import.meta.url))

interface Run {
  readonly startup: number
  readonly stop: number
  readonly code: number | null
}

/**
 * One start of the server on `dataDir` with `start.sh` of the checkout at `from` (or a copy of
 * it), stopped with SIGTERM as soon as it is healthy.
 */
const once = async (dataDir: string, from = root): Promise<Run> => {
  const port = await LocalServer.freePort()
  const { DATABASE_URL: _, ...env } = process.env
  // The Node that start.sh picks in the checkout: a copy has no node_modules to pick it from.
  const checkoutNode = join(root, "node_modules/node/bin/node")
  const node = from === root || env.QUIRE_NODE !== undefined
    ? {}
    : { QUIRE_NODE: existsSync(checkoutNode) ? checkoutNode : "node" }
  const spawned = performance.now()
  const child = spawn("sh", [join(from, "tooling/build/start.sh"), "server"], {
    cwd: from,
    env: { ...env, ...node, PORT: String(port), HOST: "127.0.0.1", QUIRE_DATA_DIR: dataDir },
    stdio: "ignore"
  })
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once("exit", (code) => resolve({ code, at: performance.now() }))
  )
  while (child.exitCode === null) {
    if (await fetch(`http://127.0.0.1:${port}/health`).then((response) => response.ok, () => false)) break
    await sleep(10)
  }
  const startup = performance.now() - spawned
  const signalled = performance.now()
  child.kill("SIGTERM")
  const { at, code } = await exited
  return { startup, stop: at - signalled, code }
}

/** The CLI's start-up target (issue 12): a call answers in under this many milliseconds. */
const cliTarget = 300

/** Whether bin/quire.mjs would run the bundle: no input of its build is newer than dist/quire.mjs. */
const bundleIsFresh = () => {
  try {
    const built = statSync(join(root, "dist/quire.mjs")).mtimeMs
    const inputs = JSON.parse(readFileSync(join(root, "dist/quire.inputs.json"), "utf8")) as ReadonlyArray<string>
    return inputs.every((input) => statSync(join(root, input)).mtimeMs <= built)
  } catch {
    return false
  }
}

/** One `quire whoami` through `command`, answered by the server at `url`: spawn to exit, in ms. */
const call = (command: ReadonlyArray<string>, url: string, token: string, extra: Record<string, string> = {}) =>
  new Promise<{ readonly ms: number; readonly code: number | null }>((resolve) => {
    const started = performance.now()
    const [file, ...args] = command
    const child = spawn(file!, [...args, "whoami"], {
      cwd: root,
      env: { ...process.env, QUIRE_URL: url, QUIRE_TOKEN: token, ...extra },
      stdio: "ignore"
    })
    child.once("exit", (code) => resolve({ ms: performance.now() - started, code }))
  })

/** A built server that answers the CLI's calls, and the token they carry. */
export interface CliServer {
  readonly url: string
  readonly token: string
}

/** The built server on `dataDir` (a database the start-ups made), answering once /health does; its stop. */
const cliServer = async (dataDir: string): Promise<CliServer & { readonly stop: () => void }> => {
  const port = await LocalServer.freePort()
  const token = "quire_bench_cli_token_0123456789"
  const { DATABASE_URL: _, ...env } = process.env
  const server = spawn("sh", [join(root, "tooling/build/start.sh"), "server"], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: "127.0.0.1", QUIRE_DATA_DIR: dataDir, QUIRE_ADMIN_TOKEN: token },
    stdio: "ignore"
  })
  const url = `http://127.0.0.1:${port}`
  while (server.exitCode === null) {
    if (await fetch(`${url}/health`).then((response) => response.ok, () => false)) break
    await sleep(10)
  }
  return { url, token, stop: () => server.kill("SIGTERM") }
}

/**
 * `quire whoami` against a built server (its opening is not what is measured): one of its own on
 * `dataDir`, or `shared` when given: the first call (an empty compile cache) and `runs` more, by
 * each way to run it.
 */
const cliCalls = async (scratch: string, dataDir: string, runs: number, shared?: CliServer) => {
  const own = shared === undefined ? await cliServer(dataDir) : undefined
  const { url, token } = shared ?? own!
  try {
    const compileCache = join(scratch, "compile-cache")
    // ./quire runs the bundle only while no source is newer than it (bin/quire.mjs); say which it ran.
    const fresh = bundleIsFresh()
    const ways: ReadonlyArray<readonly [string, ReadonlyArray<string>, Record<string, string>, bundle: boolean]> = [
      ["start.sh quire (bundle)", ["sh", join(root, "tooling/build/start.sh"), "quire"], {}, true],
      [`./quire (${fresh ? "bundle" : "sources, bundle is stale"})`, [join(root, "quire")], {}, fresh],
      ["./quire, sources (tsx)", [join(root, "quire")], { QUIRE_CLI_SOURCES: "1" }, false]
    ]
    const lines: Array<string> = []
    let failures = 0
    for (const [label, command, extra, bundle] of ways) {
      const first = await call(command, url, token, { ...extra, NODE_COMPILE_CACHE: compileCache })
      const timings: Array<number> = []
      for (let i = 0; i < runs; i++) {
        const run = await call(command, url, token, { ...extra, NODE_COMPILE_CACHE: compileCache })
        if (run.code !== 0) failures++
        timings.push(run.ms)
      }
      if (first.code !== 0) failures++
      // With no runs beyond the first (the smoke), the first call is the figure.
      if (timings.length === 0) timings.push(first.ms)
      const verdict = bundle ? (median(timings) < cliTarget ? "   PASS" : "   MISS") : ""
      lines.push(`${describe(`  ${label}`, timings)}   first ${first.ms.toFixed(0).padStart(5)} ms${verdict}`)
    }
    return [
      `CLI call (\`quire whoami\` answered by the built server, spawn to exit; target < ${cliTarget} ms), ${runs} runs:`,
      ...lines,
      `  exits with a status other than 0: ${failures}`
    ].join("\n")
  } finally {
    own?.stop()
  }
}

/** A CLI call costs a fifth of a second: enough of them that one slow call on a shared machine does not move the median. */
const cliRuns = 15

const median = (values: ReadonlyArray<number>) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!

const describe = (label: string, values: ReadonlyArray<number>) =>
  `${label.padEnd(34)} median ${median(values).toFixed(0).padStart(5)} ms   min ${Math.min(...values).toFixed(0).padStart(5)}   max ${
    Math.max(...values).toFixed(0).padStart(5)
  }`

/**
 * The files of `from` that `keep` admits, under `to` as hard links (copies where the file system
 * refuses a link): a second dist/ without writing its 200 MB again, which took a copy 20 s on a
 * loaded machine. A link is the file itself, so the bundles find their assets beside them, as
 * they would not through a symbolic link (Node resolves those to the original dist/).
 */
const linkTree = async (from: string, to: string, keep: (file: string) => boolean): Promise<void> => {
  await mkdir(to, { recursive: true })
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name)
    const target = join(to, entry.name)
    if (entry.isDirectory()) await linkTree(source, target, keep)
    else if (keep(source)) await link(source, target).catch(() => copyFile(source, target))
  }
}

/**
 * Builds dist/ (when a source is newer than it), then starts the server `runs` times on new and on
 * existing data directories (and `initdbRuns` of them without the build's initial cluster, which
 * makes PGlite run initdb), then times `cliRuns` CLI calls of each kind.
 */
export const run = (
  runs: number,
  progress: (message: string) => Effect.Effect<void>,
  cliCallRuns = Math.max(runs, cliRuns),
  cli?: Effect.Effect<CliServer, unknown>,
  initdbRuns = runs
) =>
  Effect.gen(function*() {
    yield* Build.current(progress)
    const scratch = yield* Effect.acquireRelease(
      Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-startup-"))),
      (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
    )
    // The same build without dist/pglite-initial.tar.gz, in a copy of hard links: PGlite runs initdb.
    const withoutDump = join(scratch, "without-initial-cluster")
    if (initdbRuns > 0) {
      yield* Effect.promise(async () => {
        await mkdir(join(withoutDump, "tooling/build"), { recursive: true })
        await cp(join(root, "tooling/build/start.sh"), join(withoutDump, "tooling/build/start.sh"))
        await linkTree(join(root, "dist"), join(withoutDump, "dist"), (file) => !file.endsWith("pglite-initial.tar.gz") && !file.endsWith(".map"))
      })
    }
    const fresh: Array<Run> = []
    const initdb: Array<Run> = []
    const existing: Array<Run> = []
    for (let i = 0; i < runs; i++) {
      yield* progress(`startup ${i + 1}/${runs}`)
      fresh.push(yield* Effect.promise(() => once(join(scratch, `new-${i}`))))
      // The database the first new start created, reopened (no start of its own to make it).
      existing.push(yield* Effect.promise(() => once(join(scratch, "new-0"))))
      if (i < initdbRuns) initdb.push(yield* Effect.promise(() => once(join(scratch, `initdb-${i}`), withoutDump)))
    }
    const all = [...fresh, ...existing, ...initdb]
    const shared = cli === undefined ? undefined : yield* cli
    const failures = all.filter((run) => run.code !== 0).length
    return [
      `Cold start of the built server on the embedded database (spawn to /health 200), ${runs} runs:`,
      describe("  existing data directory", existing.map((run) => run.startup)),
      describe("  new data directory", fresh.map((run) => run.startup)),
      initdb.length === 0 ? "  new, without the initial cluster   not run (--startup-initdb-runs 0)" : describe("  new, without the initial cluster", initdb.map((run) => run.startup)),
      describe("  SIGTERM to exit", all.map((run) => run.stop)),
      `  exits with a status other than 0: ${failures}`,
      "",
      yield* Effect.promise(() => cliCalls(scratch, join(scratch, "new-0"), cliCallRuns, shared))
    ].join("\n")
  })
