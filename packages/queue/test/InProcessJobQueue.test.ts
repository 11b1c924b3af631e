import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { TestClock } from "effect/testing"
import { type JobDefinition, JobQueue, JobRunner, layerInProcess } from "../src/index.ts"
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
