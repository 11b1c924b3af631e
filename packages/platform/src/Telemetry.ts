/**
 * OpenTelemetry export of the process's spans and metrics over OTLP/HTTP, off unless an OTLP
 * endpoint is configured by the standard `OTEL_*` variables (docs/operations.md). Effect's own
 * exporters (`effect/observability`), so no OpenTelemetry SDK is loaded.
 */
import { Config, ConfigProvider, Effect, Layer, Metric, Option, References, Schedule } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpExporter, OtlpMetrics, OtlpSerialization, OtlpTracer } from "effect/observability"
import { SqlClient } from "effect/sql"
import { Database } from "@quire/db"
import * as Metrics from "@quire/kernel/Metrics"
import { QueueDepth } from "@quire/queue"

/** What the OTEL_* variables ask for; `undefined` when nothing is exported. */
export const TelemetryConfig = Config.all({
  disabled: Config.Boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false)),
  endpoint: Config.option(Config.NonEmptyString("OTEL_EXPORTER_OTLP_ENDPOINT")),
  tracesEndpoint: Config.option(Config.NonEmptyString("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")),
  metricsEndpoint: Config.option(Config.NonEmptyString("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")),
  protocol: Config.Literals(["http/protobuf", "http/json", "grpc"], "OTEL_EXPORTER_OTLP_PROTOCOL").pipe(
    Config.withDefault("http/protobuf" as const)
  ),
  tracesExporter: Config.String("OTEL_TRACES_EXPORTER").pipe(Config.withDefault("otlp")),
  serviceName: Config.option(Config.NonEmptyString("OTEL_SERVICE_NAME")),
  resourceAttributes: Config.String("OTEL_RESOURCE_ATTRIBUTES").pipe(Config.withDefault(""))
})

/** True when OTLP export is configured: an endpoint for traces or metrics, and the SDK not disabled. */
export const enabled = (config: Config.Success<typeof TelemetryConfig>): boolean =>
  !config.disabled && (Option.isSome(config.endpoint) || Option.isSome(config.tracesEndpoint) || Option.isSome(config.metricsEndpoint))

/** True when spans are sent somewhere: OTLP export is on, with an endpoint for traces that `OTEL_TRACES_EXPORTER` does not turn off. */
export const tracesExported = (config: Config.Success<typeof TelemetryConfig>): boolean =>
  enabled(config) && config.protocol !== "grpc" && (Option.isSome(config.endpoint) || Option.isSome(config.tracesEndpoint)) &&
  config.tracesExporter.split(",").some((exporter) => exporter.trim() === "otlp")

/**
 * Spans are made only to be exported: without a traces exporter, Effect's tracer is off, so that
 * no request, use case or SQL statement builds a span nobody reads (each request made several).
 */
const tracerOff = Layer.succeed(References.TracerEnabled, false)

/**
 * Traces and metrics sent to the configured OTLP endpoint as `service` (unless `OTEL_SERVICE_NAME`
 * or a `service.name` of `OTEL_RESOURCE_ATTRIBUTES` names it otherwise); nothing at all when no
 * endpoint is set or `OTEL_SDK_DISABLED=true`. A signal whose `OTEL_TRACES_EXPORTER` or
 * `OTEL_METRICS_EXPORTER` is `none`, or that has no endpoint, is not sent. Effect's exporters read
 * the rest (headers, compression, timeouts, `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_METRIC_EXPORT_INTERVAL`).
 * Its `Flusher` sends what is buffered at once (the exporters also flush when the layer closes).
 */
export const layer = (service: string): Layer.Layer<OtlpExporter.Flusher> =>
  Layer.unwrap(Effect.gen(function*() {
    const config = yield* TelemetryConfig
    if (!enabled(config)) return Layer.merge(OtlpExporter.layerFlusher, tracerOff)
    if (config.protocol === "grpc") {
      yield* Effect.logWarning("OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported (http/protobuf or http/json are): telemetry is not exported")
      return Layer.merge(OtlpExporter.layerFlusher, tracerOff)
    }
    const named = Option.isSome(config.serviceName) || /(^|,)\s*service\.name\s*=/.test(config.resourceAttributes)
    // Effect's exporters send a signal only when its OTEL_<SIGNAL>_EXPORTER lists `otlp`; the
    // specification's default is `otlp`, so it is the fallback here.
    const defaults = ConfigProvider.fromUnknown({
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_METRICS_EXPORTER: "otlp",
      ...(named ? {} : { OTEL_SERVICE_NAME: service })
    })
    const serialization = config.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf
    return Layer.mergeAll(OtlpTracer.layerFromConfig(), OtlpMetrics.layerFromConfig(), tracesExported(config) ? Layer.empty : tracerOff).pipe(
      Layer.provide([serialization, FetchHttpClient.layer]),
      Layer.provide(ConfigProvider.layerAdd(defaults))
    )
  }).pipe(Effect.orDie))

const poolMax = Metric.gauge("quire_db_pool_max_connections", {
  description: "Connections the database client may open (QUIRE_DB_POOL_SIZE; 1 for the embedded database)"
})
const poolConnections = Metric.gauge("quire_db_pool_connections", {
  description: "Connections this process holds open to PostgreSQL, by state (pg_stat_activity: active, idle, idle in transaction)"
})
const queued = Metric.gauge("quire_jobs_queued", {
  description: "Jobs in the queue by state (waiting, running, failed: given up and kept); the queue's table, shared by every process"
})

const connectionStates = ["active", "idle", "idle in transaction"] as const

/**
 * Reads what is not counted as it happens into its gauges: the bounded caches (`Metrics.sampleCaches`),
 * the database client's size and open connections, and the job queue's depth (these two not
 * without a database: the memory server). A value that cannot be read leaves its gauge as it was.
 */
export const sampleGauges: Effect.Effect<void> = Effect.gen(function*() {
  yield* Metrics.sampleCaches
  const info = yield* Effect.serviceOption(Database.DatabaseInfo)
  const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
  if (Option.isNone(info) || Option.isNone(sql)) return
  const { applicationName, kind, maxConnections } = info.value
  if (maxConnections !== undefined) yield* Metric.update(poolMax, maxConnections)
  const depth = yield* QueueDepth.read(kind).pipe(Effect.provideService(SqlClient.SqlClient, sql.value))
  if (depth !== undefined) {
    for (const [state, n] of Object.entries(depth)) yield* Metric.update(Metric.withAttributes(queued, { state }), n)
  }
  if (applicationName === undefined) return
  const rows = yield* sql.value<{ state: string | null; n: number }>`
    SELECT state, count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${applicationName} GROUP BY state`.pipe(
    Effect.orElseSucceed(() => undefined)
  )
  if (rows === undefined) return
  for (const state of connectionStates) {
    yield* Metric.update(Metric.withAttributes(poolConnections, { state }), rows.find((row) => row.state === state)?.n ?? 0)
  }
}).pipe(Effect.withTracerEnabled(false))

/**
 * While OTLP metrics are exported, samples the gauges every `OTEL_METRIC_EXPORT_INTERVAL` (a
 * scrape of `/metrics` samples them itself).
 */
export const layerSampler: Layer.Layer<never> = Layer.effectDiscard(Effect.gen(function*() {
  const config = yield* TelemetryConfig
  const metrics = Option.isSome(config.endpoint) || Option.isSome(config.metricsEndpoint)
  if (config.disabled || !metrics) return
  const interval = yield* Config.Int("OTEL_METRIC_EXPORT_INTERVAL").pipe(Config.withDefault(60_000))
  yield* Effect.forkScoped(Effect.repeat(sampleGauges, Schedule.spaced(Math.max(1000, interval))))
}).pipe(Effect.orDie))
