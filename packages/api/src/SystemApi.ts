/** Unauthenticated system endpoints. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

export const Health = Schema.Struct({
  status: Schema.Literal("ok"),
  database: Schema.Literals(["embedded", "postgres", "memory"])
})

/** The process cannot serve: its database does not answer. An orchestrator should restart it. */
export class ServiceUnavailable extends Schema.Error<ServiceUnavailable>("ServiceUnavailable")({
  error: Schema.Struct({ code: Schema.Literal(503), message: Schema.String })
}, { httpApiStatus: 503 }) {
  static of(message: string): ServiceUnavailable {
    return new ServiceUnavailable({ error: { code: 503, message } })
  }
}

/** GitBook's `ApiInformation`: the server's release and when it was built. */
export const ApiInformation = Schema.Struct({
  version: Schema.String,
  build: Schema.String
}).annotate({ identifier: "ApiInformation" })

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true }).add(
  /** The release of Quire answering, and its build date. */
  HttpApiEndpoint.get("getApiInformation", "/v1/", { success: ApiInformation })
    .annotateMerge(OpenApi.annotations({
      summary: "Get the API's version",
      description: "Answers the release of Quire that serves the API (`version`) and the date it was built, ISO 8601 (`build`). Needs no token."
    })),
  /** Liveness and readiness: 200 when the database answers a query, 503 when it does not. */
  HttpApiEndpoint.get("health", "/health", { success: Health, error: ServiceUnavailable })
    .annotateMerge(OpenApi.annotations({
      summary: "Check the server is up",
      description: "Answers 200 with the kind of database in use while the database answers a query (within 3 seconds), 503 when it does not, so an orchestrator restarts the process. Needs no token; load balancers and orchestrators poll it."
    }))
) {}
