/**
 * Requests by method, route template and status, and their durations, counted when each answer
 * is sent (Node's `finish`, so published pages answered before the application count too). The
 * route template comes from the router (`RequestContext.ts` records it per request).
 */
import { Context, Effect, Layer, Metric } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"

const requests = Metric.counter("quire_http_requests_total", {
  description: "HTTP requests answered, by method, route template and status",
  incremental: true
})
const durations = Metric.histogram("quire_http_request_duration_seconds", {
  description: "Time from a request's arrival to its answer's last byte, by method and route template",
  boundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
})

/** The route template that answered a request, kept on Node's request object (a property is cheaper than a WeakMap entry). */
const routeOf = Symbol("quire.route")
type Routed = { [routeOf]?: string }

const methods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/** The route label of a published page answered from the fast-page cache, before the router. */
export const fastPageRoute = "(cached published page)"
/** The route label of a request no route matched (404s, and answers a middleware gave first). */
export const unmatchedRoute = "(unmatched)"

export interface HttpMetricsShape {
  /** Counts `request` once its answer is sent, `ms` after it arrived (NodeServer calls it at Node's `finish`). */
  readonly finished: (request: IncomingMessage, response: ServerResponse, ms: number) => void
  /** Records the route template that answered `request` (Node's request object, `HttpServerRequest.source`). */
  readonly route: (request: object, route: string) => void
}

/** The HTTP metrics of one server, in the metric registry of the layer that builds it. */
export class HttpMetrics extends Context.Service<HttpMetrics, HttpMetricsShape>()("@quire/server/HttpMetrics") {
  static readonly layer = Layer.effect(
    HttpMetrics,
    Effect.gen(function*() {
      // Node's events run outside any fiber: updates go to the registry of this layer's context.
      const context = yield* Effect.context<never>()
      // One series per label set, made once: `withAttributes` merges attributes on every call.
      const series = new Map<string, { readonly count: Metric.Counter<number>; readonly duration: Metric.Histogram<number> }>()
      const seriesOf = (method: string, route: string, status: number) => {
        const key = `${method} ${status} ${route}`
        let found = series.get(key)
        if (found === undefined) {
          found = {
            count: Metric.withAttributes(requests, { method, route, status: String(status) }),
            duration: Metric.withAttributes(durations, { method, route })
          }
          series.set(key, found)
        }
        return found
      }
      const finished = (request: IncomingMessage, response: ServerResponse, ms: number) => {
        const method = methods.has(request.method ?? "") ? request.method! : "OTHER"
        const { count, duration } = seriesOf(method, (request as Routed)[routeOf] ?? unmatchedRoute, response.statusCode)
        count.updateUnsafe(1, context)
        duration.updateUnsafe(ms / 1000, context)
      }
      return { finished, route: (request, route) => void ((request as Routed)[routeOf] = route) }
    })
  )
}
