/**
 * Runs `quire` in-process, as a user would from a shell: arguments and environment in, what
 * was printed on stdout and stderr and the exit status out.
 */
import { NodeServices } from "@effect/platform-node"
import { assert } from "@effect/vitest"
import { ConfigProvider, Console, Effect, Schema } from "effect"
import { TestConsole } from "effect/testing"
import * as Cli from "../src/Cli.ts"

export interface Run {
  readonly status: number
  readonly stdout: string
  readonly stderr: string
}

const text = (lines: ReadonlyArray<unknown>) => lines.map(String).join("\n")

/** `quire ...args` with exactly `env` as its environment (the test process's is not seen). */
export const quire = Effect.fnUntraced(function*(args: ReadonlyArray<string>, env: Record<string, string> = {}) {
  const console = yield* TestConsole.make
  const status = yield* Cli.run(args).pipe(
    Effect.provideService(Console.Console, console),
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)),
    Effect.provide(NodeServices.layer)
  )
  const run: Run = { status, stdout: text(yield* console.logLines), stderr: text(yield* console.errorLines) }
  return run
})

/** Decodes `--json` output with the API's schema for it: the output must be the API's JSON. */
export const decodeJson = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) => (run: Run) =>
  Schema.decodeUnknownEffect(Schema.fromJsonString(schema))(run.stdout).pipe(Effect.orDie)

export const lines = (text: string) => text.split("\n")

/** The line of a table that contains `needle`. */
export const rowWith = (text: string, needle: string) => {
  const row = lines(text).find((line) => line.includes(needle))
  assert.isDefined(row, `no line with ${needle} in:\n${text}`)
  return row!
}
