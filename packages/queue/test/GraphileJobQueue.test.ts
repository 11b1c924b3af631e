import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { type JobDefinition, JobQueue, JobRunner, layerGraphile } from "../src/index.ts"
import { contract, greet } from "./contract.ts"
import { events, Probe, waitUntil } from "./Probe.ts"
import { Database } from "@quire/db"
import { Backends } from "@quire/testkit"

const pollInterval = "100 millis"

contract("layerGraphile", (jobs) =>
  Layer.unwrap(
    Database.DatabaseInfo.use((db) =>
      Effect.succeed(layerGraphile({ connectionString: db.url, jobs, runWorker: true, pollInterval }))
    )
  ).pipe(Layer.provide(Backends.layerPostgresTest)))

const slow: JobDefinition<Probe> = {
  name: "slow",
  handler: () =>
    Probe.use((probe) =>
      probe.record("slow:started").pipe(
        Effect.andThen(Effect.sleep("500 millis")),
        Effect.andThen(probe.record("slow:done"))
      )
    )
}

/** Runs for longer than the lock timeout of the test's worker. */
const long: JobDefinition<Probe> = {
  name: "long",
  handler: () =>
    Probe.use((probe) =>
      probe.record("long:started").pipe(
        Effect.andThen(Effect.sleep("2500 millis")),
        Effect.andThen(probe.record("long:done"))
      )
    )
}

layer(Layer.mergeAll(Backends.layerPostgresTest, Probe.layer), { excludeTestServices: true, timeout: "30 seconds" })(
  "layerGraphile across restarts",
  (it) => {
    const worker = Effect.map(Database.DatabaseInfo, (db) =>
      layerGraphile({ connectionString: db.url, jobs: [greet, slow], runWorker: true, pollInterval }))
    const producer = Effect.map(Database.DatabaseInfo, (db) =>
      layerGraphile({ connectionString: db.url, jobs: [], runWorker: false }))

    it.effect("runs a job enqueued while no worker ran when a worker starts", () =>
      Effect.gen(function*() {
        // A worker comes and goes, then a job is enqueued with no worker running.
        yield* Effect.void.pipe(Effect.provide(yield* worker))
        yield* greet.enqueue({ id: "offline", sentAt: new Date() }).pipe(Effect.provide(yield* producer))
        assert.strictEqual((yield* events("greet:offline")).length, 0)

        yield* JobRunner.use((runner) => runner.drain).pipe(Effect.provide(yield* worker))
        assert.strictEqual((yield* events("greet:offline")).length, 1)
      }))

    it.effect("lets a running job finish when the layer closes", () =>
      Effect.gen(function*() {
        yield* Effect.gen(function*() {
          yield* JobQueue.use((queue) => queue.enqueue("slow", {}))
          yield* waitUntil(Effect.map(events("slow:started"), (runs) => runs.length === 1))
        }).pipe(Effect.provide(yield* worker))
        assert.strictEqual((yield* events("slow:done")).length, 1)
      }))

    it.effect("renews the lock of a job that runs longer than the lock timeout, so it runs once", () =>
      Effect.gen(function*() {
        const db = yield* Database.DatabaseInfo
        const shortLocks = layerGraphile({ connectionString: db.url, jobs: [long], runWorker: true, pollInterval, lockTimeout: "1 second" })
        yield* Effect.gen(function*() {
          yield* JobQueue.use((queue) => queue.enqueue("long", {}))
          yield* waitUntil(Effect.map(events("long:done"), (runs) => runs.length === 1))
          // Two sweeps more: a lock that had not been renewed would be taken back and the job run again.
          yield* Effect.sleep("2 seconds")
        }).pipe(Effect.provide(shortLocks))
        assert.strictEqual((yield* events("long:started")).length, 1)
        assert.strictEqual((yield* events("long:done")).length, 1)
      }))
  }
)
