/** Handlers of the unauthenticated system group. */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Api, ServiceUnavailable } from "@quire/api"
import { Storage } from "@quire/platform"

/** How long `/health` waits for the database's answer before it reports the process unhealthy. */
const probeTimeout = "3 seconds"

export const layer = HttpApiBuilder.group(Api, "system", Effect.fn(function*(handlers) {
  const storage = yield* Storage
  // The memory server has no database; the others must answer `select 1` (one round trip, no table).
  const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
  const probe = Option.match(sql, {
    onNone: () => Effect.void,
    onSome: (sql) =>
      sql`select 1`.pipe(
        Effect.timeout(probeTimeout),
        Effect.mapError(() => ServiceUnavailable.of("The database does not answer")),
        Effect.asVoid
      )
  })
  return handlers.handle("health", () => Effect.as(probe, { status: "ok" as const, database: storage.kind }))
}))
