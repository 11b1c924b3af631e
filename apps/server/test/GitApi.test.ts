/**
 * Git sync through the real router and the typed client, on every backend: the field rules of
 * import and export, the sync state, permissions, credentials never shown, the push webhook, and
 * an import then an export over a local bare repository (`file://`), also through GitBook's client.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { ConfigProvider, Effect, Layer, Schedule } from "effect"
import type { GitSyncState } from "@quire/api"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { createHmac } from "node:crypto"
import { symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
// gitsync's test Git host (git http-backend behind basic auth); its package exports no test helpers.
import * as GitHttpServer from "../../../packages/gitsync/test/GitHttpServer.ts"
import { bareRepository, git } from "./GitRepositories.ts"
import { everyBackend, baseUrl, type Client, errorCode, errorMessage, newUser, raw, serverOn, spaceWith } from "./Harness.ts"
import { get } from "./SiteFixtures.ts"

const secretUrl = "https://quire-bot:s3cr3t-pa55@127.0.0.1:9/acme/docs.git"
const main = "refs/heads/main"

/** The status and body of a raw request by `token`. */
const send = (token: string, method: string, path: string, body: unknown) =>
  raw(method, path, { token, body: JSON.stringify(body) })

/** A raw POST of the push webhook with `headers`, as a Git host sends it. */
const deliver = Effect.fnUntraced(function*(spaceId: string, body: string, headers: Record<string, string>) {
  const base = yield* baseUrl
  const response = yield* Effect.promise(() =>
    fetch(`${base}/v1/spaces/${spaceId}/git/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body
    })
  )
  const text = yield* Effect.promise(() => response.text())
  return { status: response.status, text }
})

/** GitHub's `X-Hub-Signature-256` of `text` under `secret`. */
const sign = (secret: string, text: string) => `sha256=${createHmac("sha256", secret).update(text).digest("hex")}`

const finished = (run: GitSyncState["lastImport"]) =>
  run !== null && (run.status === "succeeded" || run.status === "failed" || run.status === "skipped")

/** Git info once `which` of the last runs has finished (the job runs in the background). */
const settled = (api: Client, spaceId: string, which: "lastImport" | "lastExport") =>
  api.git.getSpaceGitInfo({ params: { spaceId } }).pipe(
    Effect.filterOrFail((info) => finished(info[which]), () => new Error(`${which} still running`)),
    Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 }),
    Effect.orDie
  )

/** A space whose content came from a good two-page import: what a failed import must leave as it was. */
const importedSpace = Effect.fnUntraced(function*() {
  const good = yield* bareRepository({ "README.md": "# Home\n\nKept.\n", "guide.md": "# Guide\n\nKept too.\n" })
  const { alice, space } = yield* spaceWith()
  const spaceId = space.id
  yield* alice.api.git.importGitRepository({ params: { spaceId }, payload: { url: good.url, ref: main } })
  assert.strictEqual((yield* settled(alice.api, spaceId, "lastImport")).lastImport?.status, "succeeded")
  const before = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
  return { alice, spaceId, before }
})

/** Everything `api` shows of the space's Git sync, as one text. */
const everything = Effect.fnUntraced(function*(api: Client, spaceId: string) {
  const info = yield* api.git.getSpaceGitInfo({ params: { spaceId } })
  const space = yield* api.spaces.getSpaceById({ params: { spaceId }, query: {} })
  return JSON.stringify({ info, space })
})

for (const backend of everyBackend) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`Git sync API on ${backend.name}`, (it) => {
    it.effect("connect, import and export: 204, info shows the runs, credentials are never shown", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const connected = yield* alice.api.git.connectSpaceGitRepository({
          params: { spaceId },
          payload: { url: secretUrl, ref: main, repoProjectDirectory: "docs" }
        })
        assert.strictEqual(connected.repoName, "acme/docs")
        assert.strictEqual(connected.url, "https://127.0.0.1:9/acme/docs.git")
        assert.strictEqual(connected.ref, main)
        assert.strictEqual(connected.branch, "main")
        assert.strictEqual(connected.projectDirectory, "docs")
        assert.isTrue(connected.connected)
        assert.isTrue(connected.credentials, "the stored URL carries credentials; the answer says so and shows none")
        assert.strictEqual(connected.installationId, spaceId)

        yield* alice.api.git.importGitRepository({
          params: { spaceId },
          payload: { url: secretUrl, ref: main, timestamp: new Date().toISOString(), repoCacheID: "ignored" }
        })
        const queued = yield* alice.api.git.getSpaceGitInfo({ params: { spaceId } })
        assert.isNotNull(queued.lastImport, "the import is on record as soon as it is queued")
        assert.isNull(queued.lastExport)
        const afterImport = yield* settled(alice.api, spaceId, "lastImport")
        // Nothing listens on port 9: the import fails, and says why without the credentials.
        assert.strictEqual(afterImport.lastImport?.status, "failed")
        assert.isNotNull(afterImport.lastImport?.error)
        assert.strictEqual(afterImport.operation?.direction, "import")
        assert.strictEqual(afterImport.operation?.state, "failure")

        yield* alice.api.git.exportToGitRepository({
          params: { spaceId },
          payload: { url: secretUrl, ref: main, commitMessage: "Docs from Quire" }
        })
        const afterExport = yield* settled(alice.api, spaceId, "lastExport")
        assert.strictEqual(afterExport.lastExport?.status, "failed")

        const shown = yield* alice.api.spaces.getSpaceById({ params: { spaceId }, query: {} })
        assert.deepStrictEqual(
          { ...shown.gitSync, updatedAt: undefined },
          { repoName: "acme/docs", installationProvider: "github", integration: "git", installationId: spaceId, installationStatus: "active", url: "https://127.0.0.1:9/acme/docs.git", updatedAt: undefined }
        )
        const listed = yield* alice.api.spaces.listSpacesInOrganizationById({ params: { organizationId: shown.organization }, query: {} })
        assert.strictEqual(listed.items.find((s) => s.id === spaceId)?.gitSync?.repoName, "acme/docs")

        const text = yield* everything(alice.api, spaceId)
        assert.notInclude(text, "s3cr3t-pa55")
        assert.notInclude(text, "quire-bot")
        const openapi = yield* raw("GET", `/v1/spaces/${spaceId}/git/info`, { token: alice.token })
        assert.notInclude(JSON.stringify(openapi.body), "s3cr3t-pa55")

        // Another branch, the credentials kept without being typed again (Quire's `keepCredentials`).
        const rebranched = yield* alice.api.git.connectSpaceGitRepository({
          params: { spaceId },
          payload: { url: connected.url, ref: "refs/heads/next", repoProjectDirectory: "docs", keepCredentials: true }
        })
        assert.deepStrictEqual([rebranched.branch, rebranched.credentials], ["next", true])
        // Kept for another repository: a 400 naming the field. Not a boolean: a 400 too.
        for (const body of [{ url: "https://127.0.0.1:9/acme/other.git", ref: main, keepCredentials: true }, { url: connected.url, ref: main, keepCredentials: "yes" }]) {
          const answer = yield* send(alice.token, "PUT", `/v1/spaces/${spaceId}/git`, body)
          assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
          assert.include(errorMessage(answer.body), "keepCredentials")
        }
        const plain = yield* alice.api.git.connectSpaceGitRepository({ params: { spaceId }, payload: { url: connected.url, ref: main } })
        assert.isFalse(plain.credentials, "connected without credentials and without keeping them: none are stored")

        yield* alice.api.git.disconnectSpaceGitRepository({ params: { spaceId } })
        yield* alice.api.git.disconnectSpaceGitRepository({ params: { spaceId } })
        const gone = yield* alice.api.spaces.getSpaceById({ params: { spaceId }, query: {} })
        assert.isUndefined(gone.gitSync)
      }))

    it.effect("imports a repository in GitBook's layout over file://, then exports an edit as one commit", () =>
      Effect.gen(function*() {
        const repo = yield* bareRepository({
          "README.md": "# Welcome\n\nStart here.\n",
          "SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md \"Setup\")\n",
          "install.md": "---\ndescription: How to install\n---\n\n# Install\n\nRun the installer.\n\n![Logo](.gitbook/assets/logo.txt)\n",
          ".gitbook/assets/logo.txt": "a logo"
        })
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        yield* alice.api.git.importGitRepository({ params: { spaceId }, payload: { url: repo.url, ref: main } })
        const imported = yield* settled(alice.api, spaceId, "lastImport")
        assert.strictEqual(imported.lastImport?.status, "succeeded", imported.lastImport?.error ?? "")
        const head = git(repo.bare, "rev-parse", "main")
        assert.strictEqual(imported.lastImport?.commit, head)

        const revision = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        assert.deepStrictEqual(revision.pages.map((page) => page.title), ["Welcome", "Install"])
        assert.strictEqual(revision.git?.oid, head)
        assert.isTrue(revision.git?.createdByService)
        assert.strictEqual(revision.pages[1]?.git?.path, "install.md")
        assert.strictEqual(revision.pages[1]?.description, "How to install")
        // SUMMARY.md's link title is the navigation label, GitBook's linkTitle.
        assert.deepStrictEqual([revision.pages[1]?.title, revision.pages[1]?.linkTitle], ["Install", "Setup"])
        const logo = revision.files.find((file) => file.name === "logo.txt")
        assert.strictEqual(logo?.git?.path, ".gitbook/assets/logo.txt")
        assert.strictEqual(logo?.git?.oid, git(repo.bare, "rev-parse", "main:.gitbook/assets/logo.txt"))
        assert.strictEqual(revision.pages[1]?.git?.oid, git(repo.bare, "rev-parse", "main:install.md"))

        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "More" } })
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId, changeRequestId: cr.id },
          payload: { changes: [{ operation: "insert_page", title: "Upgrade", document: { markdown: "Run it again." } }] }
        })
        yield* alice.api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
        yield* alice.api.git.exportToGitRepository({
          params: { spaceId },
          payload: { url: repo.url, ref: main, commitMessage: "Upgrade page from Quire" }
        })
        const exported = yield* settled(alice.api, spaceId, "lastExport")
        assert.strictEqual(exported.lastExport?.status, "succeeded", exported.lastExport?.error ?? "")
        assert.strictEqual(git(repo.bare, "log", "-1", "--format=%s", "main"), "Upgrade page from Quire")
        assert.strictEqual(exported.lastExport?.commit, git(repo.bare, "rev-parse", "main"))
        assert.include(git(repo.bare, "show", "main:SUMMARY.md"), "Upgrade")
        // The files nobody edited keep their bytes.
        assert.strictEqual(
          git(repo.bare, "show", "main:install.md"),
          "---\ndescription: How to install\n---\n\n# Install\n\nRun the installer.\n\n![Logo](.gitbook/assets/logo.txt)"
        )
        assert.strictEqual(git(repo.bare, "show", "main:.gitbook/assets/logo.txt"), "a logo")
      }))

    it.effect("automatic sync: a signed push to the branch imports it, a merge exports it, neither loops back", () =>
      Effect.gen(function*() {
        const repo = yield* bareRepository({ "README.md": "# Hello\n\nFrom Git.\n" })
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        yield* alice.api.git.connectSpaceGitRepository({ params: { spaceId }, payload: { url: repo.url, ref: main } })
        const { secret } = yield* alice.api.git.getSpaceGitWebhook({ params: { spaceId } })

        writeFileSync(join(repo.work, "guide.md"), "# Guide\n\nPushed to Git.\n")
        writeFileSync(join(repo.work, "SUMMARY.md"), "# Table of contents\n\n* [Hello](README.md)\n* [Guide](guide.md)\n")
        git(repo.work, "add", ".")
        git(repo.work, "commit", "--quiet", "-m", "Add a guide")
        git(repo.work, "push", "--quiet", repo.bare, "main")
        const pushed = git(repo.bare, "rev-parse", "main")
        const body = JSON.stringify({ ref: main, after: pushed, head_commit: { id: pushed, message: "Add a guide", timestamp: new Date().toISOString() } })
        const delivered = yield* deliver(spaceId, body, { "x-github-event": "push", "x-hub-signature-256": sign(secret, body) })
        assert.strictEqual(delivered.status, 204, delivered.text)
        const imported = yield* settled(alice.api, spaceId, "lastImport")
        assert.strictEqual(imported.lastImport?.status, "succeeded", imported.lastImport?.error ?? "")
        assert.strictEqual(imported.lastImport?.commit, pushed)
        const revision = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        assert.deepStrictEqual(revision.pages.map((page) => page.title), ["Hello", "Guide"])
        assert.strictEqual(revision.git?.message, "Add a guide")
        // The import is from Git: it does not export back.
        assert.isNull((yield* alice.api.git.getSpaceGitInfo({ params: { spaceId } })).lastExport)

        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "FAQ" } })
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId, changeRequestId: cr.id },
          payload: { changes: [{ operation: "insert_page", title: "FAQ", document: { markdown: "Ask away." } }] }
        })
        yield* alice.api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
        const exported = yield* settled(alice.api, spaceId, "lastExport")
        assert.strictEqual(exported.lastExport?.status, "succeeded", exported.lastExport?.error ?? "")
        assert.strictEqual(git(repo.bare, "rev-parse", "main"), exported.lastExport?.commit)
        assert.include(git(repo.bare, "show", "main:SUMMARY.md"), "FAQ")

        // The push of our own export, announced by the host, is not imported again.
        const own = exported.lastExport!.commit!
        const echo = JSON.stringify({ ref: main, after: own, head_commit: { id: own, message: "x" } })
        assert.strictEqual((yield* deliver(spaceId, echo, { "x-github-event": "push", "x-hub-signature-256": sign(secret, echo) })).status, 204)
        const after = yield* alice.api.git.getSpaceGitInfo({ params: { spaceId } })
        assert.strictEqual(after.lastImport?.commit, pushed)
        assert.strictEqual(after.lastImport?.status, "succeeded")
      }))

    it.effect("a private repository over HTTP: wrong credentials fail the import with a clear error and change nothing; the connected credentials serve the webhook's import", () =>
      Effect.gen(function*() {
        const repo = yield* bareRepository({ "README.md": "# Private\n\nBehind a password.\n" })
        const credentials = { username: "quire-bot", password: "s3cr3t-pa55" }
        const host = yield* GitHttpServer.start({ root: repo.dir, credentials })
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const before = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })

        const wrong = host.url("docs.git", { username: "quire-bot", password: "wrong-pa55" })
        yield* alice.api.git.importGitRepository({ params: { spaceId }, payload: { url: wrong, ref: main } })
        const failed = yield* settled(alice.api, spaceId, "lastImport")
        assert.strictEqual(failed.lastImport?.status, "failed")
        assert.match(failed.lastImport?.error ?? "", /auth/i)
        assert.notInclude(JSON.stringify(failed), "wrong-pa55")
        const unchanged = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        assert.strictEqual(unchanged.id, before.id, "a failed import writes no revision")

        yield* alice.api.git.connectSpaceGitRepository({
          params: { spaceId },
          payload: { url: host.url("docs.git", credentials), ref: main }
        })
        const { secret } = yield* alice.api.git.getSpaceGitWebhook({ params: { spaceId } })
        const head = git(repo.bare, "rev-parse", "main")
        const body = JSON.stringify({ ref: main, after: head, head_commit: { id: head, message: "Docs from Git" } })
        const delivered = yield* deliver(spaceId, body, { "x-github-event": "push", "x-hub-signature-256": sign(secret, body) })
        assert.strictEqual(delivered.status, 204, delivered.text)
        const imported = yield* settled(alice.api, spaceId, "lastImport")
        assert.strictEqual(imported.lastImport?.status, "succeeded", imported.lastImport?.error ?? "")
        assert.strictEqual(imported.lastImport?.commit, head)
        const { pages } = yield* alice.api.spaceContent.listPages({ params: { spaceId }, query: {} })
        assert.deepStrictEqual(pages.map((page) => page.title), ["Private"])
        const shown = yield* everything(alice.api, spaceId)
        assert.notInclude(shown, "s3cr3t-pa55")
        assert.include(shown, `http://127.0.0.1:${host.port}/docs.git`)
      }))

    it.effect("a signed webhook delivery is accepted once: its replay, even under another delivery id, runs no second import", () =>
      Effect.gen(function*() {
        const repo = yield* bareRepository({ "README.md": "# Hello\n\nFrom Git.\n" })
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        yield* alice.api.git.connectSpaceGitRepository({ params: { spaceId }, payload: { url: repo.url, ref: main } })
        const { secret } = yield* alice.api.git.getSpaceGitWebhook({ params: { spaceId } })
        const head = git(repo.bare, "rev-parse", "main")
        const body = JSON.stringify({ ref: main, after: head, head_commit: { id: head, message: "Docs from Git" } })
        const github = { "x-github-event": "push", "x-hub-signature-256": sign(secret, body), "x-github-delivery": "3f1c2a40-0001" }
        assert.strictEqual((yield* deliver(spaceId, body, github)).status, 204)
        const imported = yield* settled(alice.api, spaceId, "lastImport")
        assert.strictEqual(imported.lastImport?.status, "succeeded", imported.lastImport?.error ?? "")
        const replays: ReadonlyArray<Record<string, string>> = [
          github,
          { ...github, "x-github-delivery": "3f1c2a40-0002" },
          { "x-github-event": "push", "x-hub-signature-256": sign(secret, body) }
        ]
        for (const headers of replays) {
          const replay = yield* deliver(spaceId, body, headers)
          assert.strictEqual(replay.status, 204, replay.text)
          // A queued import shows as pending at once; a replay leaves the last import as it was.
          assert.deepStrictEqual((yield* alice.api.git.getSpaceGitInfo({ params: { spaceId } })).lastImport, imported.lastImport)
        }
        // GitLab's token does not sign the body: its event id names the delivery.
        const gitlab = { "x-gitlab-event": "Push Hook", "x-gitlab-token": secret, "x-gitlab-event-uuid": "9b1d-0001" }
        const gitlabBody = JSON.stringify({ object_kind: "push", ref: main, after: head, commits: [{ id: head, message: "Docs from Git" }] })
        assert.strictEqual((yield* deliver(spaceId, gitlabBody, gitlab)).status, 204)
        const second = yield* settled(alice.api, spaceId, "lastImport")
        assert.notDeepEqual(second.lastImport, imported.lastImport, "a new delivery imports")
        assert.strictEqual((yield* deliver(spaceId, `${gitlabBody} `, gitlab)).status, 204)
        assert.deepStrictEqual((yield* alice.api.git.getSpaceGitInfo({ params: { spaceId } })).lastImport, second.lastImport)
      }))

    it.effect("an imported revision carries the commit's message and the ref", () =>
      Effect.gen(function*() {
        const repo = yield* bareRepository({ "README.md": "# Hello\n\nFrom Git.\n" })
        const { alice, space } = yield* spaceWith()
        yield* alice.api.git.importGitRepository({ params: { spaceId: space.id }, payload: { url: repo.url, ref: main } })
        const done = yield* settled(alice.api, space.id, "lastImport")
        assert.strictEqual(done.lastImport?.status, "succeeded", done.lastImport?.error ?? "")
        const revision = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(revision.git?.ref, main)
        assert.strictEqual(revision.git?.message, "Docs from Git")
      }))

    // Checks of the request, of who may do what, of GitBook's client against our wire format and of
    // the repository's layout as gitsync reads it: the handlers and the tree are the same whatever
    // the database, so on PostgreSQL only (the flows above, which write revisions and run jobs,
    // run on both; the import and export GitBook's client starts are those flows).
    if (backend.name === "postgres") {
      it.effect("GitBook's client imports and reads the Git info", () =>
        Effect.gen(function*() {
          const repo = yield* bareRepository({ "README.md": "# Hello\n\nFrom Git.\n" })
          const { alice, space } = yield* spaceWith()
          const endpoint = yield* baseUrl
          const gitbook = new GitBookAPI({ endpoint, authToken: alice.token }) as unknown as {
            readonly spaces: {
              importGitRepository(spaceId: string, body: { url: string; ref: string }): Promise<{ status: number }>
              exportToGitRepository(spaceId: string, body: { url: string; ref: string; commitMessage: string }): Promise<{ status: number }>
              getSpaceGitInfo(spaceId: string): Promise<{ data: { repoName: string; url: string } }>
            }
          }
          const status = yield* Effect.promise(() => gitbook.spaces.importGitRepository(space.id, { url: repo.url, ref: main }).then((r) => r.status))
          assert.strictEqual(status, 204)
          const info = yield* Effect.promise(() => gitbook.spaces.getSpaceGitInfo(space.id).then((r) => r.data))
          assert.strictEqual(info.url, repo.url)
          const done = yield* settled(alice.api, space.id, "lastImport")
          assert.strictEqual(done.lastImport?.status, "succeeded", done.lastImport?.error ?? "")
          const exported = yield* Effect.promise(() =>
            gitbook.spaces.exportToGitRepository(space.id, { url: repo.url, ref: main, commitMessage: "From GitBook's client" })
              .then((r) => r.status)
          )
          assert.strictEqual(exported, 204)
          const pushed = yield* settled(alice.api, space.id, "lastExport")
          assert.strictEqual(pushed.lastExport?.status, "succeeded", pushed.lastExport?.error ?? "")
        }))

      it.effect("import and export refuse bad fields with a 400 naming the field", () =>
        Effect.gen(function*() {
          const { alice, space } = yield* spaceWith()
          const importPath = `/v1/spaces/${space.id}/git/import`
          const exportPath = `/v1/spaces/${space.id}/git/export`
          const cases: ReadonlyArray<readonly [path: string, body: unknown, field: string]> = [
            [importPath, { ref: main }, "url"],
            [importPath, { url: "not a url", ref: main }, "url"],
            [importPath, { url: secretUrl }, "ref"],
            [importPath, { url: secretUrl, ref: "main" }, "ref"],
            [importPath, { url: secretUrl, ref: "refs/tags/v1" }, "ref"],
            [importPath, { url: secretUrl, ref: "refs/heads/a..b" }, "ref"],
            [importPath, { url: secretUrl, ref: main, timestamp: "yesterday" }, "timestamp"],
            [importPath, { url: secretUrl, ref: main, timestamp: "2026-02-31T10:00:00Z" }, "timestamp"],
            [importPath, { url: secretUrl, ref: main, force: "yes" }, "force"],
            [importPath, { url: secretUrl, ref: main, standalone: 1 }, "standalone"],
            [importPath, { url: secretUrl, ref: main, repoProjectDirectory: "../etc" }, "repoProjectDirectory"],
            [importPath, { url: secretUrl, ref: main, gitInfo: { provider: "bitbucket" } }, "provider"],
            [exportPath, { url: secretUrl, ref: main }, "commitMessage"],
            [exportPath, { url: secretUrl, ref: main, commitMessage: "" }, "commitMessage"],
            [exportPath, { url: secretUrl, ref: "heads/main", commitMessage: "Sync" }, "ref"],
            [exportPath, { ref: main, commitMessage: "Sync" }, "url"]
          ]
          for (const [path, body, field] of cases) {
            const answer = yield* send(alice.token, "POST", path, body)
            assert.strictEqual(answer.status, 400, `${path} ${JSON.stringify(body)}`)
            assert.include(errorMessage(answer.body), field, JSON.stringify(answer.body))
            assert.notInclude(JSON.stringify(answer.body), "s3cr3t-pa55")
          }
          const connect = yield* send(alice.token, "PUT", `/v1/spaces/${space.id}/git`, { url: secretUrl, ref: "develop" })
          assert.strictEqual(connect.status, 400)
          assert.include(errorMessage(connect.body), "ref")
          // A URL the domain refuses (a protocol it does not speak): the refusal never repeats the credentials.
          for (const url of ["ssh://bot:s3cr3t-pa55@example.com/acme/docs.git", "git://bot:s3cr3t-pa55@example.com/acme/docs.git"]) {
            for (const [method, path, body] of [
              ["PUT", `/v1/spaces/${space.id}/git`, { url, ref: main }],
              ["POST", importPath, { url, ref: main }],
              ["POST", exportPath, { url, ref: main, commitMessage: "Sync" }]
            ] as const) {
              const answer = yield* send(alice.token, method, path, body)
              assert.strictEqual(answer.status, 400, `${method} ${path} ${url}: ${JSON.stringify(answer.body)}`)
              assert.notInclude(JSON.stringify(answer.body), "s3cr3t-pa55")
            }
          }
        }))

      it.effect("the legacy installation delete is a 204, again and again", () =>
        Effect.gen(function*() {
          const { alice, space } = yield* spaceWith()
          yield* alice.api.git.deleteSpaceGitLegacyInstallation({ params: { spaceId: space.id } })
          yield* alice.api.git.deleteSpaceGitLegacyInstallation({ params: { spaceId: space.id } })
          const answer = yield* raw("DELETE", `/v1/spaces/${space.id}/git/legacy-installation`, { token: alice.token })
          assert.strictEqual(answer.status, 204)
        }))

      it.effect("a space without a repository: info is a 404, gitSync absent", () =>
        Effect.gen(function*() {
          const { alice, space } = yield* spaceWith()
          const info = yield* Effect.flip(alice.api.git.getSpaceGitInfo({ params: { spaceId: space.id } }))
          assert.strictEqual(errorCode(info), 404)
          const shown = yield* alice.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
          assert.isUndefined(shown.gitSync)
          assert.isTrue(shown.permissions.triggerGitSync)
        }))

      it.effect("an editor may trigger Git sync; a reader cannot import, export or connect (403); an outsider learns nothing (404)", () =>
        Effect.gen(function*() {
          const { alice, members, space } = yield* spaceWith(["read", "edit"])
          const spaceId = space.id
          yield* alice.api.git.connectSpaceGitRepository({ params: { spaceId }, payload: { url: secretUrl, ref: main } })
          const reader = members.read!
          const outsider = yield* newUser("Olga")
          const readerShown = yield* reader.api.spaces.getSpaceById({ params: { spaceId }, query: {} })
          assert.isFalse(readerShown.permissions.triggerGitSync)
          const attempts = (api: Client): ReadonlyArray<Effect.Effect<unknown, unknown>> => [
            api.git.importGitRepository({ params: { spaceId }, payload: { url: secretUrl, ref: main } }),
            api.git.exportToGitRepository({ params: { spaceId }, payload: { url: secretUrl, ref: main, commitMessage: "x" } }),
            api.git.connectSpaceGitRepository({ params: { spaceId }, payload: { url: secretUrl, ref: main } }),
            api.git.getSpaceGitWebhook({ params: { spaceId } })
          ]
          const editor = members.edit!
          assert.isTrue((yield* editor.api.spaces.getSpaceById({ params: { spaceId }, query: {} })).permissions.triggerGitSync)
          yield* editor.api.git.exportToGitRepository({ params: { spaceId }, payload: { url: secretUrl, ref: main, commitMessage: "x" } })
          // The webhook's secret is for admins only.
          assert.strictEqual(errorCode(yield* Effect.flip(editor.api.git.getSpaceGitWebhook({ params: { spaceId } }))), 403)
          for (const attempt of attempts(reader.api)) {
            assert.strictEqual(errorCode(yield* Effect.flip(attempt)), 403)
          }
          for (const attempt of attempts(outsider.api)) {
            assert.strictEqual(errorCode(yield* Effect.flip(attempt)), 404)
          }
          assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.git.getSpaceGitInfo({ params: { spaceId } }))), 404)
          assert.strictEqual(
            errorCode(yield* Effect.flip(outsider.api.git.deleteSpaceGitLegacyInstallation({ params: { spaceId } }))),
            404
          )
          // A reader may see which repository the space syncs with, never its credentials.
          const info = yield* reader.api.git.getSpaceGitInfo({ params: { spaceId } })
          assert.notInclude(JSON.stringify(info), "s3cr3t-pa55")
        }))

      it.effect("the push webhook: signed by the space's secret it is a 204; a wrong or missing signature is a 403", () =>
        Effect.gen(function*() {
          const { alice, space } = yield* spaceWith()
          const spaceId = space.id
          yield* alice.api.git.connectSpaceGitRepository({ params: { spaceId }, payload: { url: secretUrl, ref: main } })
          const webhook = yield* alice.api.git.getSpaceGitWebhook({ params: { spaceId } })
          assert.strictEqual(webhook.url.endsWith(`/v1/spaces/${spaceId}/git/webhook`), true, webhook.url)
          assert.isAtLeast(webhook.secret.length, 16)
          assert.strictEqual((yield* alice.api.git.getSpaceGitWebhook({ params: { spaceId } })).secret, webhook.secret)

          const body = JSON.stringify({ ref: "refs/heads/other", after: "a".repeat(40), head_commit: { message: "x" } })
          const ok = yield* deliver(spaceId, body, { "x-github-event": "push", "x-hub-signature-256": sign(webhook.secret, body) })
          assert.strictEqual(ok.status, 204, ok.text)
          const ping = yield* deliver(spaceId, "{}", { "x-github-event": "ping", "x-hub-signature-256": sign(webhook.secret, "{}") })
          assert.strictEqual(ping.status, 204, ping.text)
          const gitlab = yield* deliver(spaceId, body, { "x-gitlab-event": "Push Hook", "x-gitlab-token": webhook.secret })
          assert.strictEqual(gitlab.status, 204, gitlab.text)

          const forged = yield* deliver(spaceId, body, { "x-github-event": "push", "x-hub-signature-256": sign("not the secret", body) })
          assert.strictEqual(forged.status, 403)
          const altered = yield* deliver(spaceId, `${body} `, { "x-github-event": "push", "x-hub-signature-256": sign(webhook.secret, body) })
          assert.strictEqual(altered.status, 403)
          const unsigned = yield* deliver(spaceId, body, { "x-github-event": "push" })
          assert.strictEqual(unsigned.status, 403)
          const badToken = yield* deliver(spaceId, body, { "x-gitlab-event": "Push Hook", "x-gitlab-token": "guess" })
          assert.strictEqual(badToken.status, 403)
          assert.notInclude(forged.text + unsigned.text + badToken.text, webhook.secret)
          // A space without a repository answers like a wrong signature: nothing to learn.
          const { space: bare } = yield* spaceWith()
          const none = yield* deliver(bare.id, body, { "x-github-event": "push", "x-hub-signature-256": sign(webhook.secret, body) })
          assert.strictEqual(none.status, 403)
        }))

      it.effect("a page's cover, coverY, coverHeight, icon and layout from its frontmatter reach the API and the published page", () =>
        Effect.gen(function*() {
          const repo = yield* bareRepository({
            "README.md": "# Welcome\n\nStart here.\n",
            "SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Quickstart](quickstart.md)\n",
            "quickstart.md": [
              "---",
              "description: Up in five minutes.",
              "icon: rocket-launch",
              "cover: .gitbook/assets/hero.png",
              "coverY: -24",
              "coverHeight: 320",
              "layout:",
              "  width: wide",
              "  cover:",
              "    visible: true",
              "    size: full",
              "  description:",
              "    visible: false",
              "  tableOfContents:",
              "    visible: false",
              "  outline:",
              "    visible: false",
              "---",
              "",
              "# Quickstart",
              "",
              "## Install",
              "",
              "Run the installer.",
              ""
            ].join("\n"),
            ".gitbook/assets/hero.png": "not really a png"
          })
          const { alice, organizationId, space } = yield* spaceWith()
          const spaceId = space.id
          yield* alice.api.git.importGitRepository({ params: { spaceId }, payload: { url: repo.url, ref: main } })
          const imported = yield* settled(alice.api, spaceId, "lastImport")
          assert.strictEqual(imported.lastImport?.status, "succeeded", imported.lastImport?.error ?? "")
          const revision = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
          const page = revision.pages[1]!
          const hero = revision.files.find((file) => file.name === "hero.png")
          assert.strictEqual(page.icon, "rocket-launch")
          assert.deepStrictEqual(page.type === "document" ? page.cover : undefined, { ref: { kind: "file", file: hero!.id }, yPos: -24, height: 320 })
          const layout = page.type === "document" ? page.layout : undefined
          assert.deepStrictEqual([layout?.width, layout?.coverSize, layout?.description, layout?.tableOfContents, layout?.outline, layout?.title], ["wide", "full", false, false, false, true])

          const siteParams = { organizationId, siteId: (yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Docs" } })).id }
          yield* alice.api.siteSpaces.addSpaceToSite({ params: siteParams, payload: { spaceId } })
          yield* alice.api.sites.publishSite({ params: siteParams })
          const base = `/~sites/${siteParams.siteId}`
          const shown = yield* get(`${base}/quickstart`)
          assert.strictEqual(shown.status, 200)
          assert.include(shown.text, `<figure class="page-cover cover-full" style="--cover-height:320px"><img src="${base}/~files/${spaceId}/${hero!.id}"`)
          assert.include(shown.text, `style="height:calc(100% + 24px);margin-top:-24px"`)
          assert.match(shown.text, /<h1><span class="page-icon" aria-hidden="true"><svg class="fa-icon"/)
          assert.match(shown.text, /class="layout [^"]*no-sidebar page-wide no-outline/)
          assert.notInclude(shown.text, "Up in five minutes.</p>")
          const markdown = yield* get(`${base}/quickstart.md`)
          assert.strictEqual(markdown.text, "# Quickstart\n\nUp in five minutes.\n\n## Install\n\nRun the installer.\n")
        }))

      it.effect("an editor cannot use the admin's stored credentials to force main or push another branch, nor change the connection", () =>
        Effect.gen(function*() {
          const repo = yield* bareRepository({ "README.md": "# Deployed\n\nBy the admin.\n" })
          const credentials = { username: "deploy", password: "admin-deploy-key" }
          const host = yield* GitHttpServer.start({ root: repo.dir, credentials })
          const { alice, members, space } = yield* spaceWith(["edit"])
          const spaceId = space.id
          const editor = members.edit!
          const connected = yield* alice.api.git.connectSpaceGitRepository({
            params: { spaceId },
            payload: { url: host.url("docs.git", credentials), ref: main }
          })
          const head = git(repo.bare, "rev-parse", "main")
          const exportPath = `/v1/spaces/${spaceId}/git/export`
          const importPath = `/v1/spaces/${spaceId}/git/import`
          const refusals: ReadonlyArray<readonly [method: string, path: string, body: unknown, field: string]> = [
            ["POST", exportPath, { url: connected.url, ref: main, commitMessage: "Over main", force: true }, "force"],
            ["POST", exportPath, { url: connected.url, ref: "refs/heads/takeover", commitMessage: "Elsewhere" }, "ref"],
            ["POST", importPath, { url: connected.url, ref: "refs/heads/takeover" }, "ref"],
            ["POST", importPath, { url: connected.url, ref: main, force: true }, "force"],
            ["PUT", `/v1/spaces/${spaceId}/git`, { url: repo.url, ref: main }, ""],
            ["DELETE", `/v1/spaces/${spaceId}/git`, undefined, ""]
          ]
          for (const [method, path, body, field] of refusals) {
            const answer = yield* raw(method, path, { token: editor.token, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
            assert.strictEqual(answer.status, 403, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`)
            assert.include(errorMessage(answer.body), field)
            assert.notInclude(JSON.stringify(answer.body), "admin-deploy-key")
          }
          // The admin's request for another branch must bring its credentials too.
          const admins = yield* send(alice.token, "POST", exportPath, { url: connected.url, ref: "refs/heads/takeover", commitMessage: "x" })
          assert.strictEqual(admins.status, 403)
          assert.include(errorMessage(admins.body), "ref")
          assert.strictEqual(git(repo.bare, "rev-parse", "main"), head, "main of the remote is untouched")
          assert.strictEqual(git(repo.bare, "branch", "--list", "takeover"), "")
          const info = yield* alice.api.git.getSpaceGitInfo({ params: { spaceId } })
          assert.deepStrictEqual([info.url, info.ref, info.connected, info.lastExport, info.lastImport], [connected.url, main, true, null, null])
          // What an editor may do: an export of the connected branch, with the lease (no force).
          yield* editor.api.git.exportToGitRepository({ params: { spaceId }, payload: { url: connected.url, ref: main, commitMessage: "Editor's export" } })
          const exported = yield* settled(alice.api, spaceId, "lastExport")
          assert.strictEqual(exported.lastExport?.status, "succeeded", exported.lastExport?.error ?? "")
          assert.strictEqual(git(repo.bare, "rev-parse", "main~1"), head, "the editor's commit builds on main")
        }))

      it.effect("a .gitbook.yaml root outside the repository, or one that holds no pages, fails the import naming why; the space keeps its content", () =>
        Effect.gen(function*() {
          const { alice, spaceId, before } = yield* importedSpace()
          const linked = yield* bareRepository({ ".gitbook.yaml": "root: ./docs/\n", "README.md": "# Linked\n" })
          symlinkSync("../../../etc", join(linked.work, "docs"))
          git(linked.work, "add", ".")
          git(linked.work, "commit", "--quiet", "-m", "Root through a link")
          git(linked.work, "push", "--quiet", linked.bare, "main")
          const cases: ReadonlyArray<readonly [url: string, says: string]> = [
            [(yield* bareRepository({ ".gitbook.yaml": "root: ../\n", "README.md": "# Up\n" })).url, "root leads outside the repository"],
            [(yield* bareRepository({ ".gitbook.yaml": "root: /etc/\n", "README.md": "# Absolute\n" })).url, "root leads outside the repository"],
            [linked.url, "is not a folder"],
            [(yield* bareRepository({ ".gitbook.yaml": "root: ./nothing-here/\n", "README.md": "# Elsewhere\n" })).url, "holds no pages"]
          ]
          for (const [url, says] of cases) {
            yield* alice.api.git.importGitRepository({ params: { spaceId }, payload: { url, ref: main } })
            const failed = yield* settled(alice.api, spaceId, "lastImport")
            assert.strictEqual(failed.lastImport?.status, "failed", `${says}: ${failed.lastImport?.error}`)
            assert.include(failed.lastImport?.error ?? "", says)
            assert.include(failed.operation?.error ?? "", says)
            const after = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
            assert.strictEqual(after.id, before.id, `${says}: no revision`)
            assert.deepStrictEqual(after.pages.map((page) => page.title), ["Home", "Guide"])
          }
        }))
    }
  })
}

/** Import limits small enough for a test's repositories. */
const smallLimits = ConfigProvider.layerAdd(ConfigProvider.fromUnknown({
  QUIRE_GIT_MAX_FILE_BYTES: 1000,
  QUIRE_GIT_MAX_TREE_BYTES: 4000,
  QUIRE_GIT_MAX_TREE_FILES: 8,
  QUIRE_GIT_MAX_PAGES: 3
}))

/** A repository of `n` pages of about `bytes` bytes each. */
const pages = (n: number, bytes = 10) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}.md`, `# P${i}\n\n${"x".repeat(bytes)}\n`]))

/** The test servers with `smallLimits`. */
const limitedBackends = Backends.make({
  memory: serverOn(Services.layerMemory, "memory").pipe(Layer.provide(smallLimits)),
  migrations: Services.migrations,
  sql: (database) => serverOn(Services.layerSql, database === "pglite" ? "embedded" : "postgres").pipe(Layer.provide(smallLimits))
})

// gitsync refuses the tree before anything is written: on PostgreSQL only, as the checks above.
for (const backend of limitedBackends.filter((backend) => backend.name === "postgres")) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`Git import limits on ${backend.name}`, (it) => {
    it.effect("an import beyond a limit (file, tree bytes, tree files, pages) fails naming the limit; the space keeps its content", () =>
      Effect.gen(function*() {
        const { alice, spaceId, before } = yield* importedSpace()
        const cases: ReadonlyArray<readonly [files: Record<string, string>, says: string]> = [
          [{ "README.md": "# Big\n", ".gitbook/assets/big.bin": "b".repeat(1500) }, "more than the limit of 1000 bytes per file (QUIRE_GIT_MAX_FILE_BYTES)"],
          [pages(5, 900), "more than the limit of 4000 bytes per import (QUIRE_GIT_MAX_TREE_BYTES)"],
          [pages(9), "more than the limit of 8 files per import (QUIRE_GIT_MAX_TREE_FILES)"],
          [pages(4), "The repository has 4 pages, more than the limit of 3 pages per import (QUIRE_GIT_MAX_PAGES)"]
        ]
        for (const [files, says] of cases) {
          const repo = yield* bareRepository(files)
          yield* alice.api.git.importGitRepository({ params: { spaceId }, payload: { url: repo.url, ref: main } })
          const failed = yield* settled(alice.api, spaceId, "lastImport")
          assert.strictEqual(failed.lastImport?.status, "failed", says)
          assert.include(failed.lastImport?.error ?? "", says)
          assert.include(failed.operation?.error ?? "", says)
          const after = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
          assert.strictEqual(after.id, before.id, `${says}: no revision`)
        }
        // Within the limits, the same server imports.
        const fits = yield* bareRepository(pages(3))
        yield* alice.api.git.importGitRepository({ params: { spaceId }, payload: { url: fits.url, ref: main } })
        const done = yield* settled(alice.api, spaceId, "lastImport")
        assert.strictEqual(done.lastImport?.status, "succeeded", done.lastImport?.error ?? "")
      }))
  })
}
