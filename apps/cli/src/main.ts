/** The `quire` process: runs the command line and exits with its status. */
// The modules themselves, not the package's index, which would load every Node adapter (redis, ws...).
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Stdio } from "effect"
import * as Cli from "./Cli.ts"

const main = Effect.gen(function*() {
  const stdio = yield* Stdio.Stdio
  const status = yield* Cli.run(yield* stdio.args)
  // Leave through the event loop rather than process.exit, so piped stdout is flushed.
  process.exitCode = status
})

main.pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain)
