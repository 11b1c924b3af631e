/**
 * Git sync across packages: a merged change request and an edit of a connected space make one
 * export (debounced), pushed with the git binary to a file:// bare repository and authored by the
 * acting user as identity knows them.
 */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { execFileSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { documentHash, SpaceContent, Spaces } from "@quire/content"
import { GitSync } from "@quire/gitsync"
import { Organizations, Users } from "@quire/identity"
import { JobRunner } from "@quire/queue"
import { ChangeRequests, Merges } from "@quire/reviews"
import { asInstanceAdmin } from "@quire/testkit"
import * as Queue from "../src/Queue.ts"
import * as Services from "../src/Services.ts"
import * as Live from "./Live.ts"

// The platform's transport reads these settings (from the environment in production).
const settings = ConfigProvider.layerAdd(
  ConfigProvider.fromUnknown({ QUIRE_GIT_ALLOW_FILE: "1", QUIRE_GIT_CACHE_DIR: mkdtempSync(join(tmpdir(), "quire-platform-git-cache-")) }),
  { asPrimary: true }
)

const layer = Queue.layerInProcessWith(Live.layerMemory).pipe(Layer.provideMerge(Services.layerMemoryRepos), Layer.provide(settings))

const git = (dir: string, ...args: ReadonlyArray<string>) => execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8" }).trim()

describe("Git sync on the platform", () => {
  it.effect("a merge and an edit of a connected space make one export, authored by the user; a merge alone is exported under its subject", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "quire-platform-git-"))
      execFileSync("git", ["init", "--bare", "--quiet", "--initial-branch=main", dir])
      const { user } = yield* (yield* Users).bootstrapAdmin("admin@quire.test", "quire_test_admin_token")
      const asAdmin = asInstanceAdmin(user.id)
      const runner = yield* JobRunner
      const space = yield* Effect.gen(function*() {
        const org = yield* (yield* Organizations).create({ title: "Acme" })
        const { space } = yield* (yield* Spaces).create(org.organization.id, { title: "Docs" })
        const content = yield* SpaceContent
        const intro = "Stay."
        yield* content.commit(space.id, () =>
          Effect.succeed({
            pages: [{ id: `${space.id}-intro`, type: "document", title: "Intro", slug: "intro", document: documentHash(intro), createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", pages: [] }],
            documents: new Map([[documentHash(intro), intro]])
          }))
        yield* (yield* GitSync).connect(space.id, { url: `file://${dir}`, ref: "refs/heads/main" })

        const changeRequests = yield* ChangeRequests
        const cr = yield* changeRequests.create(space.id, { subject: "Nebula" })
        yield* changeRequests.updateContent(space.id, cr.changeRequest.id, [{ operation: "insert_page", title: "Nebula", markdown: "Nebula notes." }])
        yield* (yield* Merges).merge(space.id, cr.changeRequest.id)
        const more = "Stay longer."
        yield* content.commit(space.id, (parent) =>
          Effect.succeed({
            pages: parent.pages.map((p) => p.title === "Intro" ? { ...p, document: documentHash(more) } : p),
            documents: new Map([[documentHash(more), more]])
          }))
        return space
      }).pipe(asAdmin)

      yield* runner.drain
      yield* TestClock.adjust("10 seconds")
      yield* runner.drain
      assert.strictEqual(git(dir, "rev-list", "--count", "refs/heads/main"), "1")
      const [subject, author] = git(dir, "log", "--format=%s|%an <%ae>", "refs/heads/main").split("|")
      assert.match(subject ?? "", /^Update from Quire/)
      assert.include(author, "<admin@quire.test>")
      const files = git(dir, "ls-tree", "-r", "--name-only", "refs/heads/main")
      assert.include(files, "nebula.md")
      assert.include(git(dir, "grep", "-l", "Stay longer.", "refs/heads/main"), "README.md")

      // A merge alone is exported under the change request's subject.
      const comet = yield* Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const cr = yield* changeRequests.create(space.id, { subject: "Add the comet page" })
        yield* changeRequests.updateContent(space.id, cr.changeRequest.id, [{ operation: "insert_page", title: "Comet", markdown: "Comet notes." }])
        yield* (yield* Merges).merge(space.id, cr.changeRequest.id)
        return cr.changeRequest
      }).pipe(asAdmin)
      yield* runner.drain
      yield* TestClock.adjust("10 seconds")
      yield* runner.drain
      assert.strictEqual(git(dir, "rev-list", "--count", "refs/heads/main"), "2")
      assert.strictEqual(git(dir, "log", "-1", "--format=%s", "refs/heads/main"), "Add the comet page")
      assert.match(git(dir, "log", "-1", "--format=%b", "refs/heads/main"), new RegExp(`^Merged change request #${comet.number} in Quire \\(revision \\w+\\)\\.$`))
    }).pipe(Effect.provide(layer)))
})
