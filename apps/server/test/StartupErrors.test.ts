/**
 * A server that cannot start says why in one line on stderr, without a stack trace, and exits 1:
 * a database that does not exist, a port another process holds.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Database } from "@quire/db"
import { Services } from "@quire/platform"
import { Backends, LocalServer } from "@quire/testkit"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"

const root = fileURLToPath(new URL("../../..", import.meta.url))

/** Runs the built server (dist/server.mjs) until it exits. */
const run = (env: Record<string, string>) =>
  Effect.promise(async () => {
    const [node, bundle] = await ProductionBuild.argv(root, "server")
    return new Promise<{ readonly code: number | null; readonly stderr: string; readonly stdout: string }>((resolve) => {
      const dataDir = mkdtempSync(join(tmpdir(), "quire-startup-"))
      const { DATABASE_URL: _, QUIRE_SECRET: __, ...inherited } = process.env
      const child = spawn(node, [bundle], {
        cwd: root,
        env: { ...inherited, HOST: "127.0.0.1", QUIRE_DATA_DIR: dataDir, QUIRE_ADMIN_TOKEN: "quire_startup_test_token_0123456789", ...env },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk) => (stdout += String(chunk)))
      child.stderr.on("data", (chunk) => (stderr += String(chunk)))
      const timer = setTimeout(() => child.kill("SIGKILL"), 90_000)
      child.once("exit", (code) => {
        clearTimeout(timer)
        rmSync(dataDir, { recursive: true, force: true })
        resolve({ code, stderr, stdout })
      })
    })
  })

const linesOf = (text: string) => text.split("\n").filter((line) => line.trim() !== "")

describe("start-up errors", () => {
  it.live("a database that does not exist: one line naming it, exit 1", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(() => LocalServer.freePort())
      const result = yield* run({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/does_not_exist", PORT: String(port) })
      assert.strictEqual(result.code, 1)
      const lines = linesOf(result.stderr)
      assert.lengthOf(lines, 1, result.stderr)
      assert.match(lines[0]!, /^quire server: cannot start: cannot connect to the database at postgres:\/\/postgres@127\.0\.0\.1:5432\/does_not_exist: /)
      assert.include(lines[0]!, `database "does_not_exist" does not exist`)
      assert.notInclude(result.stdout + result.stderr, "    at ", "no stack trace")
    }), { timeout: 120_000 })

  it.live("a port another process listens on: one line naming the address, exit 1", () =>
    Effect.gen(function*() {
      // A database already migrated, as a server's second start finds it: it migrates before it listens.
      const db = yield* Database.DatabaseInfo
      const holder = createServer()
      const port = yield* Effect.promise(() =>
        new Promise<number>((resolve) => holder.listen(0, "127.0.0.1", () => resolve((holder.address() as { port: number }).port)))
      )
      yield* Effect.addFinalizer(() => Effect.sync(() => holder.close()))
      const result = yield* run({ DATABASE_URL: db.url, PORT: String(port) })
      assert.strictEqual(result.code, 1)
      const lines = linesOf(result.stderr)
      assert.lengthOf(lines, 1, result.stderr)
      assert.strictEqual(
        lines[0],
        `quire server: cannot start: 127.0.0.1:${port} is already in use by another process; set PORT (or HOST) to a free one`
      )
      assert.notInclude(result.stdout + result.stderr, "    at ", "no stack trace")
    }).pipe(Effect.provide(Backends.layerPostgresMigrated(Services.migrations))), { timeout: 120_000 })
})
