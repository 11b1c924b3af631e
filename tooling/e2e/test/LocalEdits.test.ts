/**
 * Writes from local files that never silently revert, against a real server (memory backend):
 * `pages get -o` records the revision a file came from, `pages put` and `cr apply` send it so
 * that a page changed on the server since is merged or refused with the conflict shown, images
 * sent before are not uploaded again; `pages mv` keeps the links to the page; `links check`
 * counts asset links that resolve as fine.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as nodePath from "node:path"
import { ChangeRequest, GitSyncState } from "@quire/api"
import { memory, spaceWith } from "@quire/server/test/Harness"
import { decodeJson, folder, quireAs } from "./Quire.ts"

const decodeCr = decodeJson(ChangeRequest)

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])

/** A space whose main content has the pages `guide` (three paragraphs) and `setup` (linking to the guide), and Alice as `quire`. */
const space = Effect.fnUntraced(function*() {
  const setup = yield* spaceWith()
  const spaceId = setup.space.id
  const api = setup.alice.api
  const as = quireAs(setup.alice.token)
  const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Start" } })
  yield* api.changeRequestContent.updateChangeRequestContent({
    params: { spaceId, changeRequestId: cr.id },
    payload: {
      changes: [
        { operation: "insert_page", slug: "guide", title: "Guide", document: { markdown: "First line.\n\nSecond line.\n\nThird line.\n" } },
        { operation: "insert_page", slug: "setup", title: "Setup", document: { markdown: "Read [the guide](guide.md) and [again](/guide#top).\n" } }
      ]
    }
  })
  yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
  const { pages } = yield* api.spaceContent.listPages({ params: { spaceId }, query: {} })
  const idOf = (slug: string) => pages.find((page) => page.slug === slug)!.id
  /** Merges a change request that replaces the guide's body with `markdown` (someone else's edit). */
  const editOnServer = (markdown: string) =>
    Effect.gen(function*() {
      const other = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Other" } })
      yield* api.changeRequestContent.updateChangeRequestContent({
        params: { spaceId, changeRequestId: other.id },
        payload: { changes: [{ operation: "update_page", page: idOf("guide"), document: { markdown } }] }
      })
      yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: other.id } })
    })
  const markdownIn = (changeRequestId: string, slug: string) =>
    Effect.map(
      api.changeRequestContent.getPageInChangeRequestById({ params: { spaceId, changeRequestId, pageId: idOf(slug) }, query: { format: "markdown" } }),
      (page) => (page as { markdown?: string }).markdown ?? ""
    )
  return { ...setup, spaceId, as, idOf, editOnServer, markdownIn }
})

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("writes from local files", (it) => {
  it.effect("pages get -o records the revision; pages put merges what changed on the server since, and refuses overlapping edits with the conflict", () =>
    Effect.gen(function*() {
      const { as, editOnServer, markdownIn, spaceId } = yield* space()
      const dir = yield* folder({})
      const file = nodePath.join(dir, "guide.md")
      const got = yield* as("pages", "get", spaceId, "guide", "-o", file)
      assert.strictEqual(got.status, 0, got.stderr)
      assert.strictEqual(fs.readFileSync(file, "utf8"), "# Guide\n\nFirst line.\n\nSecond line.\n\nThird line.\n")
      const recorded = JSON.parse(fs.readFileSync(nodePath.join(dir, ".quire.json"), "utf8")) as { files: Record<string, { revision: string }> }
      assert.include(got.stdout, `(revision ${recorded.files["guide.md"]!.revision})`)

      // Someone changes the first line on the server; the writer changes the last one locally.
      yield* editOnServer("First line, from the server.\n\nSecond line.\n\nThird line.\n")
      fs.writeFileSync(file, "# Guide\n\nFirst line.\n\nSecond line.\n\nThird line, edited locally.\n")
      const put = yield* as("pages", "put", spaceId, "guide", file, "--json")
      assert.strictEqual(put.status, 0, put.stderr)
      const cr = yield* decodeCr(put)
      assert.strictEqual(yield* markdownIn(cr.id, "guide"), "First line, from the server.\n\nSecond line.\n\nThird line, edited locally.\n")

      // From the same old revision, an edit of the line the server changed: refused, the conflict shown, nothing written.
      fs.writeFileSync(file, "# Guide\n\nFirst line, mine.\n\nSecond line.\n\nThird line.\n")
      const refused = yield* as("pages", "put", spaceId, "guide", file, "--cr", cr.id, "--base", recorded.files["guide.md"]!.revision)
      assert.strictEqual(refused.status, 1)
      assert.include(refused.stderr, "<<<<<<< change request\nFirst line, from the server.\n=======\nFirst line, mine.\n>>>>>>> yours")
      assert.strictEqual(yield* markdownIn(cr.id, "guide"), "First line, from the server.\n\nSecond line.\n\nThird line, edited locally.\n")
    }))

  it.effect("cr apply sends the revision its files came from, and uploads an image only when it changed", () =>
    Effect.gen(function*() {
      const { alice, as, idOf, markdownIn, spaceId } = yield* space()
      const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Apply" } })
      const dir = yield* folder({ "guide.md": "# Guide\n\nFirst line.\n\nSecond line.\n\nThird line.\n\n![Flow](images/flow.png)\n", "images/flow.png": png })
      const first = yield* as("cr", "apply", spaceId, cr.id, dir)
      assert.strictEqual(first.status, 0, first.stderr)
      assert.include(first.stdout, "0 pages added, 1 updated, 1 image uploaded")

      // A reviewer edits the first line in the change request; the writer edits the second line and applies again.
      yield* alice.api.changeRequestContent.updateChangeRequestContent({
        params: { spaceId, changeRequestId: cr.id },
        payload: { changes: [{ operation: "update_page", page: idOf("guide"), document: { markdown: (yield* markdownIn(cr.id, "guide")).replace("First line.", "First line, reviewed.") } }] }
      })
      fs.writeFileSync(nodePath.join(dir, "guide.md"), "# Guide\n\nFirst line.\n\nSecond line, rewritten.\n\nThird line.\n\n![Flow](images/flow.png)\n")
      const second = yield* as("cr", "apply", spaceId, cr.id, dir)
      assert.strictEqual(second.status, 0, second.stderr)
      assert.notInclude(second.stdout, "uploaded")
      const files = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params: { spaceId, changeRequestId: cr.id }, query: {} })
      assert.strictEqual(files.items.length, 1)
      assert.strictEqual(
        yield* markdownIn(cr.id, "guide"),
        `First line, reviewed.\n\nSecond line, rewritten.\n\nThird line.\n\n![Flow](/files/${files.items[0]!.id})\n`
      )
      // A changed image is sent again.
      fs.writeFileSync(nodePath.join(dir, "images/flow.png"), new Uint8Array([...png, 4]))
      const third = yield* as("cr", "apply", spaceId, cr.id, dir)
      assert.strictEqual(third.status, 0, third.stderr)
      assert.include(third.stdout, "1 image uploaded")
    }))

  it.effect("pages mv rewrites the links to the moved page in the same change request; links check finds none broken", () =>
    Effect.gen(function*() {
      const { as, markdownIn, spaceId } = yield* space()
      const moved = yield* as("pages", "mv", spaceId, "guide", "setup/handbook", "--json")
      assert.strictEqual(moved.status, 0, moved.stderr)
      const cr = yield* decodeCr(moved)
      assert.strictEqual(yield* markdownIn(cr.id, "setup"), "Read [the guide](setup/handbook.md) and [again](/setup/handbook#top).\n")
      const check = yield* as("links", "check", spaceId, "--cr", cr.id)
      assert.strictEqual(check.status, 0, check.stdout + check.stderr)
    }))

  it.effect("links check counts the asset links of imported pages that resolve as fine", () =>
    Effect.gen(function*() {
      const { alice, spaceId } = yield* space()
      const as = quireAs(alice.token)
      const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), "quire-local-git-"))
      const bare = nodePath.join(dir, "docs.git")
      const work = nodePath.join(dir, "work")
      const git = (...args: ReadonlyArray<string>) =>
        execFileSync("git", args, {
          cwd: work,
          env: { ...process.env, GIT_AUTHOR_NAME: "Tess", GIT_AUTHOR_EMAIL: "tess@example.com", GIT_COMMITTER_NAME: "Tess", GIT_COMMITTER_EMAIL: "tess@example.com" }
        })
      execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", bare])
      execFileSync("git", ["init", "--quiet", "--initial-branch=main", work])
      const write = (name: string, content: string | Uint8Array) => {
        fs.mkdirSync(nodePath.dirname(nodePath.join(work, name)), { recursive: true })
        fs.writeFileSync(nodePath.join(work, name), content)
      }
      write("README.md", "# Welcome\n\n![Flow](.gitbook/assets/flow.png)\n")
      write("SUMMARY.md", "# Table of contents\n\n* [Welcome](README.md)\n* [Install](guides/install.md)\n")
      write("guides/install.md", "# Install\n\n![Flow](<../.gitbook/assets/flow.png>) and ![Rig](images/rig.png)\n")
      write(".gitbook/assets/flow.png", png)
      write("guides/images/rig.png", png)
      git("add", ".")
      git("commit", "--quiet", "-m", "Docs with images")
      git("push", "--quiet", bare, "main")
      assert.strictEqual((yield* as("git", "connect", spaceId, `file://${bare}`)).status, 0)
      assert.strictEqual((yield* as("git", "import", spaceId)).status, 0)
      yield* as("git", "status", spaceId, "--json").pipe(
        Effect.flatMap(decodeJson(GitSyncState)),
        Effect.filterOrFail((state) => state.lastImport !== null && state.lastImport.status !== "running" && state.lastImport.status !== "pending", () => new Error("importing")),
        Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 }),
        Effect.orDie
      )
      const check = yield* as("links", "check", spaceId)
      assert.strictEqual(check.status, 0, check.stdout + check.stderr)
      // Two files, each one link target however many pages show it.
      assert.match(check.stdout, /^No broken links in the space \(2 links checked\)\.$/)
      fs.rmSync(dir, { recursive: true, force: true })
    }))
})
