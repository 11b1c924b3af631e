/** `quire git` against a real server (memory backend) and a local bare repository over `file://`. */
import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { GitSyncState } from "@quire/api"
import { memory, spaceWith, withSettings } from "@quire/server/test/Harness"
import { bareRepository as seededRepository, git } from "./GitRepository.ts"
import { decodeJson, quireAs } from "./Quire.ts"

const decodeState = decodeJson(GitSyncState)

const secretUrl = "https://quire-bot:s3cr3t-pa55@127.0.0.1:9/acme/docs.git"

/** The repository these tests import from and export to. */
const bareRepository = seededRepository({
  "README.md": "# Welcome\n\nStart here.\n",
  "SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n",
  "install.md": "# Install\n\nRun the installer.\n"
})

/** `quire git status --json` once `which` of the last runs has finished. */
const settled = (as: ReturnType<typeof quireAs>, spaceId: string, which: "lastImport" | "lastExport") =>
  as("git", "status", spaceId, "--json").pipe(
    Effect.flatMap(decodeState),
    Effect.filterOrFail(
      (state) => state[which] !== null && ["succeeded", "failed", "skipped"].includes(state[which]!.status),
      () => new Error(`${which} still running`)
    ),
    Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 }),
    Effect.orDie
  )

// Automatic exports wait a minute here: this file's exports are the ones its commands ask for. With
// the harness's 300 ms, an edit's automatic export could run before a slow CLI call queued the one
// under test (the explicit one takes a waiting automatic one's place, not one already pushed).
layer(withSettings(memory.layer, { QUIRE_GIT_DEBOUNCE_MS: 60_000 }), { timeout: 120_000, excludeTestServices: true })("quire git", (it) => {
  it.effect("connect shows the repository without its credentials; status tells the failed import and why", () =>
    Effect.gen(function*() {
      const { alice, space } = yield* spaceWith()
      const as = quireAs(alice.token)
      const none = yield* as("git", "status", space.id)
      assert.strictEqual(none.status, 1)

      const connected = yield* as("git", "connect", space.id, secretUrl, "--branch", "main", "--directory", "docs")
      assert.strictEqual(connected.status, 0, connected.stderr)
      assert.match(connected.stdout, /^repository:\s+https:\/\/127\.0\.0\.1:9\/acme\/docs\.git$/m)
      assert.match(connected.stdout, /^branch:\s+main$/m)
      assert.match(connected.stdout, /^directory:\s+docs$/m)
      assert.match(connected.stdout, /^automatic sync:\s+yes$/m)
      assert.match(connected.stdout, /^last import:\s+never$/m)

      // Nothing listens on port 9, and the connected URL as shown has no credentials: the import fails.
      const imported = yield* as("git", "import", space.id)
      assert.strictEqual(imported.status, 0, imported.stderr)
      assert.include(imported.stdout, "queued")
      yield* settled(as, space.id, "lastImport")
      const status = yield* as("git", "status", space.id)
      assert.match(status.stdout, /^last import:\s+failed\s+\d{4}-\d\d-\d\d \d\d:\d\d$/m)
      assert.match(status.stdout, /^ {2}error: .+$/m)
      const all = [connected, imported, status].map((run) => run.stdout + run.stderr).join("\n")
      assert.notInclude(all, "s3cr3t-pa55")

      const bad = yield* as("git", "connect", space.id, "not a url")
      assert.strictEqual(bad.status, 1)
      assert.include(bad.stderr, "url")
    }))

  it.effect("import then export over file://: status shows both commits, the export is one commit with the message", () =>
    Effect.gen(function*() {
      const repo = yield* bareRepository
      const { alice, space } = yield* spaceWith()
      const spaceId = space.id
      const as = quireAs(alice.token)
      assert.strictEqual((yield* as("git", "connect", spaceId, repo.url)).status, 0)
      assert.strictEqual((yield* as("git", "import", spaceId)).status, 0)
      const imported = yield* settled(as, spaceId, "lastImport")
      assert.strictEqual(imported.lastImport?.status, "succeeded", imported.lastImport?.error ?? "")
      assert.strictEqual(imported.lastImport?.commit, git(repo.bare, "rev-parse", "main"))
      const { pages } = yield* alice.api.spaceContent.listPages({ params: { spaceId }, query: {} })
      assert.deepStrictEqual(pages.map((page) => page.title), ["Welcome", "Install"])

      yield* alice.api.spaceContent.applyTemplateToSpace({ params: { spaceId }, payload: { id: "product-docs" } })
      const exported = yield* as("git", "export", spaceId, "--message", "Docs from the CLI")
      assert.strictEqual(exported.status, 0, exported.stderr)
      const done = yield* settled(as, spaceId, "lastExport")
      assert.strictEqual(done.lastExport?.status, "succeeded", done.lastExport?.error ?? "")
      assert.strictEqual(git(repo.bare, "log", "-1", "--format=%s", "main"), "Docs from the CLI")
      assert.strictEqual(git(repo.bare, "rev-list", "--count", "main"), "2")

      const status = yield* as("git", "status", spaceId)
      assert.match(status.stdout, new RegExp(`^last export:\\s+succeeded\\s+${done.lastExport!.commit!.slice(0, 12)}\\s`, "m"))
      assert.match(status.stdout, new RegExp(`^last import:\\s+succeeded\\s+${imported.lastImport!.commit!.slice(0, 12)}\\s`, "m"))
    }))

  it.effect("a reader cannot import; the webhook secret is for admins", () =>
    Effect.gen(function*() {
      const { alice, members, space } = yield* spaceWith(["read"])
      const as = quireAs(alice.token)
      assert.strictEqual((yield* as("git", "connect", space.id, secretUrl)).status, 0)
      const hook = yield* as("git", "webhook", space.id)
      assert.strictEqual(hook.status, 0, hook.stderr)
      assert.match(hook.stdout, new RegExp(`^url:\\s+\\S+/v1/spaces/${space.id}/git/webhook$`, "m"))
      assert.match(hook.stdout, /^secret:\s+\S{16,}$/m)

      const reader = quireAs(members.read!.token)
      const refused = yield* reader("git", "import", space.id, "--url", "https://example.com/a/b.git", "--branch", "main")
      assert.strictEqual(refused.status, 1)
      assert.strictEqual((yield* reader("git", "webhook", space.id)).status, 1)
      const shown = yield* reader("git", "status", space.id)
      assert.strictEqual(shown.status, 0, shown.stderr)
      assert.notInclude(shown.stdout, "s3cr3t-pa55")

      const gone = yield* as("git", "disconnect", space.id)
      assert.strictEqual(gone.status, 0)
      assert.strictEqual((yield* as("git", "status", space.id)).status, 1)
    }))
})
