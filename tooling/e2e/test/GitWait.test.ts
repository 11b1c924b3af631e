/**
 * `quire git import|export --wait` against a real server (memory backend) and a local bare
 * repository over `file://`: the command ends with the run, and a failed run exits 1 with its error.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { GitSyncState } from "@quire/api"
import { memory, spaceWith, withSettings } from "@quire/server/test/Harness"
import { bareRepository as seededRepository, git } from "./GitRepository.ts"
import { decodeJson, quireAs } from "./Quire.ts"

/** The repository these tests import from and export to. */
const bareRepository = seededRepository({ "README.md": "# Welcome\n\nStart here.\n" })

// As Git.test.ts: automatic exports wait a minute, so the runs awaited are the commands' own.
layer(withSettings(memory.layer, { QUIRE_GIT_DEBOUNCE_MS: 60_000 }), { timeout: 120_000, excludeTestServices: true })("quire git --wait", (it) => {
  it.effect("import --wait and export --wait end with the run and print the state", () =>
    Effect.gen(function*() {
      const repo = yield* bareRepository
      const { alice, space } = yield* spaceWith()
      const as = quireAs(alice.token)
      assert.strictEqual((yield* as("git", "connect", space.id, repo.url)).status, 0)

      const imported = yield* as("git", "import", space.id, "--wait", "--timeout", "60")
      assert.strictEqual(imported.status, 0, imported.stderr)
      const head = git(repo.bare, "rev-parse", "main")
      assert.match(imported.stdout, new RegExp(`^last import:\\s+succeeded\\s+${head.slice(0, 12)}\\s`, "m"))
      assert.strictEqual(imported.stderr, "")

      yield* alice.api.spaceContent.applyTemplateToSpace({ params: { spaceId: space.id }, payload: { id: "product-docs" } })
      const exported = yield* as("git", "export", space.id, "--message", "Docs from the CLI", "--wait", "--json").pipe(
        Effect.flatMap(decodeJson(GitSyncState))
      )
      assert.strictEqual(exported.lastExport?.status, "succeeded", exported.lastExport?.error ?? "")
      assert.strictEqual(exported.lastExport?.commit, git(repo.bare, "rev-parse", "main"))
      assert.strictEqual(git(repo.bare, "log", "-1", "--format=%s", "main"), "Docs from the CLI")

      // A second import of the same commit is its own run: --wait waits for it, not the first.
      const again = yield* as("git", "import", space.id, "--wait", "--json").pipe(Effect.flatMap(decodeJson(GitSyncState)))
      assert.notStrictEqual(again.lastImport?.at, undefined)
      assert.include(["succeeded", "skipped"], again.lastImport?.status)
    }))

  it.effect("import --wait of a repository that cannot be reached exits 1 with the run's error", () =>
    Effect.gen(function*() {
      const { alice, space } = yield* spaceWith()
      const as = quireAs(alice.token)
      assert.strictEqual((yield* as("git", "connect", space.id, "https://127.0.0.1:9/acme/docs.git")).status, 0)
      const failed = yield* as("git", "import", space.id, "--wait", "--timeout", "60")
      assert.strictEqual(failed.status, 1)
      assert.match(failed.stderr, new RegExp(`^quire: The import of space ${space.id} failed: .+$`))
      const queuedOnly = yield* as("git", "import", space.id)
      assert.strictEqual(queuedOnly.status, 0, queuedOnly.stderr)
      assert.include(queuedOnly.stdout, "queued")
    }))
})
