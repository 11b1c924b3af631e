/** Handlers of the unauthenticated system group. */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Api, ServiceUnavailable } from "@quire/api"
import { Storage } from "@quire/platform"
import { statSync } from "node:fs"
import { fileURLToPath } from "node:url"
import packageJson from "../../package.json" with { type: "json" }

/** When the running code was built: its file's modification time (the bundle's, once built), else now. */
const buildDate = (): string => {
  try {
    return statSync(fileURLToPath(import.meta.url)).mtime.toISOString()
  } catch {
    return new Date().toISOString()
  }
}

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
  const information = { version: packageJson.version, build: buildDate() }
  return handlers
    .handle("getApiInformation", () => Effect.succeed(information))
    .handle("health", () => Effect.as(probe, { status: "ok" as const, database: storage.kind }))
}))
