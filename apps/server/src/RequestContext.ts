/**
 * What ties a request's telemetry together: its id (`RequestLog.assignId`) on every log line
 * written while it runs and on its span, and the route template that answered it for the HTTP
 * metrics.
 */
import { Context, Effect, Option } from "effect"
import { HttpMiddleware, HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { HttpMetrics } from "./HttpMetrics.ts"
import { requestIdHeader } from "./RequestLog.ts"

/**
 * The server-wide middleware (`HttpRouter.serve`'s, around every global one, the error envelope
 * included): log lines of the request carry `requestId`, its span `http.request.id`.
 */
export const annotate = <E, R>(httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
    const id = request.headers[requestIdHeader]
    return id === undefined
      ? httpEffect
      : Effect.andThen(Effect.annotateCurrentSpan("http.request.id", id), httpEffect).pipe(Effect.annotateLogs("requestId", id))
  })

/** A global router middleware recording the template of the route that answered (read once the route has run). */
export const routeLayer = HttpRouter.middleware(
  Effect.map(Effect.serviceOption(HttpMetrics), (metrics) => (httpEffect) =>
    Option.match(metrics, {
      onNone: () => httpEffect,
      onSome: (metrics) =>
        Effect.onExit(httpEffect, () =>
          Effect.withFiber((fiber) => {
            const route = Context.getOrUndefined(fiber.context, HttpRouter.RouteContext)?.route.path
            const request = Context.getOrUndefined(fiber.context, HttpServerRequest.HttpServerRequest)
            if (route !== undefined && request !== undefined) metrics.route(request.source as object, route)
            return Effect.void
          }))
    })),
  { global: true }
)

/** Probes and scrapes make no spans. */
export const layerQuietTracing = HttpMiddleware.layerTracerDisabledForUrls(["/health", "/v1/health", "/metrics"])
