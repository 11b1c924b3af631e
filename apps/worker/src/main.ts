/**
 * Entry point of the worker process: `tooling/build/start.sh worker` runs its bundle (after
 * `pnpm build`), `pnpm --filter @quire/worker dev` its sources.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Config, Effect, Exit, Layer, Runtime } from "effect"
import { jobs, Platform } from "@quire/platform"
import * as Worker from "./Worker.ts"

// SIGINT/SIGTERM interrupt the program; a clean shutdown after a signal exits 0, not 130.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

/** The domain services the jobs use, on the deployment's PostgreSQL (migrated if needed). */
const services = Layer.unwrap(Effect.gen(function*() {
  const url = yield* Config.NonEmptyString("DATABASE_URL").pipe(Effect.mapError(() => new Worker.MissingDatabaseUrl()))
  return Platform.layerPostgres(url)
}))

Worker.run(jobs).pipe(
  Effect.provide(services),
  Effect.catchTag("MissingDatabaseUrl", (error) =>
    Effect.logError(error.message).pipe(Effect.andThen(Effect.sync(() => {
      process.exitCode = 1
    })))),
  NodeRuntime.runMain({ teardown })
)
