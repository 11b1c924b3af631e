/**
 * The embedded server (PGlite in QUIRE_DATA_DIR, jobs in-process) killed with SIGKILL while jobs
 * run: after the restart, an interrupted job runs again, once; a job whose last attempt died with
 * the process is given up, and its spec says so instead of staying in `progress`. The jobs are
 * real OpenAPI spec runs whose source server holds the requests it is told to.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, type Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import type { ServerResponse } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { LocalServer } from "@quire/testkit"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"
import { parse, valueOf } from "./Prometheus.ts"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const token = "quire_embedded_crash_test_token_0123"
const document = JSON.stringify({ openapi: "3.0.3", info: { title: "Pets", version: "1.0.0" }, paths: {} })

type Running = ProductionBuild.BuiltServer

/** Starts the built server (dist/server.mjs) on the embedded database in `dataDir`, at `port`. */
const start = (dataDir: string, port: number) =>
  Effect.promise(() =>
    ProductionBuild.startServer(root, {
      QUIRE_DATA_DIR: dataDir,
      QUIRE_ADMIN_TOKEN: token,
      QUIRE_FETCH_ALLOW: "127.0.0.1",
      QUIRE_SPECS_FETCH_TIMEOUT_MS: "120000"
    }, { port })
  )

const crash = (server: Running) => Effect.promise(() => server.stop("SIGKILL"))

const call = (server: Running, method: string, path: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    assert.isTrue(response.ok, `${method} ${path}: ${response.status}`)
    return response.json() as Promise<Record<string, unknown>>
  })

/** The jobs the embedded queue holds in `state` (running, waiting), from /metrics (open on this machine). */
const queued = (server: Running, state: string) =>
  Effect.promise(async () => {
    const text = await fetch(`${server.url}/metrics`).then((response) => response.text())
    return valueOf(parse(text), "quire_jobs_queued", { state })
  })

const running = (server: Running) => queued(server, "running")

/** Polls (real time) until `check` holds; fails naming `what` after 60 seconds. */
const until = <A, R>(poll: Effect.Effect<A, never, R>, check: (a: A) => boolean, what: string) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 60_000
    while (true) {
      const value = yield* poll
      if (check(value)) return value
      if (Date.now() > deadline) return yield* Effect.die(new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`))
      yield* Effect.sleep("100 millis")
    }
  })

/** The specs' source: `/<name>.json` holds the first `hold[name]` requests (never answers them), then serves the document. */
const sources = (hold: Record<string, number>): Effect.Effect<{ readonly origin: string; readonly requests: Record<string, number> }, never, Scope.Scope> =>
  Effect.gen(function*() {
    const requests: Record<string, number> = {}
    const held: Array<ServerResponse> = []
    yield* Effect.addFinalizer(() => Effect.sync(() => held.forEach((response) => response.destroy())))
    const server = yield* LocalServer.serve((request, response) => {
      const name = /^\/(\w+)\.json$/.exec(request.url ?? "")?.[1] ?? ""
      requests[name] = (requests[name] ?? 0) + 1
      if (requests[name] <= (hold[name] ?? 0)) return void held.push(response)
      response.writeHead(200, { "content-type": "application/json" })
      response.end(document)
    })
    return { origin: server.origin, requests }
  })

describe("the embedded server killed mid-job", () => {
  it.live("reruns an interrupted job once after the restart, and gives up one whose last attempt died", () =>
    Effect.gen(function*() {
      const dataDir = mkdtempSync(join(tmpdir(), "quire-crash-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      const port = yield* Effect.promise(() => LocalServer.freePort())
      // `again` is held once and then served; `stuck` is held on every attempt (specs get 3).
      const { origin, requests } = yield* sources({ again: 1, stuck: 99 })

      let server = yield* start(dataDir, port)
      const org = yield* call(server, "POST", "/v1/orgs", { title: "Crash" })
      const specs = `/v1/orgs/${String(org.id)}/openapi`
      yield* call(server, "POST", specs, { slug: "again", source: { url: `${origin}/again.json` } })
      yield* call(server, "POST", specs, { slug: "stuck", source: { url: `${origin}/stuck.json` } })
      const spec = (slug: string) => call(server, "GET", `${specs}/${slug}`)
      yield* until(spec("again"), (s) => s.processingState === "progress" && requests.again === 1, "`again` to be fetched")
      yield* until(spec("stuck"), (s) => s.processingState === "progress" && requests.stuck === 1, "`stuck` to be fetched")
      yield* crash(server)

      // Second life: `again` runs once more and completes; `stuck` holds its second attempt.
      server = yield* start(dataDir, port)
      const again = yield* until(spec("again"), (s) => s.processingState === "complete", "`again` to complete")
      assert.isUndefined(again.lastProcessErrorCode)
      assert.isString(again.lastVersion)
      yield* until(Effect.sync(() => requests.stuck), (n) => n === 2, "`stuck`'s second attempt")
      // Done is when the queue let go of the job, a moment after the spec says complete: a kill
      // between the two runs it again (at least once, which fetching a spec twice tolerates).
      yield* until(running(server), (n) => n === 1, "`again` to leave the queue (only `stuck` running)")
      yield* crash(server)

      server = yield* start(dataDir, port)
      yield* until(Effect.sync(() => requests.stuck), (n) => n === 3, "`stuck`'s third attempt")
      yield* crash(server)

      // Fourth life: `stuck` died on its last attempt; it is given up and says why.
      server = yield* start(dataDir, port)
      const stuck = yield* until(spec("stuck"), (s) => s.processingState === "complete", "`stuck` to be given up")
      const errors = stuck.lastProcessedErrors as ReadonlyArray<{ readonly message: string; readonly code: string }>
      assert.strictEqual(stuck.lastProcessErrorCode, "PARSE_ERROR")
      assert.strictEqual(errors[0]?.code, "PROCESSING_STOPPED")
      assert.match(errors[0]?.message ?? "", /stopped/)
      // Once the queue holds no job, waiting or running, nothing can fetch a spec again.
      yield* until(Effect.all([running(server), queued(server, "waiting")]), ([r, w]) => r === 0 && w === 0, "the queue to be empty")
      assert.deepStrictEqual(requests, { again: 2, stuck: 3 }, "each run ran once per life, and not again once done or given up")
      yield* Effect.promise(() => server.stop())
    }).pipe(Effect.scoped), { timeout: 300_000 })
})
