/**
 * What ties a request's telemetry together: its id (`RequestLog.assignId`) on every log line
 * written while it runs and on its span, and the route template that answered it for the HTTP
 * metrics.
 */
import { Context, Effect, Option, References } from "effect"
import { HttpMiddleware, HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { HttpMetrics } from "./HttpMetrics.ts"
import { requestIdHeader } from "./RequestLog.ts"

/**
 * Around the router and every global middleware, the error envelope included (Http.serve): log
 * lines of the request carry `requestId`, its span (when spans are made) `http.request.id`.
 */
export const annotate = <E, R>(httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.withFiber<HttpServerResponse.HttpServerResponse, E, R>((fiber) => {
    const id = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest).headers[requestIdHeader]
    if (id === undefined) return httpEffect
    const annotated = Effect.annotateLogs(httpEffect, "requestId", id)
    return fiber.getRef(References.TracerEnabled) ? Effect.andThen(Effect.annotateCurrentSpan("http.request.id", id), annotated) : annotated
  })

/** A global router middleware recording the template of the route that answered (read once the route has run). */
export const routeLayer = HttpRouter.middleware(
  Effect.map(Effect.serviceOption(HttpMetrics), (metrics) => {
    if (Option.isNone(metrics)) return (httpEffect) => httpEffect
    // Made once: the same effect records every request's route.
    const record = Effect.withFiber((fiber) => {
      const route = Context.getOrUndefined(fiber.context, HttpRouter.RouteContext)?.route.path
      const request = Context.getOrUndefined(fiber.context, HttpServerRequest.HttpServerRequest)
      if (route !== undefined && request !== undefined) metrics.value.route(request.source as object, route)
      return Effect.void
    })
    const recorded = () => record
    return (httpEffect) => Effect.onExit(httpEffect, recorded)
  }),
  { global: true }
)

/** Probes and scrapes make no spans. */
export const layerQuietTracing = HttpMiddleware.layerTracerDisabledForUrls(["/health", "/v1/health", "/metrics"])
