/**
 * The in-process queue of the embedded server, kept in the database: the contract on PostgreSQL
 * and PGlite, and jobs that a stopped or crashed process left behind run once after the restart.
 * The first process is "crashed" by closing its layer while the job runs: its fibers are
 * interrupted and nothing more is written, which leaves the rows as a kill -9 would.
 */
import { assert, layer } from "@effect/vitest"
import { Deferred, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Backends } from "@quire/testkit"
import { define, JobQueue, JobRunner, layerInProcessDurable, migrations } from "../src/index.ts"
import { contract } from "./contract.ts"
import { events, Probe, waitUntil } from "./Probe.ts"

/** Copies of a PostgreSQL and a PGlite database holding the queue's migrations (migrated once). */
const databases = Backends.databasesMigrated([migrations])

for (const database of databases) {
  contract(`layerInProcessDurable on ${database.name}`, (jobs) =>
    layerInProcessDurable(jobs, { retryDelay: "20 millis" }).pipe(
      Layer.provide(database.layer)
    ))
}

/** Blocks its first `blockedAttempts` attempts until the process goes away; then completes. */
const interruptible = define("interruptible", {
  payload: Schema.Struct({ id: Schema.String, blockedAttempts: Schema.Number }),
  handler: ({ blockedAttempts, id }) =>
    Effect.gen(function*() {
      const probe = yield* Probe
      const attempt = yield* probe.record(`${id}:started`)
      if (attempt <= blockedAttempts) return yield* Effect.never
      yield* probe.record(`${id}:done`)
    }),
  onGiveUp: ({ id }, reason) => Probe.use((probe) => probe.record(`${id}:given-up`, reason))
})

const rows = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly n: number }>`select count(*)::int as n from queue_jobs where payload->>'id' = ${id}`.pipe(
      Effect.map((rows) => rows[0]!.n),
      Effect.orDie
    ))

/** A process's queue: the layer, built in its own scope, so closing it is the process going away. */
const lifetime = <A>(program: Effect.Effect<A, never, JobQueue | JobRunner | Probe | SqlClient.SqlClient>) =>
  program.pipe(Effect.provide(layerInProcessDurable([interruptible])))

for (const database of databases) {
  layer(Layer.mergeAll(Probe.layer, database.layer), { excludeTestServices: true, timeout: "60 seconds" })(
    `layerInProcessDurable across a crash on ${database.name}`,
    (it) => {
      it.effect("runs a job that was running when the process died once more after the restart", () =>
        Effect.gen(function*() {
          yield* lifetime(Effect.gen(function*() {
            yield* interruptible.enqueue({ id: "crashed", blockedAttempts: 1 })
            yield* waitUntil(Effect.map(events("crashed:started"), (runs) => runs.length === 1))
          }))
          assert.strictEqual((yield* events("crashed:done")).length, 0)
          assert.strictEqual(yield* rows("crashed"), 1, "the interrupted job is still stored")

          yield* lifetime(Effect.flatMap(JobRunner, (runner) => runner.drain))
          assert.strictEqual((yield* events("crashed:started")).length, 2)
          assert.strictEqual((yield* events("crashed:done")).length, 1)
          assert.strictEqual(yield* rows("crashed"), 0, "a finished job is no longer stored")

          // A third start finds nothing to do: the job ran to completion exactly once.
          yield* lifetime(Effect.flatMap(JobRunner, (runner) => runner.drain))
          assert.strictEqual((yield* events("crashed:done")).length, 1)
        }))

      it.effect("runs a job that was waiting for its time when the process stopped", () =>
        Effect.gen(function*() {
          const runAt = new Date(Date.now() + 300)
          yield* lifetime(interruptible.enqueue({ id: "waiting", blockedAttempts: 0 }, { runAt }))
          assert.strictEqual((yield* events("waiting:started")).length, 0)
          yield* lifetime(waitUntil(Effect.map(events("waiting:done"), (runs) => runs.length === 1)))
          assert.strictEqual((yield* events("waiting:started")).length, 1)
        }))

      it.effect("gives up, through its hook, a job whose last attempt died with the process", () =>
        Effect.gen(function*() {
          yield* lifetime(Effect.gen(function*() {
            yield* interruptible.enqueue({ id: "last", blockedAttempts: 1 }, { maxAttempts: 1 })
            yield* waitUntil(Effect.map(events("last:started"), (runs) => runs.length === 1))
          }))
          yield* lifetime(Effect.flatMap(JobRunner, (runner) => runner.drain))
          assert.strictEqual((yield* events("last:started")).length, 1, "not run again")
          const givenUp = yield* events("last:given-up")
          assert.strictEqual(givenUp.length, 1)
          assert.match(String(givenUp[0]!.value), /stopped/)
          assert.strictEqual(yield* rows("last"), 0)
        }))

      it.effect("stores the job in the transaction that enqueued it: a rolled-back enqueue leaves nothing to run after a restart", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const gate = yield* Deferred.make<void>()
          yield* lifetime(Effect.gen(function*() {
            const queue = yield* JobQueue
            yield* sql.withTransaction(
              queue.enqueue("interruptible", { id: "rolled-back", blockedAttempts: 1 }).pipe(
                Effect.andThen(Effect.fail("rollback"))
              )
            ).pipe(Effect.ignore)
            yield* Deferred.succeed(gate, undefined)
          }))
          yield* Deferred.await(gate)
          assert.strictEqual(yield* rows("rolled-back"), 0)
          yield* lifetime(Effect.flatMap(JobRunner, (runner) => runner.drain))
          assert.isAtMost((yield* events("rolled-back:started")).length, 1, "at most the first process's own run")
        }))
    }
  )
}
