import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { SqlClient } from "effect/sql"
import { Database } from "@quire/db"
import { Backends } from "@quire/testkit"

const root = fileURLToPath(new URL("../../..", import.meta.url))

interface Started {
  readonly child: ChildProcess
  /** Everything the process printed so far. */
  readonly output: () => string
  readonly exitCode: Promise<number | null>
}

/**
 * Starts the worker as production does: the production build's bundle (dist/worker.mjs, made in
 * the global setup) through tooling/build/start.sh, which execs Node (no pnpm or shim in between).
 */
const start = (env: Record<string, string | undefined>): Started => {
  const environment = { ...process.env, ...env }
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete environment[key]
  const child = spawn("sh", [join(root, "tooling/build/start.sh"), "worker"], { cwd: root, env: environment })
  let output = ""
  child.stdout.on("data", (chunk) => (output += String(chunk)))
  child.stderr.on("data", (chunk) => (output += String(chunk)))
  const exitCode = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return { child, output: () => output, exitCode }
}

const waitForOutput = (started: Started, text: string) =>
  Effect.gen(function*() {
    while (!started.output().includes(text)) yield* Effect.sleep("50 millis")
  }).pipe(
    Effect.timeout("60 seconds"),
    Effect.orDie
  )

describe("worker process", () => {
  it.live("exits with a clear message when DATABASE_URL is missing", () =>
    Effect.gen(function*() {
      const worker = start({ DATABASE_URL: undefined })
      const code = yield* Effect.promise(() => worker.exitCode)
      assert.strictEqual(code, 1)
      assert.include(worker.output(), "DATABASE_URL is not set")
    }), { timeout: 60_000 })

  it.live("a database it cannot reach is one line on stderr without a stack trace, exit 1", () =>
    Effect.gen(function*() {
      const worker = start({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/does_not_exist" })
      let stderr = ""
      worker.child.stderr?.on("data", (chunk) => (stderr += String(chunk)))
      const code = yield* Effect.promise(() => worker.exitCode)
      assert.strictEqual(code, 1)
      const lines = stderr.split("\n").filter((line) => line.trim() !== "")
      assert.lengthOf(lines, 1, stderr)
      assert.include(lines[0]!, `quire worker: cannot start: cannot connect to the database at postgres://postgres@127.0.0.1:5432/does_not_exist`)
      assert.include(lines[0]!, `database "does_not_exist" does not exist`)
      assert.notInclude(worker.output(), "    at ")
    }), { timeout: 60_000 })

  it.live("runs graphile-worker until SIGTERM, then stops gracefully", () =>
    Effect.gen(function*() {
      const db = yield* Database.DatabaseInfo
      const worker = start({ DATABASE_URL: db.url })
      yield* Effect.addFinalizer(() => Effect.sync(() => worker.child.kill("SIGKILL")))
      yield* waitForOutput(worker, "Worker started")

      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ n: number }>`
        select count(*)::int as n from information_schema.tables where table_schema = 'graphile_worker'`.pipe(Effect.orDie)
      assert.isAbove(rows[0]!.n, 0, "graphile-worker migrations ran")

      worker.child.kill("SIGTERM")
      const code = yield* Effect.promise(() => worker.exitCode)
      assert.strictEqual(code, 0)
      assert.include(worker.output(), "Worker stopped")
    }).pipe(Effect.provide(Backends.layerPostgresTest)), { timeout: 120_000 })
})
