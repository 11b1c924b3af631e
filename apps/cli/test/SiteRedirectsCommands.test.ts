/** `quire sites redirects` without a server: its help and its command-line refusals. */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { quire } from "./Quire.ts"

describe("quire sites redirects", () => {
  it.effect("help lists the subcommands, and add names its flags", () =>
    Effect.gen(function*() {
      const run = yield* quire(["sites", "redirects", "--help"])
      assert.strictEqual(run.status, 0, run.stderr)
      for (const command of ["list", "add", "rm"]) assert.include(run.stdout, command)
      const add = yield* quire(["sites", "redirects", "add", "--help"])
      assert.strictEqual(add.status, 0, add.stderr)
      for (const flag of ["--space", "--permanent", "--draft"]) assert.include(add.stdout, flag)
    }))

  it.effect("add without its destination is a usage error (exit 2); without a token a failure (exit 1)", () =>
    Effect.gen(function*() {
      const missing = yield* quire(["sites", "redirects", "add", "ORG", "SITE", "/old"], { QUIRE_TOKEN: "t" })
      assert.strictEqual(missing.status, 2)
      const noToken = yield* quire(["sites", "redirects", "list", "ORG", "SITE"])
      assert.strictEqual(noToken.status, 1, noToken.stderr + noToken.stdout)
      assert.include(noToken.stderr, "QUIRE_TOKEN")
    }))
})
