/**
 * Spans exist only to be exported: a process with no OTLP traces endpoint makes none (Effect's
 * tracer is off under Telemetry.layer), one that exports traces keeps the tracer on.
 */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, References } from "effect"
import * as Telemetry from "../src/Telemetry.ts"

const settings = (env: Record<string, string>) => ConfigProvider.layer(ConfigProvider.fromUnknown(env))

const tracerUnder = (env: Record<string, string>) =>
  Effect.provide(Effect.gen(function*() {
    return yield* References.TracerEnabled
  }), Telemetry.layer("quire-test").pipe(Layer.provide(settings(env))))

const exported = (env: Record<string, string>) =>
  Effect.provide(Effect.gen(function*() {
    return Telemetry.tracesExported(yield* Telemetry.TelemetryConfig)
  }), settings(env))

describe("Telemetry's tracer", () => {
  it.effect("is off without an OTLP endpoint, and when only metrics are exported", () =>
    Effect.gen(function*() {
      assert.isFalse(yield* tracerUnder({}))
      assert.isFalse(yield* tracerUnder({ OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" }))
      assert.isFalse(yield* exported({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://127.0.0.1:9/v1/metrics" }))
      assert.isFalse(yield* exported({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_TRACES_EXPORTER: "none" }))
    }))

  it.effect("is on when traces are exported", () =>
    Effect.gen(function*() {
      assert.isTrue(yield* exported({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" }))
      assert.isTrue(yield* exported({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:9/v1/traces", OTEL_TRACES_EXPORTER: "console,otlp" }))
    }))
})
