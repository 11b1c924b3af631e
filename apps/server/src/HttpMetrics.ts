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

const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

/** The label of `method`: its index among `methods`, or 7 for any other (labelled `OTHER`). */
const methodIndex = (method: string): number => {
  const index = methods.indexOf(method)
  return index === -1 ? 7 : index
}

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

/** How a metric of Effect's is updated: its series' hooks, once found (`Metric$.hook`, not in the declared types). */
type Hooked = { readonly hook?: (context: Context.Context<never>) => Metric.Metric.Hooks<number, unknown> }

/**
 * A function that adds `input` to the series of `metric` under `attributes` in `context`'s registry.
 * The series' hooks are looked up once: `Metric.withAttributes` adds the attributes to the context
 * and, when the previous update was another series', serializes them into the series' key again on
 * every update.
 */
const updater = (metric: Metric.Metric<number, unknown>, attributes: Record<string, string>, context: Context.Context<never>) => {
  const attributed = Context.add(context, Metric.CurrentMetricAttributes, { ...Context.get(context, Metric.CurrentMetricAttributes), ...attributes })
  const hook = (metric as unknown as Hooked).hook
  if (typeof hook !== "function") return (input: number) => metric.updateUnsafe(input, attributed)
  const hooks = hook.call(metric, attributed)
  return (input: number) => hooks.update(input, attributed)
}

interface Series {
  readonly count: (input: number) => void
  readonly duration: (input: number) => void
}

/** The HTTP metrics of one server, in the metric registry of the layer that builds it. */
export class HttpMetrics extends Context.Service<HttpMetrics, HttpMetricsShape>()("@quire/server/HttpMetrics") {
  static readonly layer = Layer.effect(
    HttpMetrics,
    Effect.gen(function*() {
      // Node's events run outside any fiber: updates go to the registry of this layer's context.
      const context = yield* Effect.context<never>()
      // One series per label set, made once and found without building a key: by route, then by
      // status and method.
      const series = new Map<string, Map<number, Series>>()
      const seriesOf = (method: string, route: string, status: number): Series => {
        let byRoute = series.get(route)
        if (byRoute === undefined) series.set(route, byRoute = new Map())
        const index = methodIndex(method)
        const key = status * 8 + index
        let found = byRoute.get(key)
        if (found === undefined) {
          const label = methods[index] ?? "OTHER"
          found = {
            count: updater(requests, { method: label, route, status: String(status) }, context),
            duration: updater(durations, { method: label, route }, context)
          }
          byRoute.set(key, found)
        }
        return found
      }
      const finished = (request: IncomingMessage, response: ServerResponse, ms: number) => {
        const { count, duration } = seriesOf(request.method ?? "OTHER", (request as Routed)[routeOf] ?? unmatchedRoute, response.statusCode)
        count(1)
        duration(ms / 1000)
      }
      return { finished, route: (request, route) => void ((request as Routed)[routeOf] = route) }
    })
  )
}
