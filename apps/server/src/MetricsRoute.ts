/**
 * `GET /metrics`: the server's metrics in Prometheus's text format. With `QUIRE_METRICS_TOKEN`
 * set it answers only `Authorization: Bearer <token>` (401 otherwise); without it, only callers
 * on this machine (a loopback address; with `QUIRE_TRUST_PROXY`, the proxy's client address).
 */
import { Config, Effect, Option, Redacted } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { sameSecret } from "@quire/kernel"
import { Telemetry } from "@quire/platform"
import { envelope } from "./ErrorEnvelope.ts"
import { addressOf, TrustProxy } from "./RateLimits.ts"

/** `QUIRE_METRICS_TOKEN`: the bearer token `/metrics` asks for (empty: none). */
export const MetricsToken = Config.option(Config.Redacted("QUIRE_METRICS_TOKEN")).pipe(
  Config.map(Option.filter((token) => Redacted.value(token).trim() !== ""))
)

export const metricsPath = "/metrics"

const loopback = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

/** Whether `header` is `Bearer <token>`, compared in constant time. */
const bearerMatches = (header: string | undefined, token: string): boolean => {
  const given = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? "")?.[1]
  return given !== undefined && sameSecret(given, token)
}

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const token = yield* Effect.orDie(MetricsToken)
  const trustProxy = yield* Effect.orDie(TrustProxy)
  yield* router.add("GET", metricsPath, Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (Option.isSome(token)) {
      if (!bearerMatches(request.headers.authorization, Redacted.value(token.value))) {
        return HttpServerResponse.setHeader(
          envelope(401, "The metrics need the token of QUIRE_METRICS_TOKEN: Authorization: Bearer <token>"),
          "www-authenticate",
          "Bearer"
        )
      }
    } else if (!loopback.test(addressOf(request, trustProxy))) {
      return envelope(403, "Without QUIRE_METRICS_TOKEN the metrics answer only on this machine (a loopback address)")
    }
    yield* Telemetry.sampleGauges
    const body = yield* PrometheusMetrics.format()
    return HttpServerResponse.text(body, {
      contentType: "text/plain; version=0.0.4; charset=utf-8",
      headers: { "cache-control": "no-store" }
    })
  }))
}))
