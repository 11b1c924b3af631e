/** Handlers of the unauthenticated system group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Storage } from "@quire/platform"

export const layer = HttpApiBuilder.group(Api, "system", Effect.fn(function*(handlers) {
  const storage = yield* Storage
  return handlers.handle("health", () => Effect.succeed({ status: "ok" as const, database: storage.kind }))
}))
