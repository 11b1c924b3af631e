/**
 * OTLP export: a server whose OTEL_* variables point at a receiver on 127.0.0.1 sends a span per
 * request (route template, method, status, request id) with its SQL statements' spans inside it,
 * a span per job attempt (job, outcome), and its metrics; the service and resource attributes and
 * headers the variables name. The receiver here is a plain HTTP server reading OTLP/JSON.
 */
import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schedule } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { adminToken, everyBackend, raw, withSettings } from "./Harness.ts"

type Attribute = { readonly key: string; readonly value: Record<string, unknown> }
interface Span {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<Attribute>
}
interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: any
}

/** An OTLP/HTTP receiver on an ephemeral port of 127.0.0.1 keeping what it is sent. */
class Receiver extends Context.Service<Receiver, { readonly url: string; readonly received: Array<Received> }>()("test/Receiver") {}

const receiver = Effect.acquireRelease(
  Effect.callback<{ readonly url: string; readonly received: Array<Received>; readonly close: () => void }>((resume) => {
    const received: Array<Received> = []
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        received.push({ path: request.url ?? "", headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) })
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        received,
        close: () => void server.close()
      })))
  }),
  (receiver) => Effect.sync(receiver.close)
)

const attribute = (attributes: ReadonlyArray<Attribute>, key: string): unknown => {
  const value = attributes.find((a) => a.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

const spansOf = (received: ReadonlyArray<Received>): ReadonlyArray<Span> =>
  received.filter((r) => r.path === "/v1/traces").flatMap((r) =>
    r.body.resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans as Array<Span>)))

const metricNamesOf = (received: ReadonlyArray<Received>): ReadonlySet<string> =>
  new Set(received.filter((r) => r.path === "/v1/metrics").flatMap((r) =>
    r.body.resourceMetrics.flatMap((rm: any) => rm.scopeMetrics.flatMap((sm: any) => sm.metrics.map((m: any) => m.name as string)))))

/** Polls `check` until it gives a value (the exporters send every 100 to 200 ms), for at most 30 s. */
const eventually = <A>(check: () => A | undefined): Effect.Effect<A> =>
  Effect.suspend(() => {
    const found = check()
    return found === undefined ? Effect.fail(`not received yet: ${check.toString().slice(0, 200)}`) : Effect.succeed(found)
  }).pipe(Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 }), Effect.orDie)

const pglite = everyBackend.find((backend) => backend.name === "pglite")!

const server = Layer.unwrap(Effect.map(Effect.service(Receiver), (otlp) =>
  withSettings(pglite.layer, {
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=k%20123",
    OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test",
    OTEL_BSP_SCHEDULE_DELAY: 100,
    OTEL_METRIC_EXPORT_INTERVAL: 200
  }))).pipe(Layer.provideMerge(Layer.effect(Receiver, receiver)))

layer(server, { timeout: 120_000, excludeTestServices: true })("OTLP export", (it) => {
  it.effect("sends request spans with their SQL spans inside, job spans with their outcome, and metrics", () =>
    Effect.gen(function*() {
      const { received } = yield* Receiver
      const created = yield* raw("POST", "/v1/orgs", { token: adminToken, body: JSON.stringify({ title: "Traced" }) })
      assert.strictEqual(created.status, 201)
      const orgId = (created.body as { id: string }).id
      assert.strictEqual((yield* raw("GET", `/v1/orgs/${orgId}`, { token: adminToken })).status, 200)
      yield* raw("GET", "/health")
      // Saving an OpenAPI spec queues its processing, which the test server runs in-process.
      const spec = JSON.stringify({ openapi: "3.0.0", info: { title: "Pets", version: "1" }, paths: {} })
      const saved = yield* raw("PUT", `/v1/orgs/${orgId}/openapi/pets`, { token: adminToken, body: JSON.stringify({ source: { text: spec } }) })
      assert.isBelow(saved.status, 300)

      const route = "/v1/orgs/:organizationId"
      const request = yield* eventually(() =>
        spansOf(received).find((span) => attribute(span.attributes, "http.route") === route)
      )
      assert.strictEqual(request.name, "GET")
      assert.strictEqual(request.kind, 2, "a server span")
      assert.strictEqual(attribute(request.attributes, "http.request.method"), "GET")
      assert.strictEqual(Number(attribute(request.attributes, "http.response.status_code")), 200)
      assert.match(String(attribute(request.attributes, "http.request.id")), /^[0-9a-f-]{36}$/)

      // A statement of the request runs inside its span: its chain of parents reaches the request's.
      const all = yield* eventually(() => {
        const spans = spansOf(received)
        const byId = new Map(spans.map((span) => [span.spanId, span]))
        const inside = (span: Span): boolean => {
          for (let at: Span | undefined = span; at !== undefined; at = at.parentSpanId === undefined ? undefined : byId.get(at.parentSpanId)) {
            if (at.spanId === request.spanId) return true
          }
          return false
        }
        return spans.some((span) => span.traceId === request.traceId && attribute(span.attributes, "db.system.name") === "postgresql" && inside(span))
          ? spans
          : undefined
      })
      const statement = all.find((span) => span.traceId === request.traceId && attribute(span.attributes, "db.system.name") === "postgresql")!
      assert.strictEqual(statement.kind, 3, "a client span")
      assert.isString(attribute(statement.attributes, "db.query.text"))

      // The spec's run, not a periodic job (the poller may run first on a loaded machine).
      const job = yield* eventually(() =>
        spansOf(received).find((span) => span.name === "JobQueue.run" && attribute(span.attributes, "job.name") === "specs.process")
      )
      assert.strictEqual(attribute(job.attributes, "job.outcome"), "succeeded")
      assert.isTrue(
        spansOf(received).some((span) => span.traceId === job.traceId && attribute(span.attributes, "db.system.name") === "postgresql"),
        "the job's statements are in its trace"
      )
      assert.isUndefined(
        spansOf(received).find((span) => attribute(span.attributes, "http.route") === "/health"),
        "probes make no spans"
      )

      const metrics = yield* eventually(() => {
        const names = metricNamesOf(received)
        return names.has("quire_http_requests_total") && names.has("quire_job_attempts_total") ? names : undefined
      })
      assert.isTrue(metrics.has("quire_http_request_duration_seconds"))

      const traces = received.find((r) => r.path === "/v1/traces")!
      assert.strictEqual(traces.headers["x-collector-key"], "k 123")
      const resource = traces.body.resourceSpans[0].resource.attributes as ReadonlyArray<Attribute>
      assert.strictEqual(attribute(resource, "service.name"), "quire-test")
      assert.strictEqual(attribute(resource, "deployment.environment"), "test")
    }))
})
