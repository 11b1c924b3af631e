/**
 * A worker killed with SIGKILL in the middle of a job (as the kernel's OOM killer would) loses
 * nothing: once the lock of the dead worker is older than QUIRE_JOB_LOCK_TIMEOUT_SECONDS (2 s
 * here), another worker runs the job again, to completion, exactly once; a job that was on its
 * last attempt is given up instead, through its definition's give-up hook.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { SqlClient } from "effect/sql"
import { Database } from "@quire/db"
import { JobQueue, layerGraphile } from "@quire/queue"
import { Backends } from "@quire/testkit"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"

const repo = fileURLToPath(new URL("../../../", import.meta.url))

interface Started {
  readonly child: ChildProcess
  readonly output: () => string
  readonly exited: Promise<unknown>
}

/**
 * test/fixtures/ProbeWorker.ts as its own process, with a 2-second lock timeout: bundled beside the
 * production build as the worker is (`ProductionBuild.bundledEntry`), rather than compiled by tsx at each start.
 */
const startWorker = (databaseUrl: string) =>
  Effect.acquireRelease(
    Effect.promise(async (): Promise<Started> => {
      const [node, bundle] = await ProductionBuild.bundledEntry(repo, "probe-worker", "apps/worker/test/fixtures/ProbeWorker.ts")
      const child = spawn(node, [bundle], {
        cwd: repo,
        env: { ...process.env, DATABASE_URL: databaseUrl, QUIRE_JOB_LOCK_TIMEOUT_SECONDS: "2" }
      })
      let output = ""
      child.stdout.on("data", (chunk) => (output += String(chunk)))
      child.stderr.on("data", (chunk) => (output += String(chunk)))
      const exited = new Promise((resolve) => child.once("exit", resolve))
      return { child, output: () => output, exited }
    }),
    (worker) =>
      Effect.promise(() => {
        if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL")
        return worker.exited
      })
  )

const eventually = <A>(check: Effect.Effect<A, never, SqlClient.SqlClient>, holds: (a: A) => boolean, what: string) =>
  Effect.gen(function*() {
    while (!holds(yield* check)) yield* Effect.sleep("100 millis")
  }).pipe(Effect.timeoutOrElse({ duration: "90 seconds", orElse: () => Effect.die(new Error(`Timed out waiting: ${what}`)) }))

const events = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly job: string; readonly event: string; readonly detail: string }>`
    select job, event, detail from probe_events order by id`.pipe(Effect.orDie)
  return rows
})
const count = (job: string, event: string) =>
  Effect.map(events, (rows) => rows.filter((row) => row.job === job && row.event === event).length)

describe("a worker killed mid-job", () => {
  it.live("its job runs again to completion exactly once on another worker; one on its last attempt is given up", () =>
    Effect.gen(function*() {
      const db = yield* Database.DatabaseInfo
      const sql = yield* SqlClient.SqlClient
      yield* sql`create table probe_events (id serial primary key, job text not null, event text not null, detail text not null)`.pipe(Effect.orDie)

      const first = yield* startWorker(db.url)
      yield* eventually(Effect.sync(() => first.output()), (output) => output.includes("Worker started"), "the first worker started")
      yield* Effect.gen(function*() {
        const queue = yield* JobQueue
        yield* queue.enqueue("test.probe", { id: "again", blockFirst: true }, { maxAttempts: 3 })
        yield* queue.enqueue("test.probe", { id: "last", blockFirst: true }, { maxAttempts: 1 })
      }).pipe(Effect.provide(layerGraphile({ connectionString: db.url, jobs: [], runWorker: false })))
      yield* eventually(Effect.zip(count("again", "started"), count("last", "started")), ([a, b]) => a === 1 && b === 1, "both jobs started")

      first.child.kill("SIGKILL")
      yield* Effect.promise(() => first.exited)
      const killedAt = Date.now()
      const locked = yield* sql<{ readonly n: number }>`
        select count(*)::int as n from graphile_worker._private_jobs where locked_at is not null`.pipe(Effect.orDie)
      assert.strictEqual(locked[0]!.n, 2, "the dead worker's jobs are still locked")

      const second = yield* startWorker(db.url)
      yield* eventually(count("again", "done"), (n) => n === 1, "the job ran again to completion")
      yield* eventually(count("last", "given-up"), (n) => n === 1, "the last attempt was given up")
      const recoveredIn = Date.now() - killedAt
      // Two more sweeps: nothing runs a third time.
      yield* Effect.sleep("3 seconds")

      const rows = yield* events
      const pids = (job: string, event: string) => rows.filter((row) => row.job === job && row.event === event).map((row) => row.detail)
      assert.deepStrictEqual(pids("again", "started"), [String(first.child.pid), String(second.child.pid)])
      assert.deepStrictEqual(pids("again", "done"), [String(second.child.pid)])
      assert.strictEqual(pids("last", "started").length, 1, "a job out of attempts does not run again")
      assert.match(pids("last", "given-up")[0]!, /stopped/)
      assert.isBelow(recoveredIn, 25_000, "taken back after the 2-second lock timeout, not graphile's 4 hours")

      const left = yield* sql<{ readonly last_error: string | null; readonly locked_at: Date | null }>`
        select last_error, locked_at from graphile_worker._private_jobs`.pipe(Effect.orDie)
      assert.strictEqual(left.length, 1, "the completed job is gone; the given-up one stays, failed")
      assert.match(left[0]!.last_error ?? "", /stopped/)
      assert.isNull(left[0]!.locked_at)
    }).pipe(Effect.scoped, Effect.provide(Backends.layerPostgresTest)), { timeout: 300_000 })
})
