/**
 * `--wait` of commands that start a job on the server (a Git import or export, a spec's
 * processing, a translation run): poll the job's state through the API until it ends, with a
 * status line on stderr for people at a terminal, and fail with the job's own error text.
 */
import { Console, Duration, Effect } from "effect"
import { Flag } from "effect/cli"
import { CliFailure } from "./Failure.ts"

/** The flags of a command that can wait for its job. */
export const flags = {
  wait: Flag.Boolean("wait").pipe(
    Flag.withDescription("Wait for the job to end: print its result, exit 1 with its error when it failed"),
    Flag.withDefault(false)
  ),
  timeout: Flag.Int("timeout").pipe(
    Flag.withDescription("With --wait: give up after this many seconds (exit 1)"),
    Flag.filter((n) => n >= 1, (n) => `--timeout must be at least 1 second, got ${n}`),
    Flag.withDefault(600)
  )
} as const

/** How often the state is read. */
export const interval = Duration.millis(300)

/** Where a job stands: still running (with a line for people), ended well, or failed with its error. */
export type State =
  | { readonly status: "running"; readonly line: string }
  | { readonly status: "succeeded" }
  | { readonly status: "failed"; readonly error: string }

export const running = (line: string): State => ({ status: "running", line })
export const succeeded: State = { status: "succeeded" }
export const failed = (error: string): State => ({ status: "failed", error })

/** Progress lines are for a person watching: none when stderr is a pipe or a file. */
const interactive = Effect.sync(() => process.stderr.isTTY === true)

/**
 * Reads the job with `read` every `interval` until `state` says it ended; answers the last
 * reading when it succeeded, fails with the job's own error text when it failed, or
 * with a timeout after `timeout` seconds. `what` names the job in those messages.
 */
export const until = Effect.fnUntraced(function*<A, E, R>(
  read: Effect.Effect<A, E, R>,
  state: (value: A) => State,
  options: { readonly what: string; readonly timeout: number }
) {
  const tty = yield* interactive
  let shown = ""
  const loop: Effect.Effect<A, E | CliFailure, R> = Effect.gen(function*() {
    const value = yield* read
    const now = state(value)
    if (now.status === "succeeded") return value
    if (now.status === "failed") {
      return yield* new CliFailure({ message: `${options.what} failed: ${now.error}` })
    }
    if (tty && now.line !== shown) {
      shown = now.line
      yield* Console.error(`${options.what}: ${now.line}`)
    }
    yield* Effect.sleep(interval)
    return yield* loop
  })
  return yield* loop.pipe(
    Effect.timeoutOrElse({
      duration: Duration.seconds(options.timeout),
      orElse: () =>
        Effect.fail(new CliFailure({ message: `${options.what} did not end within ${options.timeout} s (--timeout); it goes on on the server` }))
    })
  )
})
