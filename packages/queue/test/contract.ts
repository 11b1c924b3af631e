/** The behaviour every JobQueue adapter must have, run against each of them. */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { define, type JobDefinition, JobQueue, JobRunner, PermanentJobFailure } from "../src/index.ts"
import { events, Probe, waitUntil } from "./Probe.ts"

export const greet = define("greet", {
  payload: Schema.Struct({ id: Schema.String, sentAt: Schema.DateFromString }),
  handler: (payload) => Probe.use((probe) => probe.record(`greet:${payload.id}`, payload))
})

/** Fails its first `failures` attempts. */
export const flaky = define("flaky", {
  payload: Schema.Struct({ id: Schema.String, failures: Schema.Number }),
  handler: ({ failures, id }) =>
    Effect.gen(function*() {
      const probe = yield* Probe
      const attempt = yield* probe.record(`flaky:${id}:attempt`)
      if (attempt <= failures) return yield* Effect.fail(new Error(`attempt ${attempt} fails`))
      yield* probe.record(`flaky:${id}:done`)
    })
})

export const doomed = define("doomed", {
  payload: Schema.Struct({ id: Schema.String }),
  handler: ({ id }) =>
    Probe.use((probe) => probe.record(`doomed:${id}`)).pipe(
      Effect.andThen(Effect.fail(new PermanentJobFailure({ reason: "the thing is gone" })))
    )
})

/** Always fails; its definition allows 2 attempts and records its give-up. */
export const hopeless = define("hopeless", {
  payload: Schema.Struct({ id: Schema.String, permanent: Schema.Boolean }),
  maxAttempts: 2,
  handler: ({ id, permanent }) =>
    Probe.use((probe) => probe.record(`hopeless:${id}:attempt`)).pipe(
      Effect.andThen(Effect.fail(permanent ? new PermanentJobFailure({ reason: "The source is gone" }) : new Error("boom")))
    ),
  onGiveUp: ({ id }, reason) => Probe.use((probe) => probe.record(`hopeless:${id}:given-up`, reason))
})

export const tick: JobDefinition<Probe> = {
  name: "tick",
  schedule: { every: "300 millis" },
  handler: (payload) => Probe.use((probe) => probe.record("tick", payload))
}

/** Never due during a test; here so that both adapters accept a cron schedule. */
export const nightly: JobDefinition<Probe> = {
  name: "nightly",
  schedule: { cron: "0 3 * * *" },
  handler: () => Probe.use((probe) => probe.record("nightly"))
}

export const contractJobs: ReadonlyArray<JobDefinition<Probe>> = [greet, flaky, doomed, hopeless, tick, nightly]

const sentAt = new Date("2024-05-01T10:00:00.000Z")

export const contract = <E>(
  name: string,
  makeLayer: (jobs: ReadonlyArray<JobDefinition<Probe>>) => Layer.Layer<JobQueue | JobRunner, E, Probe>
) =>
  layer(makeLayer(contractJobs).pipe(Layer.provideMerge(Probe.layer)), {
    excludeTestServices: true,
    // The first PGlite of a worker compiles PostgreSQL's WebAssembly and may migrate the template it
    // copies: under a full run's load on a slow two-core machine that took over 30 s (a CI failure).
    timeout: "120 seconds"
  })(name, (it) => {
    it.effect("runs a job with its decoded payload", () =>
      Effect.gen(function*() {
        yield* greet.enqueue({ id: "now", sentAt })
        yield* (yield* JobRunner).drain
        const runs = yield* events("greet:now")
        assert.strictEqual(runs.length, 1)
        const payload = runs[0]!.value as { readonly id: string; readonly sentAt: Date }
        assert.instanceOf(payload.sentAt, Date)
        assert.strictEqual(payload.sentAt.toISOString(), sentAt.toISOString())
      }))

    it.effect("retries a failing job until it succeeds", () =>
      Effect.gen(function*() {
        yield* flaky.enqueue({ id: "once", failures: 1 })
        yield* (yield* JobRunner).drain
        assert.strictEqual((yield* events("flaky:once:attempt")).length, 2)
        assert.strictEqual((yield* events("flaky:once:done")).length, 1)
      }))

    it.effect("gives up after maxAttempts", () =>
      Effect.gen(function*() {
        yield* flaky.enqueue({ id: "always", failures: 99 }, { maxAttempts: 1 })
        yield* (yield* JobRunner).drain
        assert.strictEqual((yield* events("flaky:always:attempt")).length, 1)
        assert.strictEqual((yield* events("flaky:always:done")).length, 0)
      }))

    it.effect("does not retry a permanent failure", () =>
      Effect.gen(function*() {
        yield* doomed.enqueue({ id: "d1" })
        yield* (yield* JobRunner).drain
        assert.strictEqual((yield* events("doomed:d1")).length, 1)
      }))

    it.effect("gives up after the definition's maxAttempts and calls its give-up hook once, with the reason", () =>
      Effect.gen(function*() {
        yield* hopeless.enqueue({ id: "retried", permanent: false })
        yield* (yield* JobRunner).drain
        assert.strictEqual((yield* events("hopeless:retried:attempt")).length, 2)
        const givenUp = yield* events("hopeless:retried:given-up")
        assert.deepStrictEqual(givenUp.map((event) => event.value), ["Failed 2 times: boom"])
      }))

    it.effect("calls the give-up hook of a permanent failure at once", () =>
      Effect.gen(function*() {
        yield* hopeless.enqueue({ id: "permanent", permanent: true })
        yield* (yield* JobRunner).drain
        assert.strictEqual((yield* events("hopeless:permanent:attempt")).length, 1)
        const givenUp = yield* events("hopeless:permanent:given-up")
        assert.deepStrictEqual(givenUp.map((event) => event.value), ["The source is gone"])
      }))

    it.effect("does not retry a payload that fails to decode", () =>
      Effect.gen(function*() {
        yield* (yield* JobQueue).enqueue("greet", { id: "bad", sentAt: 42 })
        // drain would wait for the retries of a retryable failure
        yield* (yield* JobRunner).drain
        assert.strictEqual((yield* events("greet:bad")).length, 0)
      }))

    it.effect("does not run a job before its runAt", () =>
      Effect.gen(function*() {
        const runAt = new Date(Date.now() + 1000)
        yield* greet.enqueue({ id: "later", sentAt }, { runAt })
        yield* (yield* JobRunner).drain
        assert.strictEqual((yield* events("greet:later")).length, 0)
        yield* waitUntil(Effect.map(events("greet:later"), (runs) => runs.length > 0))
        const runs = yield* events("greet:later")
        assert.strictEqual(runs.length, 1)
        assert.isAtLeast(runs[0]!.at, runAt.getTime())
      }))

    it.effect("replaces a pending job that has the same jobKey", () =>
      Effect.gen(function*() {
        const runAt = new Date(Date.now() + 500)
        yield* greet.enqueue({ id: "key-first", sentAt }, { runAt, jobKey: "greeting" })
        yield* greet.enqueue({ id: "key-second", sentAt }, { runAt, jobKey: "greeting" })
        yield* waitUntil(Effect.map(events("greet:key-second"), (runs) => runs.length > 0))
        yield* (yield* JobRunner).drain
        assert.strictEqual((yield* events("greet:key-first")).length, 0)
        assert.strictEqual((yield* events("greet:key-second")).length, 1)
      }))

    it.effect("runs a scheduled job repeatedly", () =>
      Effect.gen(function*() {
        yield* waitUntil(Effect.map(events("tick"), (runs) => runs.length >= 3))
        const runs = yield* events("tick")
        assert.deepStrictEqual(runs[0]!.value, {})
        assert.strictEqual((yield* events("nightly")).length, 0)
      }))
  })
