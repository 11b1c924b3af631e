/**
 * The Quire server: embedded PostgreSQL in QUIRE_DATA_DIR by default, a real server with
 * DATABASE_URL. The database is opened and migrated, and the administrator bootstrapped,
 * before the HTTP server starts listening.
 */
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger, Option, Redacted } from "effect"
import { createServer } from "node:http"
import { Database } from "@quire/db"
import { Users } from "@quire/identity"
import * as Http from "./Http.ts"
import * as Queue from "./Queue.ts"
import { PublicUrl } from "./PublicUrl.ts"
import * as ServerConfig from "./ServerConfig.ts"
import * as Services from "./Services.ts"
import { Storage } from "./Storage.ts"

const main = Effect.gen(function*() {
  const config = yield* ServerConfig.load
  const publicUrl = ServerConfig.publicUrlOf(config)

  const bootstrap = Layer.effectDiscard(Effect.gen(function*() {
    const users = yield* Users
    const secret = Option.map(config.adminToken, Redacted.value)
    const { generated, user } = yield* users.bootstrapAdmin(config.adminEmail, Option.getOrUndefined(secret))
    if (generated !== undefined) {
      yield* Effect.logWarning(
        `Created the instance administrator ${user.email}. Its API token, shown only now: ${generated}`
      )
    }
  }))

  const storage = Layer.unwrap(Effect.map(Effect.service(Database.DatabaseInfo), (info) => Storage.layer(info.kind)))

  const ready = bootstrap.pipe(
    Layer.provideMerge(Queue.layer),
    Layer.provideMerge(Services.layerSql),
    Layer.provideMerge(storage),
    Layer.provideMerge(Database.layer),
    Layer.provideMerge(PublicUrl.layer(publicUrl))
  )

  const http = Http.serve.pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port: config.port, host: config.host })),
    Layer.provide(ready)
  )

  const logger = Logger.layer([config.logFormat === "json" ? Logger.consoleJson : Logger.consolePretty()])
  return yield* Layer.launch(http).pipe(Effect.provide(logger))
})

NodeRuntime.runMain(main)
