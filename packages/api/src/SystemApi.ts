/** Unauthenticated system endpoints. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"

export const Health = Schema.Struct({
  status: Schema.Literal("ok"),
  database: Schema.Literals(["embedded", "postgres", "memory"])
})

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true }).add(
  /** Liveness and readiness: answers once the database is migrated. */
  HttpApiEndpoint.get("health", "/health", { success: Health })
) {}
