/**
 * Git sync's use cases and jobs over content's real write path and the in-process queue, with the
 * transport's memory remotes, on memory, PostgreSQL and PGlite: imports, exports, ordering, loops,
 * automatic exports, webhooks, credentials, failures and permissions.
 */
import { assert, describe, it, layer as layerSuite } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { execFileSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { TestClock } from "effect/testing"
import { Errors, Transactor } from "@quire/kernel"
import { as, Backends, errorTag as tag } from "@quire/testkit"
import {
  BlobStore,
  ContentLayers,
  ContentLinks,
  documentHash,
  flattenPages,
  type PageNode,
  RevisionsRepo,
  SpaceContent,
  Spaces
} from "@quire/content"
import * as GitCli from "../src/GitCli.ts"
import { GitSync } from "../src/GitSync.ts"
import { GitSyncRepo } from "../src/GitSyncRepo.ts"
import * as GitSyncLayers from "../src/GitSyncLayers.ts"
import { GitFailed, GitTransport, MemoryGitRemotes } from "../src/GitTransport.ts"
import * as SecretBox from "../src/SecretBox.ts"
import { githubSignature } from "../src/Webhooks.ts"
import { backendsOver, currentRevision, newSpace, settle, stackOver } from "./SyncStack.ts"
import { gitbookFixture } from "./fixtures/GitbookRepo.ts"

const main = "refs/heads/main"

const remotes = new MemoryGitRemotes()
const backends = backendsOver(GitTransport.layerTest(remotes))

let repositories = 0
/** A repository URL of its own for each test and backend (the remotes are shared). */
const newRepository = (backend: string, credentials = "") => `https://${credentials}git.example.com/acme/${backend}-${++repositories}.git`

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])

/** A small repository in GitBook's layout. */
const docs = {
  ".gitbook.yaml": "root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n",
  "README.md": "# Welcome\n\nHello from Git.\n",
  "SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n",
  "guide/README.md": "---\ndescription: How to use it\nicon: book\n---\n\n# Guide\n\nRead on.\n",
  "guide/install.md": "# Install\n\n![Logo](../.gitbook/assets/logo.png)\n",
  ".gitbook/assets/logo.png": png
}

/** Writes pages (title → markdown) as the space's main content, as an editor would. */
const edit = (spaceId: string, pages: ReadonlyArray<readonly [string, string]>) =>
  Effect.gen(function*() {
    const content = yield* SpaceContent
    return yield* content.commit(spaceId, (parent) =>
      Effect.succeed({
        pages: pages.map(([title, markdown], i): PageNode => {
          const before = parent.pages.find((p) => p.title === title)
          return {
            id: before?.id ?? `${spaceId}-p${i}`,
            type: "document",
            title,
            slug: title.toLowerCase(),
            document: documentHash(markdown),
            ...(before?.git === undefined ? {} : { git: before.git }),
            createdAt: "2026-01-01T00:00:00.000Z",
            updatedAt: "2026-01-01T00:00:00.000Z",
            pages: []
          }
        }),
        documents: new Map(pages.map(([, markdown]) => [documentHash(markdown), markdown]))
      }))
  }).pipe(as("editor"))

/** A revision's pages as (path, title). */
const titles = (r: { readonly pages: ReadonlyArray<PageNode> }) => flattenPages(r.pages).map((p) => [p.path, p.page.title])

/** A revision's page ids, depth first. */
const pageIds = (r: { readonly pages: ReadonlyArray<PageNode> }) => flattenPages(r.pages).map((p) => p.page.id)

/** The message of the error `effect` must fail with. */
const refusal = (effect: Effect.Effect<void, unknown, never>) => Effect.map(Effect.flip(effect), (e) => String((e as { message?: unknown }).message))

Backends.each(backends, (it, backend) => {
  describe("import", () => {
    it.effect("maps pages, metadata and files, marks their git fields, and keeps credentials out of what it shows", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Docs")
        const url = newRepository(backend, "bob:s3cret-token@")
        remotes.requireCredentials(url, "bob:s3cret-token")
        const commit = remotes.commit(url, main, docs, { message: "Docs" })
        yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
        const pending = yield* sync.info(space.id).pipe(as("reader"))
        assert.isNotNull(pending.lastImport)
        yield* settle

        const revision = yield* currentRevision(space.id)
        const pages = flattenPages(revision.pages)
        assert.deepStrictEqual(pages.map((p) => p.path), ["welcome", "guide", "guide/install"])
        const guide = pages[1]!.page
        assert.strictEqual(guide.description, "How to use it")
        assert.strictEqual(guide.icon, "book")
        assert.deepStrictEqual(guide.git?.path, "guide/README.md")
        assert.strictEqual(pages[0]!.page.git?.path, "README.md")
        assert.isString(pages[0]!.page.git?.oid)
        assert.strictEqual(revision.files.length, 1)
        assert.strictEqual(revision.files[0]!.name, "logo.png")
        assert.strictEqual(revision.files[0]!.contentType, "image/png")
        assert.strictEqual(revision.files[0]!.git?.path, ".gitbook/assets/logo.png")
        assert.deepStrictEqual(
          [revision.git?.oid, revision.git?.createdByService, revision.git?.url, revision.git?.ref],
          [commit, true, url.replace("bob:s3cret-token@", ""), main]
        )
        const blobs = yield* BlobStore
        assert.deepStrictEqual(Option.map(yield* blobs.get(revision.files[0]!.blob), (b) => Array.from(b)), Option.some(Array.from(png)))
        const markdown = (yield* (yield* RevisionsRepo).documents([pages[2]!.page.document!])).get(pages[2]!.page.document!)
        assert.include(markdown, "Logo")

        const info = yield* sync.info(space.id).pipe(as("reader"))
        assert.strictEqual(info.url, url.replace("bob:s3cret-token@", ""))
        assert.strictEqual(info.branch, "main")
        assert.strictEqual(info.repoName, `acme/${url.split("/").at(-1)!.replace(".git", "")}`)
        assert.deepStrictEqual([info.lastImport?.status, info.lastImport?.commit, info.lastExport], ["succeeded", commit, null])
        assert.notInclude(JSON.stringify(info), "s3cret")
        const field = yield* sync.gitSyncOf(space.id)
        assert.strictEqual(field?.url, info.url)
        assert.notInclude(JSON.stringify(field), "s3cret")
        // Stored sealed: the record holds the credentials only encrypted.
        const record = Option.getOrThrow(yield* (yield* GitSyncRepo).find(space.id))
        assert.notInclude(JSON.stringify(record), "s3cret")
        assert.match(record.urlSealed, /^v1\./)
      }))

    it.effect("the connected repository's URL as shown stands for the stored one with its credentials", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Private")
        const url = newRepository(backend, "ci:hidden-token@")
        remotes.requireCredentials(url, "ci:hidden-token")
        const commit = remotes.commit(url, main, docs)
        const connected = yield* sync.connect(space.id, { url, ref: main }).pipe(as("admin"))
        assert.notInclude(connected.url, "hidden-token")
        yield* sync.importRepository(space.id, { url: connected.url, ref: main }).pipe(as("editor"))
        yield* settle
        const info = yield* sync.info(space.id).pipe(as("admin"))
        assert.deepStrictEqual([info.lastImport?.status, info.lastImport?.commit], ["succeeded", commit])
      }))

    it.effect("connecting again keeps the stored credentials when asked, for the same repository only; credentials given replace them", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Rebranched")
        const url = newRepository(backend, "ci:kept-token@")
        remotes.requireCredentials(url, "ci:kept-token")
        remotes.commit(url, main, docs)
        const shown = url.replace("ci:kept-token@", "")
        const first = yield* sync.connect(space.id, { url, ref: main }).pipe(as("admin"))
        assert.isTrue(first.credentials)
        // Another branch and directory, the credentials not typed again.
        const draft = remotes.commit(url, "refs/heads/draft", { "docs/README.md": "# Draft\n\nFrom the draft branch.\n" })
        const moved = yield* sync.connect(space.id, { url: shown, ref: "refs/heads/draft", projectDirectory: "docs", keepCredentials: true }).pipe(as("admin"))
        assert.deepStrictEqual([moved.url, moved.branch, moved.projectDirectory, moved.credentials], [shown, "draft", "docs", true])
        yield* sync.importRepository(space.id, { url: shown, ref: "refs/heads/draft", repoProjectDirectory: "docs" }).pipe(as("editor"))
        yield* settle
        const imported = yield* sync.info(space.id).pipe(as("reader"))
        assert.deepStrictEqual([imported.lastImport?.status, imported.lastImport?.commit, imported.credentials], ["succeeded", draft, true])
        // Keeping them for another repository is refused, naming the field; nothing changes.
        const other = newRepository(backend)
        const refused = yield* Effect.flip(sync.connect(space.id, { url: other, ref: main, keepCredentials: true }).pipe(as("admin")))
        assert.strictEqual(refused instanceof Errors.InvalidInput ? refused.field : refused.message, "keepCredentials")
        assert.notInclude(String(refused.message), "kept-token")
        assert.strictEqual((yield* sync.info(space.id).pipe(as("admin"))).url, shown)
        // Connected without credentials and without keeping them: there are none.
        const bare = yield* sync.connect(space.id, { url: shown, ref: main }).pipe(as("admin"))
        assert.isFalse(bare.credentials)
        assert.notInclude(JSON.stringify(bare), "kept-token")
      }))

    it.effect("a locked space refuses edits but takes imports from Git", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Locked")
        yield* (yield* Spaces).update(space.id, { editMode: "locked" }).pipe(as("admin"))
        assert.strictEqual(yield* tag(edit(space.id, [["Intro", "No."]])), "Forbidden")
        const url = newRepository(backend)
        const commit = remotes.commit(url, main, docs)
        yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        assert.strictEqual((yield* currentRevision(space.id)).git?.oid, commit)
      }))

    it.effect("a standalone import stores a revision without moving the space", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Standalone")
        const before = yield* currentRevision(space.id)
        const url = newRepository(backend)
        const commit = remotes.commit(url, main, docs)
        yield* sync.importRepository(space.id, { url, ref: main, standalone: true }).pipe(as("admin"))
        yield* settle
        const after = yield* currentRevision(space.id)
        assert.strictEqual(after.id, before.id)
        assert.deepStrictEqual([(yield* sync.info(space.id).pipe(as("admin"))).lastImport?.status], ["succeeded"])
        assert.strictEqual(commit.length, 40)
      }))

    it.effect("an import older than the last applied event is skipped and changes nothing", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Ordered")
        const url = newRepository(backend)
        remotes.commit(url, main, docs)
        yield* sync.importRepository(space.id, { url, ref: main, timestamp: new Date("2026-05-02T00:00:00Z") }).pipe(as("admin"))
        yield* settle
        const applied = yield* currentRevision(space.id)
        remotes.commit(url, main, { "README.md": "# Welcome\n\nChanged later in Git.\n" })
        yield* sync.importRepository(space.id, { url, ref: main, timestamp: new Date("2026-05-01T00:00:00Z") }).pipe(as("admin"))
        yield* settle
        assert.strictEqual((yield* currentRevision(space.id)).id, applied.id)
        const info = yield* sync.info(space.id).pipe(as("admin"))
        assert.strictEqual(info.lastImport?.status, "skipped")
        assert.include(info.lastImport?.error ?? "", "older")
      }))

    it.effect("a failed import leaves the content as it was and shows why, without credentials", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Failing")
        yield* edit(space.id, [["Intro", "Before."]])
        const before = yield* currentRevision(space.id)
        const url = newRepository(backend, "bob:wrong-password@")
        remotes.requireCredentials(url, "bob:right-password")
        remotes.commit(url, main, docs)
        yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        assert.strictEqual((yield* currentRevision(space.id)).id, before.id)
        const info = yield* sync.info(space.id).pipe(as("admin"))
        assert.strictEqual(info.lastImport?.status, "failed")
        assert.include(info.lastImport?.error ?? "", "Authentication failed")
        assert.notInclude(JSON.stringify(info), "wrong-password")

        // Whatever git says is shown with the credentials masked, even where it echoes them.
        const leaky = newRepository(backend, "bob:echoed-secret@")
        remotes.failWith(leaky, new GitFailed({ url: "https://***@git.example.com", detail: "fatal: could not read from bob:echoed-secret (echoed-secret)" }))
        yield* sync.importRepository(space.id, { url: leaky, ref: main }).pipe(as("admin"))
        yield* settle
        const leaked = yield* sync.info(space.id).pipe(as("admin"))
        assert.strictEqual(leaked.lastImport?.status, "failed")
        assert.include(leaked.lastImport?.error ?? "", "fatal")
        assert.notInclude(JSON.stringify(leaked), "echoed-secret")

        // A branch that does not exist: failed too, nothing written.
        const empty = newRepository(backend)
        yield* sync.importRepository(space.id, { url: empty, ref: "refs/heads/nope" }).pipe(as("admin"))
        yield* settle
        assert.strictEqual((yield* currentRevision(space.id)).id, before.id)
        assert.strictEqual((yield* sync.info(space.id).pipe(as("admin"))).lastImport?.status, "failed")
      }))
  })

  describe("import of GitBook's layout (issue 20)", () => {
    it.effect("keeps GitBook's URLs, navigation labels and every image, and the pages' links resolve", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Mining")
        const url = newRepository(backend)
        remotes.commit(url, main, gitbookFixture)
        yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        assert.strictEqual((yield* sync.info(space.id).pipe(as("reader"))).lastImport?.status, "succeeded")
        const revision = yield* currentRevision(space.id)
        const pages = flattenPages(revision.pages)
        assert.deepStrictEqual(pages.map((p) => [p.path, p.page.linkTitle]), [
          ["mining-handbook", undefined],
          ["getting-started", undefined],
          ["getting-started/getting-started", "Quickstart"],
          ["getting-started/concepts", undefined],
          ["getting-started/concepts/node-types", undefined],
          ["getting-started/concepts/rigs", "Rigs"],
          ["reference", undefined],
          ["reference/glossary", undefined]
        ])
        assert.deepStrictEqual(revision.files.map((f) => f.git?.path).toSorted(), [
          "docs/.gitbook/assets/image (3).png",
          "docs/mining/files/checklist.pdf",
          "docs/mining/images/pool.png",
          "docs/mining/images/rig.png",
          "docs/mining/setup/img/logo small.png"
        ])
        // Every link and image of the quickstart resolves from its file in docs/mining/setup/.
        const quickstart = pages[2]!.page.id
        const links = yield* (yield* ContentLinks).pageLinks(space.id, quickstart, { appBaseUrl: "https://app.example.com" }).pipe(as("reader"))
        assert.deepStrictEqual(links.list.items.items.map((item) => [item.url, item.status]), [
          ["../overview/node-types.md#full-nodes", "ok"],
          ["../images/rig.png", "ok"],
          ["img/logo%20small.png", "ok"],
          ["/.gitbook/assets/image (3).png", "ok"],
          ["../images/pool.png", "ok"]
        ])
        assert.deepStrictEqual(links.list.stats, { total: 5, broken: 0 })
      }))

    it.effect("fails with a message, and changes nothing, when .gitbook.yaml's root leads outside or finds no pages", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Kept")
        yield* edit(space.id, [["Intro", "Before."]])
        const before = yield* currentRevision(space.id)
        const cases = [
          [{ ...docs, ".gitbook.yaml": "root: ../elsewhere/\n" }, "root leads outside the repository"],
          [{ ...docs, ".gitbook.yaml": "root: ./website/\n", "website/logo.svg": "<svg/>" }, "The documentation root (website) holds no pages"],
          [{ "docs/SUMMARY.md": "* [Gone](gone.md)\n", "docs/notes.md": "# Notes\n", ".gitbook.yaml": "root: ./docs/\nstructure:\n  readme: start.md\n" }, "holds no pages (docs/SUMMARY.md line 1: docs/gone.md does not exist; skipped)"]
        ] as const
        for (const [files, message] of cases) {
          const url = newRepository(backend)
          remotes.commit(url, main, files)
          yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
          yield* settle
          const info = yield* sync.info(space.id).pipe(as("admin"))
          assert.strictEqual(info.lastImport?.status, "failed")
          assert.include(info.lastImport?.error ?? "", message)
          assert.strictEqual((yield* currentRevision(space.id)).id, before.id)
        }
      }))
  })

  describe("export", () => {
    it.effect("pushes one commit with the message and the author, then only the files that changed", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Exported")
        yield* edit(space.id, [["Intro", "Hello."], ["Setup", "Install it."], ["Usage", "Use it."]])
        const url = newRepository(backend, "bob:push-token@")
        remotes.requireCredentials(url, "bob:push-token")
        yield* sync.exportRepository(space.id, { url, ref: main, commitMessage: "First export" }).pipe(as("editor"))
        yield* settle
        const first = remotes.head(url, main)
        assert.isString(first)
        const one = remotes.read(url, first!)!
        assert.strictEqual(one.message, "First export")
        assert.strictEqual(one.author.name, "editor")
        assert.isUndefined(one.parent)
        assert.isTrue([...one.files.values()].some((text) => text.includes("Install it.")))
        const info = yield* sync.info(space.id).pipe(as("admin"))
        assert.deepStrictEqual([info.lastExport?.status, info.lastExport?.commit], ["succeeded", first])
        assert.notInclude(JSON.stringify(info), "push-token")

        yield* edit(space.id, [["Intro", "Hello."], ["Setup", "Install it with pnpm."], ["Usage", "Use it."]])
        yield* sync.exportRepository(space.id, { url, ref: main, commitMessage: "Second export" }).pipe(as("admin"))
        yield* settle
        const second = remotes.head(url, main)!
        const two = remotes.read(url, second)!
        assert.strictEqual(two.parent, first)
        assert.strictEqual(two.message, "Second export")
        const changed = [...two.files].filter(([path, text]) => one.files.get(path) !== text).map(([path]) => path)
        assert.strictEqual(changed.length, 1)
        assert.include(two.files.get(changed[0]!) ?? "", "pnpm")
        assert.deepStrictEqual([...one.files.keys()].toSorted(), [...two.files.keys()].toSorted())

        // Nothing changed: no commit.
        yield* sync.exportRepository(space.id, { url, ref: main, commitMessage: "Third export" }).pipe(as("admin"))
        yield* settle
        assert.strictEqual(remotes.head(url, main), second)
      }))

    it.effect("a project directory's import and export read only that directory and keep the files around it", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Monorepo")
        const url = newRepository(backend)
        remotes.commit(url, main, { "src/app.ts": "export {}\n", "docs/README.md": "# Docs\n\nFrom Git.\n" })
        yield* sync.importRepository(space.id, { url, ref: main, repoProjectDirectory: "docs" }).pipe(as("admin"))
        yield* settle
        assert.deepStrictEqual(titles(yield* currentRevision(space.id)), [["docs", "Docs"]])
        yield* edit(space.id, [["Docs", "Edited."], ["More", "Another page."]])
        yield* sync.exportRepository(space.id, { url, ref: main, repoProjectDirectory: "docs", commitMessage: "Docs" }).pipe(as("admin"))
        yield* settle
        const info = yield* sync.info(space.id).pipe(as("admin"))
        assert.strictEqual(info.lastExport?.status, "succeeded", info.lastExport?.error ?? "")
        const files = remotes.read(url, remotes.head(url, main)!)!.files
        assert.strictEqual(files.get("src/app.ts"), "export {}\n")
        assert.isTrue([...files.keys()].every((path) => path === "src/app.ts" || path.startsWith("docs/")), [...files.keys()].join())
        assert.include(files.get("docs/more.md") ?? "", "Another page.")
      }))

    it.effect("an import exported again without edits changes no file (no commit)", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Round trip")
        const url = newRepository(backend)
        const commit = remotes.commit(url, main, docs)
        yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        yield* sync.exportRepository(space.id, { url, ref: main, commitMessage: "Nothing changed" }).pipe(as("admin"))
        yield* settle
        const info = yield* sync.info(space.id).pipe(as("admin"))
        assert.strictEqual(info.lastExport?.status, "succeeded", info.lastExport?.error ?? "")
        assert.strictEqual(remotes.head(url, main), commit)
      }))

    it.effect("export then import gives the same pages", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const source = yield* newSpace("Source")
        yield* edit(source.id, [["Intro", "Hello."], ["Setup", "Install it."]])
        const url = newRepository(backend)
        yield* sync.exportRepository(source.id, { url, ref: main, commitMessage: "Export" }).pipe(as("admin"))
        yield* settle
        const target = yield* newSpace("Target")
        yield* sync.importRepository(target.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        assert.deepStrictEqual(titles(yield* currentRevision(target.id)), titles(yield* currentRevision(source.id)))

        // Imported back into the space it came from, its pages keep their ids.
        const before = pageIds(yield* currentRevision(source.id))
        yield* sync.importRepository(source.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        const after = yield* currentRevision(source.id)
        assert.strictEqual(after.git?.createdByService, true)
        assert.deepStrictEqual(pageIds(after), before)
      }))
  })

  describe("automatic sync", () => {
    it.effect("edits of a connected space make one export per burst; a revision from Git makes none", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Connected")
        const url = newRepository(backend)
        remotes.commit(url, main, docs)
        yield* sync.connect(space.id, { url, ref: main }).pipe(as("admin"))
        yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        const imported = remotes.head(url, main)
        assert.isNull((yield* sync.info(space.id).pipe(as("admin"))).lastExport)
        assert.strictEqual(remotes.head(url, main), imported)

        for (const text of ["One.", "Two.", "Three."]) yield* edit(space.id, [["Welcome", `Hello. ${text}`]])
        yield* settle
        const exported = remotes.head(url, main)!
        assert.notStrictEqual(exported, imported)
        const commit = remotes.read(url, exported)!
        assert.strictEqual(commit.parent, imported)
        assert.isTrue([...commit.files.values()].some((text) => text.includes("Three.")))
        const info = yield* sync.info(space.id).pipe(as("admin"))
        assert.deepStrictEqual([info.lastExport?.status, info.lastExport?.commit], ["succeeded", exported])
      }))

    it.effect("an export asked for while an automatic one waits takes its place: one commit, under the message asked for", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Asked")
        const url = newRepository(backend)
        remotes.commit(url, main, docs)
        yield* sync.connect(space.id, { url, ref: main }).pipe(as("admin"))
        yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        const imported = remotes.head(url, main)

        // The edit queues an automatic export for a few seconds later; the export asked for right after replaces it.
        yield* edit(space.id, [["Welcome", "Hello again."]])
        yield* sync.exportRepository(space.id, { url, ref: main, commitMessage: "Docs from the CLI" }).pipe(as("admin"))
        yield* settle
        const exported = remotes.head(url, main)!
        const commit = remotes.read(url, exported)!
        assert.strictEqual(commit.message, "Docs from the CLI")
        assert.strictEqual(commit.parent, imported)
      }))

    it.effect("webhooks: signed pushes to the branch import; other events, branches, bad signatures and our own push do not", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Hooked")
        const url = newRepository(backend)
        remotes.commit(url, main, docs, { message: "Docs" })
        // No repository yet: refused like a bad signature.
        assert.strictEqual(yield* tag(sync.receiveWebhook(space.id, { headers: {}, body: new Uint8Array() })), "Forbidden")
        yield* sync.connect(space.id, { url, ref: main }).pipe(as("admin"))
        assert.strictEqual(yield* tag(sync.webhookSecret(space.id).pipe(as("editor"))), "Forbidden")
        const { secret, path } = yield* sync.webhookSecret(space.id).pipe(as("admin"))
        assert.strictEqual(path, `/v1/spaces/${space.id}/git/webhook`)
        assert.strictEqual((yield* sync.webhookSecret(space.id).pipe(as("admin"))).secret, secret)

        const github = (body: object, event = "push", signatureSecret = secret) => {
          const bytes = new TextEncoder().encode(JSON.stringify(body))
          return { headers: { "X-GitHub-Event": event, "X-Hub-Signature-256": githubSignature(signatureSecret, bytes) }, body: bytes }
        }
        const head = remotes.head(url, main)!
        assert.strictEqual(yield* tag(sync.receiveWebhook(space.id, github({ ref: main, after: head }, "push", "wrong"))), "Forbidden")
        assert.strictEqual(yield* tag(sync.receiveWebhook(space.id, { headers: {}, body: new Uint8Array() })), "Forbidden")
        assert.isFalse((yield* sync.receiveWebhook(space.id, github({ zen: "hi" }, "ping"))).queued)
        assert.isFalse((yield* sync.receiveWebhook(space.id, github({ ref: "refs/heads/other", after: head }))).queued)
        const queued = yield* sync.receiveWebhook(space.id, github({ ref: main, after: head, head_commit: { id: head, message: "Docs", timestamp: "2026-06-01T00:00:00Z" } }))
        assert.isTrue(queued.queued)
        yield* settle
        const revision = yield* currentRevision(space.id)
        assert.deepStrictEqual([revision.git?.oid, revision.git?.message], [head, "Docs"])

        // GitLab: the token header.
        const next = remotes.commit(url, main, { "README.md": "# Welcome\n\nFrom GitLab.\n" })
        const gitlab = { ref: main, after: next, object_kind: "push", commits: [{ id: next, message: "GitLab edit", timestamp: "2026-06-02T00:00:00Z" }] }
        const body = new TextEncoder().encode(JSON.stringify(gitlab))
        assert.strictEqual(yield* tag(sync.receiveWebhook(space.id, { headers: { "x-gitlab-event": "Push Hook", "x-gitlab-token": "nope" }, body })), "Forbidden")
        assert.isTrue((yield* sync.receiveWebhook(space.id, { headers: { "x-gitlab-event": "Push Hook", "x-gitlab-token": secret }, body })).queued)
        yield* settle
        assert.strictEqual((yield* currentRevision(space.id)).git?.oid, next)

        // Our own export, announced by the webhook: not imported back.
        yield* edit(space.id, [["Welcome", "Edited in Quire."]])
        yield* settle
        const ours = remotes.head(url, main)!
        assert.notStrictEqual(ours, next)
        const own = yield* sync.receiveWebhook(space.id, github({ ref: main, after: ours }))
        assert.isFalse(own.queued)
        assert.include(own.reason, "own export")
      }))
  })

  describe("webhook bursts", () => {
    it.effect("pushes arriving together make one import, of the last", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Bursty")
        const url = newRepository(backend)
        remotes.commit(url, main, docs)
        yield* sync.connect(space.id, { url, ref: main }).pipe(as("admin"))
        const { secret } = yield* sync.webhookSecret(space.id).pipe(as("admin"))
        const before = yield* currentRevision(space.id)
        const push = (after: string) => {
          const body = new TextEncoder().encode(JSON.stringify({ ref: main, after }))
          return sync.receiveWebhook(space.id, { headers: { "x-github-event": "push", "x-hub-signature-256": githubSignature(secret, body) }, body })
        }
        assert.isTrue((yield* push(remotes.head(url, main)!)).queued)
        const last = remotes.commit(url, main, { "README.md": "# Welcome\n\nSecond push.\n" })
        assert.isTrue((yield* push(last)).queued)
        yield* settle
        const after = yield* currentRevision(space.id)
        assert.deepStrictEqual([after.git?.oid, after.parents[0]], [last, before.id])
      }))
  })

  describe("webhook replays", () => {
    it.effect("a delivery is accepted once, whatever its delivery id; it is forgotten after 30 days", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Replayed")
        const url = newRepository(backend)
        const head = remotes.commit(url, main, docs)
        yield* sync.connect(space.id, { url, ref: main }).pipe(as("admin"))
        const { secret } = yield* sync.webhookSecret(space.id).pipe(as("admin"))
        const body = new TextEncoder().encode(JSON.stringify({ ref: main, after: head }))
        const delivery = (id: string) => ({
          headers: { "x-github-event": "push", "x-hub-signature-256": githubSignature(secret, body), "x-github-delivery": id },
          body
        })
        assert.isTrue((yield* sync.receiveWebhook(space.id, delivery("d-1"))).queued)
        yield* settle
        const imported = yield* sync.info(space.id).pipe(as("admin"))
        for (const id of ["d-1", "d-2"]) {
          const replay = yield* sync.receiveWebhook(space.id, delivery(id))
          assert.deepStrictEqual([replay.queued, replay.reason], [false, "ignored: this delivery was already received"])
        }
        yield* settle
        assert.deepStrictEqual((yield* sync.info(space.id).pipe(as("admin"))).lastImport, imported.lastImport)
        yield* TestClock.adjust("31 days")
        assert.isTrue((yield* sync.receiveWebhook(space.id, delivery("d-1"))).queued)
      }))
  })

  describe("purge", () => {
    it.effect("a purged space leaves no Git sync record", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const spaces = yield* Spaces
        const space = yield* newSpace("Purged")
        yield* sync.connect(space.id, { url: newRepository(backend), ref: main }).pipe(as("admin"))
        yield* spaces.remove(space.id).pipe(as("admin"))
        yield* TestClock.adjust("8 days")
        yield* spaces.purgeDeleted
        assert.isTrue(Option.isNone(yield* (yield* GitSyncRepo).find(space.id)))
      }))
  })

  describe("permissions", () => {
    it.effect("admins and editors trigger sync, readers see info, outsiders learn nothing", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Guarded")
        const url = newRepository(backend)
        assert.strictEqual(yield* tag(sync.importRepository(space.id, { url, ref: main }).pipe(as("reader"))), "Forbidden")
        assert.strictEqual(yield* tag(sync.exportRepository(space.id, { url, ref: main, commitMessage: "x" }).pipe(as("reader"))), "Forbidden")
        assert.strictEqual(yield* tag(sync.connect(space.id, { url, ref: main }).pipe(as("reader"))), "Forbidden")
        assert.strictEqual(yield* tag(sync.importRepository(space.id, { url, ref: main }).pipe(as("outsider"))), "NotFound")
        assert.strictEqual(yield* tag(sync.info(space.id).pipe(as("outsider"))), "NotFound")
        assert.strictEqual(yield* tag(sync.info(space.id).pipe(as("reader"))), "NotFound")
        assert.strictEqual(yield* tag(sync.importRepository(space.id, { url: "not a url", ref: main }).pipe(as("admin"))), "InvalidInput")
        assert.strictEqual(yield* tag(sync.connect(space.id, { url, ref: "refs/heads/a..b" }).pipe(as("admin"))), "InvalidInput")
        assert.strictEqual(yield* tag(sync.exportRepository(space.id, { url, ref: main, commitMessage: "x", repoProjectDirectory: "../up" }).pipe(as("admin"))), "InvalidInput")
        // Changing the connection is an admin's (issue 18): an editor may trigger sync, not connect or disconnect.
        assert.strictEqual(yield* tag(sync.connect(space.id, { url, ref: main }).pipe(as("editor"))), "Forbidden")
        yield* sync.connect(space.id, { url, ref: main }).pipe(as("admin"))
        assert.strictEqual(yield* tag(sync.disconnect(space.id).pipe(as("editor"))), "Forbidden")
        assert.isTrue((yield* sync.info(space.id).pipe(as("reader"))).connected)
        assert.strictEqual(yield* tag(sync.removeLegacyInstallation(space.id).pipe(as("reader"))), "Forbidden")
        yield* sync.removeLegacyInstallation(space.id).pipe(as("admin"))
        yield* sync.disconnect(space.id).pipe(as("admin"))
        assert.strictEqual(yield* tag(sync.info(space.id).pipe(as("reader"))), "NotFound")
        assert.isNull(yield* sync.gitSyncOf(space.id))
      }))

    it.effect("the stored credentials serve only the connected branch; force is an admin's; an editor's request keeps the connection", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const space = yield* newSpace("Deploy key")
        const url = newRepository(backend, "deploy:admin-only-token@")
        remotes.requireCredentials(url, "deploy:admin-only-token")
        const head = remotes.commit(url, main, docs)
        const connected = yield* sync.connect(space.id, { url, ref: main }).pipe(as("admin"))
        yield* edit(space.id, [["Intro", "Edited."]])
        const forced = yield* refusal(sync.exportRepository(space.id, { url: connected.url, ref: main, commitMessage: "Over main", force: true }).pipe(as("editor")))
        assert.include(forced, "force")
        const otherRef = yield* refusal(sync.exportRepository(space.id, { url: connected.url, ref: "refs/heads/evil", commitMessage: "Elsewhere" }).pipe(as("editor")))
        assert.include(otherRef, "ref")
        assert.notInclude(otherRef, "admin-only-token")
        // Not even an admin's request lends them to another branch: it brings its own credentials.
        assert.include(yield* refusal(sync.importRepository(space.id, { url: connected.url, ref: "refs/heads/evil" }).pipe(as("admin"))), "ref")
        assert.include(yield* refusal(sync.importRepository(space.id, { url: connected.url, ref: main, force: true }).pipe(as("editor"))), "force")
        // An editor's import of another repository runs without changing the space's connection.
        const elsewhere = newRepository(backend)
        remotes.commit(elsewhere, main, docs)
        yield* sync.importRepository(space.id, { url: elsewhere, ref: "refs/heads/main" }).pipe(as("editor"))
        yield* settle
        const info = yield* sync.info(space.id).pipe(as("admin"))
        assert.deepStrictEqual([info.url, info.ref, info.lastImport?.status], [connected.url, main, "succeeded"])
        assert.strictEqual(remotes.head(url, main), head, "nothing was pushed with the stored credentials")
        assert.isUndefined(remotes.head(url, "refs/heads/evil"))
      }))
  })
})

describe("SecretBox", () => {
  it("seals with AES-256-GCM under a key from the secret; another key or an altered box opens nothing", () => {
    const key = SecretBox.deriveKey("quire secret")
    const sealed = SecretBox.seal(key, "https://bob:token@git.example.com/a.git")
    assert.notInclude(sealed, "token")
    assert.notStrictEqual(SecretBox.seal(key, "same"), SecretBox.seal(key, "same"))
    assert.deepStrictEqual(SecretBox.open(key, sealed), Option.some("https://bob:token@git.example.com/a.git"))
    assert.isTrue(Option.isNone(SecretBox.open(SecretBox.deriveKey("another secret"), sealed)))
    assert.isTrue(Option.isNone(SecretBox.open(key, `${sealed.slice(0, -2)}AA`)))
    assert.isTrue(Option.isNone(SecretBox.open(key, "v1.x")))
  })
})

/** Memory remotes where someone else pushes to the branch between each fetch and push of the sync. */
const racing = new MemoryGitRemotes()
const racingTransport = Layer.succeed(GitTransport, {
  fetch: racing.transport.fetch,
  push: (remote, push) =>
    Effect.suspend(() => {
      racing.commit(remote.url, remote.ref, { "SOMEONE.md": `pushed meanwhile ${Math.random()}\n` })
      return racing.transport.push(remote, push)
    })
})

layerSuite(
  stackOver(racingTransport, Layer.mergeAll(ContentLayers.layerReposMemory, GitSyncLayers.layerReposMemory, Transactor.Transactor.layerMemory)),
  { timeout: "60 seconds" }
)("a branch that moves during an export", (it) => {
  it.effect("fails without force, changing nothing; force pushes over it", () =>
    Effect.gen(function*() {
      const sync = yield* GitSync
      const space = yield* newSpace("Raced")
      yield* edit(space.id, [["Intro", "Hello."]])
      const url = "https://git.example.com/acme/raced.git"
      racing.commit(url, main, docs)
      yield* sync.exportRepository(space.id, { url, ref: main, commitMessage: "Polite" }).pipe(as("admin"))
      yield* settle
      const refused = yield* sync.info(space.id).pipe(as("admin"))
      assert.strictEqual(refused.lastExport?.status, "failed")
      assert.include(refused.lastExport?.error ?? "", "moved")
      assert.strictEqual(racing.read(url, racing.head(url, main)!)?.message, "commit")

      yield* sync.exportRepository(space.id, { url, ref: main, commitMessage: "Forced", force: true }).pipe(as("admin"))
      yield* settle
      const forced = yield* sync.info(space.id).pipe(as("admin"))
      assert.strictEqual(forced.lastExport?.status, "succeeded")
      assert.strictEqual(racing.read(url, racing.head(url, main)!)?.message, "Forced")
    }))
})

/** A bare repository on disk, for the `git` binary over file://. */
const bareRepository = () => {
  const dir = mkdtempSync(join(tmpdir(), "quire-gitsync-e2e-"))
  execFileSync("git", ["init", "--bare", "--quiet", "--initial-branch=main", dir])
  return { dir, url: `file://${dir}` }
}

const git = (dir: string, ...args: ReadonlyArray<string>) => execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8" }).trim()

layerSuite(
  stackOver(
    GitCli.layer({ cacheDir: mkdtempSync(join(tmpdir(), "quire-gitsync-cache-")), allowFile: true, allow: [] }),
    Layer.mergeAll(ContentLayers.layerReposMemory, GitSyncLayers.layerReposMemory, Transactor.Transactor.layerMemory)
  ),
  { timeout: "60 seconds" }
)("git binary over file://", (it) => {
  it.effect("exports a space as one commit to a new branch, exports an edit as one more touching one file, imports it into another space", () =>
    Effect.gen(function*() {
      const sync = yield* GitSync
      const repository = bareRepository()
      const source = yield* newSpace("Source")
      yield* edit(source.id, [["Intro", "Hello."], ["Setup", "Install it."]])
      yield* sync.exportRepository(source.id, { url: repository.url, ref: main, commitMessage: "Docs from Quire" }).pipe(as("editor"))
      yield* settle
      const info = yield* sync.info(source.id).pipe(as("admin"))
      assert.strictEqual(info.lastExport?.status, "succeeded", info.lastExport?.error ?? "")
      const first = git(repository.dir, "rev-parse", "refs/heads/main")
      assert.strictEqual(info.lastExport?.commit, first)
      assert.strictEqual(git(repository.dir, "log", "--format=%s|%an", "refs/heads/main"), "Docs from Quire|editor")
      assert.include(git(repository.dir, "ls-tree", "-r", "--name-only", "refs/heads/main"), "SUMMARY.md")

      yield* edit(source.id, [["Intro", "Hello."], ["Setup", "Install it with pnpm."]])
      yield* sync.exportRepository(source.id, { url: repository.url, ref: main, commitMessage: "Setup changed" }).pipe(as("admin"))
      yield* settle
      const second = git(repository.dir, "rev-parse", "refs/heads/main")
      assert.strictEqual(git(repository.dir, "rev-list", "--count", "refs/heads/main"), "2")
      assert.strictEqual(git(repository.dir, "diff", "--name-only", first, second).split("\n").length, 1)

      const target = yield* newSpace("Target")
      yield* sync.importRepository(target.id, { url: repository.url, ref: main }).pipe(as("admin"))
      yield* settle
      assert.strictEqual((yield* sync.info(target.id).pipe(as("admin"))).lastImport?.status, "succeeded")
      const imported = yield* currentRevision(target.id)
      assert.deepStrictEqual(titles(imported), titles(yield* currentRevision(source.id)))
      assert.deepStrictEqual([imported.git?.oid, imported.git?.createdByService], [second, true])
    }))
})
