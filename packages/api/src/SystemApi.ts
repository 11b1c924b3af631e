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

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true }).add(
  /** Liveness and readiness: 200 when the database answers a query, 503 when it does not. */
  HttpApiEndpoint.get("health", "/health", { success: Health, error: ServiceUnavailable })
    .annotateMerge(OpenApi.annotations({
      summary: "Check the server is up",
      description: "Answers 200 with the kind of database in use while the database answers a query (within 3 seconds), 503 when it does not, so an orchestrator restarts the process. Needs no token; load balancers and orchestrators poll it."
    }))
) {}
