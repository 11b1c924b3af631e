/** `quire git` without a server: its help, command-line refusals, and how it names branches and shows the sync state. */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { refOf, showState } from "../src/commands/GitCommands.ts"
import { quire } from "./Quire.ts"

describe("quire git", () => {
  it.effect("help lists the subcommands", () =>
    Effect.gen(function*() {
      const run = yield* quire(["git", "--help"])
      assert.strictEqual(run.status, 0, run.stderr)
      for (const command of ["connect", "import", "export", "status", "disconnect", "webhook"]) {
        assert.include(run.stdout, command)
      }
    }))

  it.effect("connect without its URL is a usage error (exit 2); without a token a failure (exit 1)", () =>
    Effect.gen(function*() {
      const missing = yield* quire(["git", "connect", "SPACE"], { QUIRE_TOKEN: "t" })
      assert.strictEqual(missing.status, 2)
      const noToken = yield* quire(["git", "status", "SPACE"])
      assert.strictEqual(noToken.status, 1)
      assert.include(noToken.stderr, "QUIRE_TOKEN")
    }))

  it("a branch becomes refs/heads/<branch>; a full ref is kept", () => {
    assert.strictEqual(refOf("main"), "refs/heads/main")
    assert.strictEqual(refOf("docs/v2"), "refs/heads/docs/v2")
    assert.strictEqual(refOf("refs/heads/main"), "refs/heads/main")
  })

  it("status shows the repository, branch and both runs, with a failure's error", () => {
    const text = showState({
      repoName: "acme/docs",
      installationProvider: "github",
      integration: "git",
      url: "https://github.com/acme/docs.git",
      updatedAt: "2026-01-31T12:00:00.000Z",
      installationId: "s1",
      installationStatus: "active",
      ref: "refs/heads/main",
      branch: "main",
      projectDirectory: "docs",
      connected: true,
      credentials: false,
      lastImport: { status: "succeeded", commit: "0123456789abcdef0123", at: "2026-01-31T12:01:00.000Z", error: null },
      lastExport: { status: "failed", commit: null, at: "2026-01-31T12:02:00.000Z", error: "Authentication failed for https://***@github.com/acme/docs.git" }
    })
    assert.match(text, /^repository:\s+https:\/\/github\.com\/acme\/docs\.git$/m)
    assert.match(text, /^branch:\s+main$/m)
    assert.match(text, /^directory:\s+docs$/m)
    assert.match(text, /^credentials:\s+none$/m)
    assert.match(text, /^last import:\s+succeeded {2}0123456789ab {2}2026-01-31 12:01$/m)
    assert.match(text, /^last export:\s+failed {2}2026-01-31 12:02$/m)
    assert.match(text, /^ {2}error: Authentication failed for https:\/\/\*\*\*@github\.com\/acme\/docs\.git$/m)
  })
})
