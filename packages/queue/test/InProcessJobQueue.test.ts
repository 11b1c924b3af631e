import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import {
  define,
  type JobDefinition,
  JobQueue,
  JobRunner,
  layerInProcess,
  layerInProcessQueue,
  layerInProcessRunner
} from "../src/index.ts"
import { contract } from "./contract.ts"
import { events, Probe, waitUntil } from "./Probe.ts"

contract("layerInProcess", (jobs) => layerInProcess(jobs, { retryDelay: "20 millis" }))

describe("layerInProcess", () => {
  it.effect("runs a cron schedule at each matching minute", () =>
    Effect.gen(function*() {
      const everyFive: JobDefinition<Probe> = {
        name: "every-five",
        schedule: { cron: "*/5 * * * *" },
        handler: () => Probe.use((probe) => probe.record("every-five"))
      }
      const program = Effect.gen(function*() {
        yield* TestClock.adjust("11 minutes")
        yield* (yield* JobRunner).drain
        const runs = yield* events("every-five")
        assert.deepStrictEqual(runs.length, 2)
      })
      yield* program.pipe(Effect.provide(layerInProcess([everyFive]).pipe(Layer.provideMerge(Probe.layer))))
    }))

  it.live("interrupts running jobs when the layer closes", () =>
    Effect.gen(function*() {
      const blocking: JobDefinition<Probe> = {
        name: "blocking",
        handler: () =>
          Probe.use((probe) =>
            probe.record("started").pipe(
              Effect.andThen(Effect.never),
              Effect.onInterrupt(() => probe.record("interrupted"))
            )
          )
      }
      yield* Effect.gen(function*() {
        yield* (yield* JobQueue).enqueue("blocking", {})
        yield* waitUntil(Effect.map(events("started"), (runs) => runs.length === 1))
      }).pipe(Effect.provide(layerInProcess([blocking])))
      assert.strictEqual((yield* events("interrupted")).length, 1)
    }).pipe(Effect.provide(Probe.layer)))

  it.live("rejects a task it does not know", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit((yield* JobQueue).enqueue("unknown", {}))
      assert.isTrue(Exit.isFailure(exit))
    }).pipe(Effect.provide(layerInProcess([]))))
})

/** A use case whose layer requires the queue, as the domain packages' do. */
class Greetings extends Context.Service<Greetings, { readonly greetLater: (name: string) => Effect.Effect<void> }>()(
  "@quire/queue/test/Greetings"
) {
  static readonly layer = Layer.effect(Greetings, Effect.gen(function*() {
    const queue = yield* JobQueue
    return Greetings.of({ greetLater: (name) => queue.enqueue("greeting", { name }) })
  }))
}

const greeting = define("greeting", {
  payload: Schema.Struct({ name: Schema.String }),
  handler: ({ name }) => Probe.use((probe) => probe.record(`hello:${name}`))
})

/** Queues a greeting through the use case, which enqueues on the queue this job runs from. */
const relay = define("relay", {
  payload: Schema.Struct({ name: Schema.String }),
  handler: ({ name }) => Greetings.use((greetings) => greetings.greetLater(name))
})

const relayJobs: ReadonlyArray<JobDefinition<Probe | Greetings>> = [greeting, relay]

describe("layerInProcess in two halves", () => {
  it.live("runs the jobs of services that enqueue on the same queue", () =>
    Effect.gen(function*() {
      yield* (yield* Greetings).greetLater("direct")
      yield* relay.enqueue({ name: "relayed" })
      yield* (yield* JobRunner).drain
      assert.strictEqual((yield* events("hello:direct")).length, 1)
      assert.strictEqual((yield* events("hello:relayed")).length, 1)
    }).pipe(Effect.provide(
      layerInProcessRunner(relayJobs).pipe(
        Layer.provideMerge(Greetings.layer),
        Layer.provideMerge(layerInProcessQueue(relayJobs)),
        Layer.provideMerge(Probe.layer)
      )
    )))

  it.live("keeps jobs queued before its runner starts, and runs them once it does", () =>
    Effect.gen(function*() {
      yield* (yield* JobQueue).enqueue("greeting", { name: "early" })
      yield* Effect.sleep("50 millis")
      assert.strictEqual((yield* events("hello:early")).length, 0, "no runner, no run")
      yield* JobRunner.use((runner) => runner.drain).pipe(
        Effect.provide(layerInProcessRunner(relayJobs).pipe(Layer.provide(Greetings.layer)))
      )
      assert.strictEqual((yield* events("hello:early")).length, 1)
    }).pipe(Effect.provide(layerInProcessQueue(relayJobs).pipe(Layer.provideMerge(Probe.layer)))))

  it.live("refuses a runner given other jobs than its queue", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(
        JobRunner.use((runner) => runner.drain).pipe(Effect.provide(layerInProcessRunner([greeting])))
      )
      assert.isTrue(Exit.isFailure(exit))
    }).pipe(Effect.provide(layerInProcessQueue(relayJobs).pipe(Layer.provideMerge(Probe.layer)))))
})
