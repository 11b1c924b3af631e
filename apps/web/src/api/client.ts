/**
 * The app's only client of the public API: an AtomHttpApi service (./atomApi.ts: effect's, with
 * each endpoint's client built on its first call) over the `packages/api`
 * contract (the CLI derives its client from the same contract), on this origin's `/v1`. The
 * browser sends the session cookie with each same-origin request, so the Authentication
 * middleware adds nothing. Screens read `query` atoms and write with `mutation` atoms; a mutation
 * names the `reactivityKeys` it invalidates (`org:<id>`, `space:<id>`).
 */
import { Layer } from "effect"
import { FetchHttpClient, HttpClient } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { Api, Authentication } from "@quire/api"
import * as AtomApi from "./atomApi.ts"

/** The session cookie travels by itself; no bearer token in the browser. */
const sessionCookie = HttpApiMiddleware.layerClient(Authentication, ({ next, request }) => next(request))

/**
 * No tracing spans nor `b3`/`traceparent` headers: the browser exports no traces, and a request
 * with headers of its own would not match the page's `<link rel="preload">` of the same URL (the
 * server names the first screen's requests in the page, WebApp.ts), so it would be fetched twice.
 */
const untraced = Layer.succeed(HttpClient.TracerDisabledWhen, () => true)

export class QuireApi extends AtomApi.Service<QuireApi>()("@quire/web/QuireApi", {
  api: Api,
  httpClient: Layer.mergeAll(FetchHttpClient.layer, sessionCookie, untraced),
  baseUrl: typeof window === "undefined" ? "http://localhost" : window.location.origin
}) {}

/** The reactivity key of what an organization holds (its spaces, collections, change requests). */
export const orgKey = (organizationId: string) => `org:${organizationId}`
