/** Entry point of the worker process (`pnpm --filter @quire/worker start`). */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Exit, Runtime } from "effect"
import { jobs } from "./Jobs.ts"
import * as Worker from "./Worker.ts"

// SIGINT/SIGTERM interrupt the program; a clean shutdown after a signal exits 0, not 130.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

Worker.run(jobs).pipe(
  Effect.catchTag("MissingDatabaseUrl", (error) =>
    Effect.logError(error.message).pipe(Effect.andThen(Effect.sync(() => {
      process.exitCode = 1
    })))),
  NodeRuntime.runMain({ teardown })
)
