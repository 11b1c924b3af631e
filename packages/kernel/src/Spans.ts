/**
 * Spans for functions on hot paths. `Effect.fn("Name")` captures a stack trace and sets up a span
 * on every call even when the tracer is off (no OTLP traces), which costs several times the call
 * itself; `Effect.fnUntraced(body, Spans.whenTraced("Name"))` makes the same span only when
 * the tracer is on.
 */
import { Effect, References } from "effect"

/** `Effect.withSpan(name)` when the tracer is on; the effect unchanged when it is off. */
export const whenTraced = (name: string) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiber((fiber) => fiber.getRef(References.TracerEnabled) ? Effect.withSpan(self, name) : self)
