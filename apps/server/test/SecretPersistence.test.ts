/**
 * Without `QUIRE_SECRET`, the server generates a secret once and keeps it in its data directory
 * (mode 0600): a download link issued before a restart still works after it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Database } from "@quire/db"
import { Services } from "@quire/platform"
import { Backends, LocalServer } from "@quire/testkit"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const token = "quire_secret_test_token_0123456789"

interface Running {
  readonly child: ChildProcess
  readonly exited: Promise<number | null>
}

/** Starts the built server (dist/server.mjs) on `dataDir`, PostgreSQL at `databaseUrl` and `port`, without QUIRE_SECRET, and waits for /health. */
const start = (dataDir: string, databaseUrl: string, port: number) =>
  Effect.acquireRelease(
    Effect.promise(async (): Promise<Running> => {
      const { QUIRE_SECRET: _, ...inherited } = process.env
      const url = `http://127.0.0.1:${port}`
      const [node, bundle] = await ProductionBuild.argv(root, "server")
      const child = spawn(node, [bundle], {
        cwd: root,
        env: {
          ...inherited,
          DATABASE_URL: databaseUrl,
          PORT: String(port),
          HOST: "127.0.0.1",
          QUIRE_PUBLIC_URL: url,
          QUIRE_DATA_DIR: dataDir,
          QUIRE_ADMIN_TOKEN: token
        },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let log = ""
      child.stdout.on("data", (chunk) => (log += String(chunk)))
      child.stderr.on("data", (chunk) => (log += String(chunk)))
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve))
      const deadline = Date.now() + 90_000
      while (Date.now() < deadline && child.exitCode === null) {
        if (await fetch(`${url}/health`).then((response) => response.ok, () => false)) return { child, exited }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      child.kill("SIGKILL")
      throw new Error(`the server did not start:\n${log}`)
    }),
    (running) => Effect.promise(() => {
      if (running.child.exitCode === null) running.child.kill("SIGTERM")
      return running.exited
    })
  )

const call = (port: number, method: string, path: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    assert.isBelow(response.status, 300, `${method} ${path}: ${text}`)
    return (text === "" ? undefined : JSON.parse(text)) as any
  })

describe("the instance secret without QUIRE_SECRET", () => {
  it.live("is kept in the data directory, so a download link survives a restart", () =>
    Effect.gen(function*() {
      // A database already migrated: the first start, like the second, finds nothing to migrate.
      const db = yield* Database.DatabaseInfo
      const dataDir = mkdtempSync(join(tmpdir(), "quire-secret-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      const port = yield* Effect.promise(() => LocalServer.freePort())

      const link = yield* Effect.scoped(Effect.gen(function*() {
        yield* start(dataDir, db.url, port)
        const org = yield* call(port, "POST", "/v1/orgs", { title: "Acme" })
        const space = yield* call(port, "POST", `/v1/orgs/${org.id}/spaces`, { title: "Docs" })
        const cr = yield* call(port, "POST", `/v1/spaces/${space.id}/change-requests`, { subject: "A file" })
        yield* call(port, "POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          changes: [{ operation: "insert_files", files: [{ name: "hello.txt", contentType: "text/plain", base64: Buffer.from("hello, restart").toString("base64") }] }]
        })
        const files = yield* call(port, "GET", `/v1/spaces/${space.id}/change-requests/${cr.id}/content/files`)
        const url = files.items[0].downloadURL as string
        const before = yield* Effect.promise(() => fetch(url).then(async (response) => ({ status: response.status, text: await response.text() })))
        assert.deepStrictEqual(before, { status: 200, text: "hello, restart" })
        return url
      }))

      const secretFile = join(dataDir, "secret")
      assert.strictEqual(statSync(secretFile).mode & 0o777, 0o600)
      const secret = readFileSync(secretFile, "utf8").trim()
      assert.match(secret, /^[0-9a-f]{64}$/)

      yield* Effect.scoped(Effect.gen(function*() {
        yield* start(dataDir, db.url, port)
        const after = yield* Effect.promise(() => fetch(link).then(async (response) => ({ status: response.status, text: await response.text() })))
        assert.deepStrictEqual(after, { status: 200, text: "hello, restart" })
        // A link signed under another key is refused: the link works because the key is the same.
        // The signature's next-to-last character is altered: the last one of unpadded base64 may
        // hold only padding bits, and then the link would not change at all.
        const forged = link.replace(/(.)(.)$/, (_, next, last: string) => (next === "A" ? "B" : "A") + last)
        const refused = yield* Effect.promise(() => fetch(forged).then((response) => response.status))
        assert.strictEqual(refused, 404)
      }))
      assert.strictEqual(readFileSync(secretFile, "utf8").trim(), secret, "the second start kept the first secret")
    }).pipe(Effect.provide(Backends.layerPostgresMigrated(Services.migrations))), { timeout: 240_000 })
})
