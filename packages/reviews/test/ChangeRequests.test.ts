/**
 * The change-request use cases over the memory adapters: numbering and lookup, status transitions
 * and the space's counters, batches as one revision or none, the limits on a batch's files (inline
 * and by URL), who may read and edit, and `outdated`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { as, errorMessage, errorTag, LocalServer } from "@quire/testkit"
import { Spaces } from "@quire/content"
import { ChangeRequests, type ChangeInput, maxBatchFileBytes, maxBatchFiles, maxFileBytes } from "../src/ChangeRequests.ts"
import { counters, insert, layer, mergeIntoMain, newChangeRequest, newSpace } from "./UseCases.ts"

const bytes = (n: number) => new Uint8Array(n).fill(97)
const inline = (name: string, size: number) => ({ name, contentType: "text/plain", bytes: bytes(size) })

it.layer(layer, { timeout: "60 seconds" })("ChangeRequests", (it) => {
  describe("records", () => {
    it.effect("creates numbered drafts (distinct under concurrency), found by id or number, listed open by default", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        const first = yield* changeRequests.create(space.id, { subject: "First", agentTaskId: "task-1" }).pipe(as("alice"))
        const cr = first.changeRequest
        assert.deepStrictEqual(
          [cr.number, cr.status, cr.subject, cr.createdBy, cr.agentTaskId, first.outdated],
          [1, "draft", "First", "alice", "task-1", false]
        )
        assert.deepStrictEqual([cr.revision, cr.revisionInitial, cr.revisionMergedAncestor, cr.revisionMerged], [
          space.revisionId,
          space.revisionId,
          space.revisionId,
          null
        ])
        assert.strictEqual((yield* newChangeRequest(space.id, "Second", "erin")).number, 2)
        const concurrent = yield* Effect.forEach([1, 2, 3], (n) => newChangeRequest(space.id, `C${n}`), { concurrency: "unbounded" })
        assert.deepStrictEqual(concurrent.map((c) => c.number).toSorted((a, b) => a - b), [3, 4, 5])

        assert.strictEqual((yield* changeRequests.get(space.id, "2").pipe(as("alice"))).changeRequest.subject, "Second")
        assert.strictEqual((yield* changeRequests.get(space.id, cr.id).pipe(as("alice"))).changeRequest.number, 1)
        assert.strictEqual(yield* errorTag(changeRequests.get(space.id, "99").pipe(as("alice"))), "NotFound")
        // A change request of another space is not found through this one.
        const other = yield* newSpace("Other")
        assert.strictEqual(yield* errorTag(changeRequests.get(other.id, cr.id).pipe(as("alice"))), "NotFound")

        assert.deepStrictEqual((yield* changeRequests.list(space.id, {}).pipe(as("alice"))).items.items, [])
        const drafts = yield* changeRequests.list(space.id, { status: "draft", limit: 3 }).pipe(as("alice"))
        assert.deepStrictEqual(drafts.items.items.map((c) => c.number), [5, 4, 3])
        const byCreator = yield* changeRequests.list(space.id, { status: "draft", creator: "erin" }).pipe(as("alice"))
        assert.deepStrictEqual(byCreator.items.items.map((c) => c.number), [2])
        // Contributors are those who edited the content.
        yield* changeRequests.updateContent(space.id, "3", [insert("# Hello", "Hello")]).pipe(as("erin"))
        const byContributor = yield* changeRequests.list(space.id, { status: "draft", contributor: "erin" }).pipe(as("alice"))
        assert.deepStrictEqual(byContributor.items.items.map((c) => c.number), [3])
      }))

    it.effect("moves status through permitted transitions only, never to merged, keeping the space's counters exact", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        yield* newChangeRequest(space.id, "One")
        yield* newChangeRequest(space.id, "Two")
        assert.deepStrictEqual(yield* counters(space.id), [2, 0, 2, 0])
        const update = (input: Parameters<typeof changeRequests.update>[2]) => changeRequests.update(space.id, "1", input).pipe(as("alice"))
        const opened = yield* update({ status: "open", subject: "Renamed" })
        assert.deepStrictEqual([opened.changeRequest.status, opened.changeRequest.subject], ["open", "Renamed"])
        assert.deepStrictEqual(yield* counters(space.id), [2, 1, 1, 0])
        yield* update({ status: "draft" })
        assert.deepStrictEqual(yield* counters(space.id), [2, 0, 2, 0])
        yield* update({ status: "archived" })
        assert.deepStrictEqual(yield* counters(space.id), [2, 0, 1, 0])
        assert.strictEqual(
          yield* errorMessage(update({ status: "draft" })),
          "status: a archived change request cannot become draft (it may become open)"
        )
        yield* update({ status: "open" })
        assert.strictEqual(yield* errorMessage(update({ status: "merged" })), "status: a change request becomes merged only by merging it")
        assert.deepStrictEqual(yield* counters(space.id), [2, 1, 1, 0])
        assert.strictEqual((yield* changeRequests.get(space.id, "1").pipe(as("alice"))).changeRequest.status, "open")
      }))

    it.effect("caps a subject at 100 characters on create and update, changing nothing", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        const longest = "s".repeat(100)
        const cr = yield* newChangeRequest(space.id, longest)
        assert.strictEqual(yield* errorTag(changeRequests.create(space.id, { subject: `${longest}s` }).pipe(as("alice"))), "InvalidInput")
        assert.include(yield* errorMessage(changeRequests.update(space.id, cr.id, { subject: `${longest}s` }).pipe(as("alice"))), "subject")
        const drafts = yield* changeRequests.list(space.id, { status: "draft" }).pipe(as("alice"))
        assert.deepStrictEqual(drafts.items.items.map((c) => c.subject), [longest])
      }))
  })

  describe("content", () => {
    it.effect("applies a batch as one revision of the change request, leaving main content alone", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Docs")
        const first = yield* changeRequests.updateContent(space.id, cr.id, [
          insert("# Guide\n\nRead [setup](./setup.md).", "Guide"),
          { operation: "insert_page", ref: "setup", title: "Setup", markdown: "Install it." },
          { operation: "insert_page", into: "setup", markdown: "---\ntitle: Linux\n---\nUse apt." },
          { operation: "insert_files", files: [inline("a.txt", 5)] }
        ]).pipe(as("erin"))
        assert.deepStrictEqual(first.outcomes.map((o) => o.kind), ["created", "created", "created"])
        assert.deepStrictEqual(first.insertedFiles.map((f) => [f.name, f.contentType, f.size]), [["a.txt", "text/plain", 5]])
        assert.deepStrictEqual(first.changeRequest.contributors, ["erin"])
        const content = yield* changeRequests.content(space.id, cr.id).pipe(as("alice"))
        assert.strictEqual(content.revision.id, first.changeRequest.revision)
        assert.deepStrictEqual(content.revision.parents, [cr.revision])
        assert.deepStrictEqual(content.revision.pages.map((p) => [p.title, p.pages.map((c) => c.title)]), [["Guide", []], ["Setup", ["Linux"]]])
        const [guide, setup] = content.revision.pages
        assert.strictEqual((yield* changeRequests.page(space.id, cr.id, guide!.id).pipe(as("alice"))).markdown, `Read [setup](/pages/${setup!.id}).`)
        const files = yield* changeRequests.files(space.id, cr.id, {}).pipe(as("alice"))
        assert.strictEqual((yield* changeRequests.file(space.id, cr.id, files.items[0]!.id).pipe(as("alice"))).name, "a.txt")

        const second = yield* changeRequests.updateContent(space.id, "1", [
          { operation: "update_page", page: guide!.id, title: "User guide", markdown: "Updated." },
          { operation: "delete_page", page: setup!.id }
        ]).pipe(as("alice"))
        const after = yield* changeRequests.content(space.id, cr.id).pipe(as("alice"))
        assert.deepStrictEqual(after.revision.parents, [first.changeRequest.revision])
        assert.strictEqual(after.revision.id, second.changeRequest.revision)
        assert.deepStrictEqual(after.revision.pages.map((p) => p.title), ["User guide"])
        assert.deepStrictEqual(second.changeRequest.contributors.toSorted(), ["alice", "erin"])

        const spaces = yield* Spaces
        const main = yield* spaces.get(space.id).pipe(as("alice"))
        assert.strictEqual(main.space.revisionId, space.revisionId)
      }))

    it.effect("refuses a whole batch when one change is bad, naming it, and an empty or oversized batch", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Bad")
        const bad = yield* errorMessage(changeRequests.updateContent(space.id, cr.id, [
          insert("# Fine", "Fine"),
          { operation: "delete_page", page: "nope" }
        ]).pipe(as("alice")))
        assert.include(bad, "changes[1]")
        assert.include(bad, "nope")
        assert.include(bad, "no change of the batch was applied")
        assert.strictEqual(yield* errorMessage(changeRequests.updateContent(space.id, cr.id, []).pipe(as("alice"))), "changes: a batch holds 1 to 50 changes")
        const tooMany = Array.from({ length: 51 }, (_, i) => insert(`Page ${i}`, `P${i}`))
        assert.strictEqual(yield* errorTag(changeRequests.updateContent(space.id, cr.id, tooMany).pipe(as("alice"))), "InvalidInput")
        const content = yield* changeRequests.content(space.id, cr.id).pipe(as("alice"))
        assert.deepStrictEqual([content.revision.id, content.revision.pages], [cr.revision, []])
        assert.deepStrictEqual(content.changeRequest.contributors, [])
      }))

    it.effect("bounds a batch's inline files: each file, their number and their bytes in total", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Files")
        const edit = (changes: ReadonlyArray<ChangeInput>) => errorMessage(changeRequests.updateContent(space.id, cr.id, changes).pipe(as("alice")))
        assert.strictEqual(
          yield* edit([insert("x", "X"), { operation: "insert_files", files: [inline("big.bin", maxFileBytes + 1)] }]),
          `changes[1]: insert_files: "big.bin" is larger than ${maxFileBytes} bytes`
        )
        const many = Array.from({ length: maxBatchFiles + 1 }, (_, i) => inline(`f${i}.txt`, 1))
        assert.strictEqual(
          yield* edit([{ operation: "insert_files", files: many.slice(0, 10) }, { operation: "insert_files", files: many.slice(10) }]),
          `changes: a batch adds at most ${maxBatchFiles} files, this one ${maxBatchFiles + 1}`
        )
        const full = Array.from({ length: maxBatchFileBytes / maxFileBytes + 1 }, (_, i) => inline(`m${i}.bin`, maxFileBytes))
        assert.include(yield* edit([{ operation: "insert_files", files: full }]), `the files of a batch hold at most ${maxBatchFileBytes} bytes in total`)
        const content = yield* changeRequests.content(space.id, cr.id).pipe(as("alice"))
        assert.deepStrictEqual(content.revision.files, [])
      }))

    it.effect("fetches files by URL, typed by the override, the response or the name; a failing URL refuses the batch naming its change", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const site = yield* LocalServer.serveRoutes({
          "/logo.png": { type: "image/png", body: new Uint8Array([137, 80, 78, 71]) },
          "/notes": { type: "text/plain; charset=utf-8", body: "notes" },
          "/data.csv": { type: "application/octet-stream", body: "a,b" },
          "/odd.txt": { type: "not a type", body: "odd" },
          "/screenshot.png": { type: "image/png", body: new Uint8Array(3 * maxFileBytes) },
          "/huge.png": { type: "image/png", body: new Uint8Array(maxBatchFileBytes + 1) }
        })
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "By URL")
        const done = yield* changeRequests.updateContent(space.id, cr.id, [{
          operation: "insert_files",
          files: [
            { name: "logo.png", url: `${site.origin}/logo.png` },
            { name: "notes.md", url: `${site.origin}/notes` },
            { name: "data.csv", url: `${site.origin}/data.csv` },
            { name: "odd.txt", url: `${site.origin}/odd.txt` },
            { name: "forced.bin", url: `${site.origin}/notes`, contentType: "application/x-custom" },
            inline("inline.txt", 3)
          ]
        }]).pipe(as("alice"))
        assert.deepStrictEqual(done.insertedFiles.map((f) => [f.name, f.contentType, f.size]), [
          ["logo.png", "image/png", 4],
          ["notes.md", "text/plain", 5],
          ["data.csv", "text/csv", 3],
          ["odd.txt", "text/plain", 3],
          ["forced.bin", "application/x-custom", 5],
          ["inline.txt", "text/plain", 3]
        ])

        // An image of another site larger than an inline file is copied, within the batch's budget.
        const large = yield* changeRequests.updateContent(space.id, cr.id, [{
          operation: "insert_files",
          files: [{ name: "screenshot.png", url: `${site.origin}/screenshot.png` }]
        }]).pipe(as("alice"))
        assert.deepStrictEqual(large.insertedFiles.map((f) => [f.name, f.size]), [["screenshot.png", 3 * maxFileBytes]])
        const huge = yield* errorMessage(changeRequests.updateContent(space.id, cr.id, [{
          operation: "insert_files",
          files: [{ name: "huge.png", url: `${site.origin}/huge.png` }]
        }]).pipe(as("alice")))
        assert.include(huge, `at most ${maxBatchFileBytes} bytes in total`)

        const before = (yield* changeRequests.content(space.id, cr.id).pipe(as("alice"))).revision.id
        const missing = yield* errorMessage(changeRequests.updateContent(space.id, cr.id, [
          insert("x", "X"),
          { operation: "insert_files", files: [{ name: "gone.txt", url: `${site.origin}/missing` }] }
        ]).pipe(as("alice")))
        assert.include(missing, "changes[1]: insert_files: \"gone.txt\": cannot fetch")
        assert.include(missing, "no change of the batch was applied")
        const blocked = yield* errorMessage(changeRequests.updateContent(space.id, cr.id, [
          { operation: "insert_files", files: [{ name: "meta", url: "http://169.254.169.254/latest/meta-data" }] }
        ]).pipe(as("alice")))
        assert.include(blocked, "changes[0]: insert_files: \"meta\": cannot fetch http://169.254.169.254/latest/meta-data (blocked")
        assert.strictEqual((yield* changeRequests.content(space.id, cr.id).pipe(as("alice"))).revision.id, before)
      }))
  })

  describe("access", () => {
    it.effect("readers read but do not edit, outsiders see nothing, a locked space refuses edits, merged ones refuse too", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const spaces = yield* Spaces
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Guarded")
        assert.strictEqual((yield* changeRequests.get(space.id, cr.id).pipe(as("rhea"))).changeRequest.id, cr.id)
        const change = [insert("x", "X")]
        assert.strictEqual(yield* errorTag(changeRequests.updateContent(space.id, cr.id, change).pipe(as("rhea"))), "Forbidden")
        assert.strictEqual(yield* errorTag(changeRequests.create(space.id, {}).pipe(as("rhea"))), "Forbidden")
        assert.strictEqual(yield* errorTag(changeRequests.update(space.id, cr.id, { status: "open" }).pipe(as("rhea"))), "Forbidden")
        for (const user of ["outsider", "otto"]) {
          assert.strictEqual(yield* errorTag(changeRequests.get(space.id, cr.id).pipe(as(user))), "NotFound")
          assert.strictEqual(yield* errorTag(changeRequests.list(space.id, {}).pipe(as(user))), "NotFound")
          assert.strictEqual(yield* errorTag(changeRequests.content(space.id, cr.id).pipe(as(user))), "NotFound")
        }
        // Files by URL are not fetched for someone who cannot edit.
        const site = yield* LocalServer.serveRoutes({ "/a.txt": { type: "text/plain", body: "a" } })
        assert.strictEqual(
          yield* errorTag(changeRequests.updateContent(space.id, cr.id, [{ operation: "insert_files", files: [{ name: "a.txt", url: `${site.origin}/a.txt` }] }]).pipe(as("rhea"))),
          "Forbidden"
        )
        assert.strictEqual(site.connections(), 0)

        yield* spaces.update(space.id, { editMode: "locked" }).pipe(as("alice"))
        assert.strictEqual(yield* errorTag(changeRequests.updateContent(space.id, cr.id, change).pipe(as("alice"))), "Forbidden")
        assert.include(yield* errorMessage(changeRequests.updateContent(space.id, cr.id, change).pipe(as("alice"))), "locked")
        yield* spaces.update(space.id, { editMode: "live" }).pipe(as("alice"))

        yield* mergeIntoMain(space.id, change)
        const merged = (yield* changeRequests.list(space.id, { status: "merged" }).pipe(as("alice"))).items.items[0]!
        assert.strictEqual(
          yield* errorMessage(changeRequests.updateContent(space.id, merged.id, change).pipe(as("alice"))),
          `changeRequestId: change request ${merged.number} is merged; only draft and open change requests can be edited`
        )
      }))

    it.effect("becomes outdated when the main content moves on, its own content staying where it was", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Behind")
        assert.isFalse((yield* changeRequests.get(space.id, cr.id).pipe(as("alice"))).outdated)
        yield* mergeIntoMain(space.id, [insert("Main moved.", "Moved")])
        const now = yield* changeRequests.get(space.id, cr.id).pipe(as("alice"))
        assert.isTrue(now.outdated)
        assert.strictEqual(now.changeRequest.revisionMergedAncestor, space.revisionId)
        assert.deepStrictEqual((yield* changeRequests.content(space.id, cr.id).pipe(as("alice"))).revision.pages, [])
        const listed = yield* changeRequests.list(space.id, { status: "draft" }).pipe(as("alice"))
        assert.notStrictEqual(listed.spaceRevision, space.revisionId)
      }))
  })
})
