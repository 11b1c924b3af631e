/**
 * Entry point of the worker process: `tooling/build/start.sh worker` runs its bundle (after
 * `pnpm build`), `pnpm --filter @quire/worker dev` its sources.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Config, Effect, Layer } from "effect"
import { CollabStoredMarkdown } from "@quire/live"
import { jobs, Platform, SecretFile, StartupFailure, Telemetry } from "@quire/platform"
import * as Worker from "./Worker.ts"


/** The domain services the jobs use, on the deployment's PostgreSQL (migrated if needed). */
const services = Layer.unwrap(Effect.gen(function*() {
  const url = yield* Config.NonEmptyString("DATABASE_URL").pipe(Effect.mapError(() => new Worker.MissingDatabaseUrl()))
  // The server's instance secret (QUIRE_SECRET, else the shared QUIRE_DATA_DIR's secret file) opens
  // what it sealed: Git sync's repository credentials above all.
  // Mail as the server sends it (notifications are mailed by a job), to links at QUIRE_PUBLIC_URL.
  // A merge a job makes writes live edits not yet written back with the editor's codec, as the server's.
  return Platform.layerPostgres(url).pipe(Layer.provide(SecretFile.layer), Layer.provide([Platform.layerWorkerMail, CollabStoredMarkdown.layer]))
}))

// SIGINT/SIGTERM interrupt the program; a clean shutdown after a signal exits 0, not 130. A start
// that fails (no DATABASE_URL, a database it cannot reach) is one line on stderr and exit status 1.
Worker.run(jobs).pipe(
  Effect.provide(services),
  // Job spans and metrics (attempts by outcome, durations) to an OTLP endpoint when
  // OTEL_EXPORTER_OTLP_ENDPOINT is set: the worker has no HTTP listener for /metrics.
  Effect.provide(Telemetry.layer("quire-worker")),
  NodeRuntime.runMain({ teardown: StartupFailure.teardown("quire worker"), disableErrorReporting: true })
)
