/**
 * `S3Server.start` as a process of its own, for tests that start Quire's processes (the
 * deployment test): prints `S3 endpoint: <url>` and serves until its stdin closes or it is killed.
 */
import { Effect } from "effect"
import * as S3Testing from "./S3Server.ts"

await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
  const endpoint = yield* S3Testing.start
  yield* Effect.sync(() => process.stdout.write(`S3 endpoint: ${endpoint}\n`))
  yield* Effect.callback<void>((resume) => {
    process.stdin.on("end", () => resume(Effect.void))
    process.stdin.on("close", () => resume(Effect.void))
    process.stdin.resume()
  })
})))
