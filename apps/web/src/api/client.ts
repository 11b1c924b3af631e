/**
 * The app's only client of the public API: an AtomHttpApi service over the `packages/api`
 * contract (the CLI derives its client from the same contract), on this origin's `/v1`. The
 * browser sends the session cookie with each same-origin request, so the Authentication
 * middleware adds nothing. Screens read `query` atoms and write with `mutation` atoms; a mutation
 * names the `reactivityKeys` it invalidates (`org:<id>`, `space:<id>`).
 */
import { Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { AtomHttpApi } from "effect/reactivity"
import { Api, Authentication } from "@quire/api"

/** The session cookie travels by itself; no bearer token in the browser. */
const sessionCookie = HttpApiMiddleware.layerClient(Authentication, ({ next, request }) => next(request))

export class QuireApi extends AtomHttpApi.Service<QuireApi>()("@quire/web/QuireApi", {
  api: Api,
  httpClient: Layer.merge(FetchHttpClient.layer, sessionCookie),
  baseUrl: typeof window === "undefined" ? "http://localhost" : window.location.origin
}) {}

/** The reactivity key of what an organization holds (its spaces, collections, change requests). */
export const orgKey = (organizationId: string) => `org:${organizationId}`
