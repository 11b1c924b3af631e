/**
 * `pnpm bench --startup`: the built server (tooling/build, as the Dockerfile builds and starts it)
 * on the embedded database, from spawn to the first `200` of /health, on a new data directory (made
 * from the build's initial cluster, and for comparison by initdb) and on one that already holds a
 * database; then the time from SIGTERM to its exit.
 */
import { Effect } from "effect"
import { execFileSync, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import { LocalServer } from "@quire/testkit"

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

const median = (values: ReadonlyArray<number>) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!

const describe = (label: string, values: ReadonlyArray<number>) =>
  `${label.padEnd(34)} median ${median(values).toFixed(0).padStart(5)} ms   min ${Math.min(...values).toFixed(0).padStart(5)}   max ${
    Math.max(...values).toFixed(0).padStart(5)
  }`

/** Builds dist/, then starts the server `runs` times on new and on existing data directories. */
export const run = (runs: number, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    yield* progress("building dist/ (node tooling/build/build.mjs)")
    yield* Effect.sync(() => execFileSync(process.execPath, [join(root, "tooling/build/build.mjs")], { stdio: "inherit" }))
    const scratch = yield* Effect.acquireRelease(
      Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-startup-"))),
      (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
    )
    // The same build without dist/pglite-initial.tar.gz, in a copy: PGlite runs initdb.
    const withoutDump = join(scratch, "without-initial-cluster")
    yield* Effect.promise(async () => {
      await mkdir(join(withoutDump, "tooling/build"), { recursive: true })
      await cp(join(root, "tooling/build/start.sh"), join(withoutDump, "tooling/build/start.sh"))
      await cp(join(root, "dist"), join(withoutDump, "dist"), {
        recursive: true,
        filter: (file) => !file.endsWith("pglite-initial.tar.gz") && !file.endsWith(".map")
      })
    })
    // The first start creates the database that the "existing" runs reopen.
    yield* Effect.promise(() => once(join(scratch, "existing")))
    const fresh: Array<Run> = []
    const initdb: Array<Run> = []
    const existing: Array<Run> = []
    for (let i = 0; i < runs; i++) {
      yield* progress(`startup ${i + 1}/${runs}`)
      fresh.push(yield* Effect.promise(() => once(join(scratch, `new-${i}`))))
      existing.push(yield* Effect.promise(() => once(join(scratch, "existing"))))
      initdb.push(yield* Effect.promise(() => once(join(scratch, `initdb-${i}`), withoutDump)))
    }
    const all = [...fresh, ...existing, ...initdb]
    const failures = all.filter((run) => run.code !== 0).length
    return [
      `Cold start of the built server on the embedded database (spawn to /health 200), ${runs} runs:`,
      describe("  existing data directory", existing.map((run) => run.startup)),
      describe("  new data directory", fresh.map((run) => run.startup)),
      describe("  new, without the initial cluster", initdb.map((run) => run.startup)),
      describe("  SIGTERM to exit", all.map((run) => run.stop)),
      `  exits with a status other than 0: ${failures}`
    ].join("\n")
  })
