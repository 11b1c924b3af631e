/**
 * The Quire server: embedded PostgreSQL in QUIRE_DATA_DIR by default, a real server with
 * DATABASE_URL. The database is opened and migrated, and the administrator bootstrapped,
 * before the HTTP server starts listening.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger, Option, Redacted } from "effect"
import { AccountMail, Users } from "@quire/identity"
import * as Metrics from "@quire/kernel/Metrics"
import { Platform, SecretFile, StartupFailure, Telemetry } from "@quire/platform"
import * as CollabLazy from "./collab/CollabLazy.ts"
import { CollabStoredMarkdown } from "@quire/live"
import * as Http from "./Http.ts"
import * as NodeServer from "./NodeServer.ts"
import { PublicUrl } from "./PublicUrl.ts"
import * as RequestLog from "./RequestLog.ts"
import * as ServerConfig from "./ServerConfig.ts"

const main = Effect.gen(function*() {
  const config = yield* ServerConfig.load
  const publicUrl = ServerConfig.publicUrlOf(config)

  const bootstrap = Layer.effectDiscard(Effect.gen(function*() {
    const users = yield* Users
    const secret = Option.map(config.adminToken, Redacted.value)
    const { generated, revoked, user } = yield* users.bootstrapAdmin(config.adminEmail, Option.getOrUndefined(secret))
    if (revoked > 0) {
      yield* Effect.logInfo(`Revoked the previous bootstrap token of ${user.email}: QUIRE_ADMIN_TOKEN changed`)
    }
    if (generated !== undefined) {
      yield* Effect.logWarning(
        `Created the instance administrator ${user.email}. Its API token, shown only now: ${generated} ` +
          `(also the setup code the browser app asks for at ${publicUrl}/setup to set the administrator's password)`
      )
    }
  }))

  const ready = Layer.merge(bootstrap, Telemetry.layerSampler).pipe(
    // Mail (QUIRE_SMTP_URL) with links to the app at the public URL: invitations, email proofs, notices.
    // A merge writes live edits not yet written back with the editor's codec, loaded on first use.
    Layer.provideMerge(Platform.layer.pipe(Layer.provide([AccountMail.layerConfig(publicUrl), CollabStoredMarkdown.layer]))),
    Layer.provideMerge(PublicUrl.layer(publicUrl))
  )

  // Live editing on `/collab` of the same server (QUIRE_REDIS_URL: relayed between servers),
  // loaded by the first upgrade there.
  const collab = CollabLazy.layer()
  const http = Layer.merge(Http.serve, collab).pipe(
    Layer.provide(NodeServer.layer({
      port: config.port,
      host: config.host,
      gracefulShutdownTimeout: "3 seconds"
    }, config.requestLog === "on" ? RequestLog.make(config.logFormat) : undefined)),
    Layer.provide(ready),
    // Without QUIRE_SECRET, the secret kept in the data directory signs links, cursors and sessions.
    Layer.provide(SecretFile.layer),
    // Spans and metrics to an OTLP endpoint when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md).
    Layer.provide(Telemetry.layer("quire-server")),
    Layer.provide(Metrics.layerRegistry)
  )

  const logger = Logger.layer([config.logFormat === "json" ? Logger.consoleJson : Logger.consolePretty()])
  return yield* Layer.launch(http).pipe(
    Effect.onInterrupt(() => Effect.logInfo("Quire server stopped")),
    Effect.provide(logger)
  )
})

// SIGTERM and SIGINT interrupt `main`: the server stops accepting connections, answers the
// requests in flight (for up to 3 seconds), closes the database (PGlite flushes its files), logs
// "stopped" and exits 0 rather than 130. A start that fails (no database, the port in use) is one
// line on stderr and exit status 1.
NodeRuntime.runMain(main, { teardown: StartupFailure.teardown("quire server"), disableErrorReporting: true })
