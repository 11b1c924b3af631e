/** Records what job handlers did, for tests to assert on. */
import { Context, type Duration, Effect, Layer } from "effect"

export interface Recorded {
  readonly value: unknown
  /** Wall-clock time of the recording (epoch millis). */
  readonly at: number
}

export class Probe extends Context.Service<Probe, {
  /** Records `value` under `event`; returns how many times `event` has been recorded. */
  record(event: string, value?: unknown): Effect.Effect<number>
  events(event: string): Effect.Effect<ReadonlyArray<Recorded>>
}>()("@quire/queue/test/Probe") {
  static readonly layer = Layer.sync(Probe, () => {
    const recorded = new Map<string, Array<Recorded>>()
    return Probe.of({
      record: (event, value) =>
        Effect.sync(() => {
          const list = recorded.get(event) ?? []
          list.push({ value, at: Date.now() })
          recorded.set(event, list)
          return list.length
        }),
      events: (event) => Effect.sync(() => [...(recorded.get(event) ?? [])])
    })
  })
}

export const events = (event: string) => Probe.use((probe) => probe.events(event))

/** Polls `check` (real time) until it holds; dies after `timeout`. */
export const waitUntil = <R>(check: Effect.Effect<boolean, never, R>, timeout: Duration.Input = "10 seconds") =>
  Effect.gen(function*() {
    while (!(yield* check)) yield* Effect.sleep("20 millis")
  }).pipe(Effect.timeout(timeout), Effect.orDie)
