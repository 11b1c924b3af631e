import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, References } from "effect"
import { Spans } from "../src/index.ts"

const innermostSpanName = Effect.map(Effect.option(Effect.currentSpan), Option.map((span) => span.name))

describe("Spans.whenTraced", () => {
  it.effect("makes the named span when the tracer is on", () =>
    Effect.gen(function*() {
      const name = yield* innermostSpanName.pipe(Spans.whenTraced("Things.read"), Effect.provideService(References.TracerEnabled, true))
      assert.deepStrictEqual(name, Option.some("Things.read"))
    }))

  it.effect("makes no span when the tracer is off, and answers the same", () =>
    Effect.gen(function*() {
      const name = yield* innermostSpanName.pipe(Spans.whenTraced("Things.read"), Effect.provideService(References.TracerEnabled, false))
      assert.deepStrictEqual(name, Option.none())
      const value = yield* Effect.succeed(42).pipe(Spans.whenTraced("Things.read"), Effect.provideService(References.TracerEnabled, false))
      assert.strictEqual(value, 42)
    }))
})
