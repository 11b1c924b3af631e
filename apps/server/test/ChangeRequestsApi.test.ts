/** Change requests and their content through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, errorCode, errorMessage, newUser, raw, spaceWith } from "./Harness.ts"

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`change requests API on ${backend.name}`, (it) => {
    it.effect("creates numbered drafts (distinct under concurrency), gets them by id or number, and lists with filters", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["edit"])
        const api = alice.api.changeRequests
        const spaceId = space.id
        const first = yield* api.createChangeRequest({ params: { spaceId }, payload: { subject: "First", agentTaskId: "task-1" } })
        assert.deepStrictEqual(
          [first.object, first.number, first.status, first.subject, first.createdBy.id, first.outdated, first.comments],
          ["change-request", 1, "draft", "First", alice.user.id, false, 0]
        )
        assert.deepStrictEqual([first.revision, first.revisionInitial, first.revisionMergedAncestor], [space.revision, space.revision, space.revision])
        assert.isUndefined(first.revisionMerged)
        const second = yield* members.edit!.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Second" } })
        assert.strictEqual(second.number, 2)
        const concurrent = yield* Effect.forEach(
          [1, 2, 3, 4],
          (n) => api.createChangeRequest({ params: { spaceId }, payload: { subject: `C${n}` } }),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(concurrent.map((cr) => cr.number).toSorted((a, b) => a - b), [3, 4, 5, 6])

        const byNumber = yield* api.getChangeRequestById({ params: { spaceId, changeRequestId: "2" } })
        assert.strictEqual(byNumber.id, second.id)
        const byId = yield* api.getChangeRequestById({ params: { spaceId, changeRequestId: first.id } })
        assert.strictEqual(byId.number, 1)
        const missing = yield* Effect.flip(api.getChangeRequestById({ params: { spaceId, changeRequestId: "99" } }))
        assert.strictEqual(errorCode(missing), 404)

        // Default status filter: open (as GitBook); the new ones are drafts.
        assert.deepStrictEqual((yield* api.listChangeRequestsForSpace({ params: { spaceId }, query: {} })).items, [])
        yield* api.updateChangeRequestById({ params: { spaceId, changeRequestId: "1" }, payload: { status: "open" } })
        const open = yield* api.listChangeRequestsForSpace({ params: { spaceId }, query: {} })
        assert.deepStrictEqual(open.items.map((cr) => cr.number), [1])
        const drafts = yield* api.listChangeRequestsForSpace({ params: { spaceId }, query: { status: "draft", limit: 3 } })
        assert.deepStrictEqual(drafts.items.map((cr) => cr.number), [6, 5, 4])
        const more = yield* api.listChangeRequestsForSpace({ params: { spaceId }, query: { status: "draft", page: drafts.next!.page } })
        assert.deepStrictEqual(more.items.map((cr) => cr.number), [3, 2])
        const byCreator = yield* api.listChangeRequestsForSpace({ params: { spaceId }, query: { status: "draft", creator: members.edit!.user.id } })
        assert.deepStrictEqual(byCreator.items.map((cr) => cr.number), [2])

        // Contributors are those who edited the content.
        yield* members.edit!.api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId, changeRequestId: "3" },
          payload: { changes: [{ operation: "insert_page", document: { markdown: "# Hello" } }] }
        })
        const byContributor = yield* api.listChangeRequestsForSpace({ params: { spaceId }, query: { status: "draft", contributor: members.edit!.user.id } })
        assert.deepStrictEqual(byContributor.items.map((cr) => cr.number), [3])
      }))

    it.effect("moves status through permitted transitions only, keeping the space's counters exact", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const api = alice.api.changeRequests
        const spaceId = space.id
        const counters = Effect.map(alice.api.spaces.getSpaceById({ params: { spaceId }, query: {} }), (s) =>
          [s.changeRequests, s.changeRequestsOpen, s.changeRequestsDraft])
        yield* api.createChangeRequest({ params: { spaceId }, payload: {} })
        yield* api.createChangeRequest({ params: { spaceId }, payload: {} })
        assert.deepStrictEqual(yield* counters, [2, 0, 2])
        const changeRequestId = "1"
        const opened = yield* api.updateChangeRequestById({ params: { spaceId, changeRequestId }, payload: { status: "open", subject: "Renamed" } })
        assert.deepStrictEqual([opened.status, opened.subject], ["open", "Renamed"])
        assert.deepStrictEqual(yield* counters, [2, 1, 1])
        yield* api.updateChangeRequestById({ params: { spaceId, changeRequestId }, payload: { status: "draft" } })
        assert.deepStrictEqual(yield* counters, [2, 0, 2])
        yield* api.updateChangeRequestById({ params: { spaceId, changeRequestId }, payload: { status: "archived" } })
        assert.deepStrictEqual(yield* counters, [2, 0, 1])
        const refused = yield* Effect.flip(api.updateChangeRequestById({ params: { spaceId, changeRequestId }, payload: { status: "draft" } }))
        assert.strictEqual(errorCode(refused), 400)
        assert.include(errorMessage(refused), "archived")
        yield* api.updateChangeRequestById({ params: { spaceId, changeRequestId }, payload: { status: "open" } })
        assert.deepStrictEqual(yield* counters, [2, 1, 1])
        const merged = yield* Effect.flip(api.updateChangeRequestById({ params: { spaceId, changeRequestId }, payload: { status: "merged" } }))
        assert.strictEqual(errorCode(merged), 400)
        assert.deepStrictEqual(yield* counters, [2, 1, 1])
        assert.strictEqual((yield* api.getChangeRequestById({ params: { spaceId, changeRequestId } })).status, "open")
      }))

    it.effect("applies a batch as one revision that reads back through the content endpoints, leaving main content alone", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Docs" } })
        const content = alice.api.changeRequestContent
        const params = { spaceId, changeRequestId: String(cr.number) }
        const first = yield* content.updateChangeRequestContent({
          params,
          payload: {
            changes: [
              { operation: "insert_page", document: { markdown: "# Guide\n\nRead [setup](./setup.md)." } },
              { operation: "insert_page", ref: "setup", title: "Setup", emoji: "🔧", document: { markdown: "Install it." } },
              { operation: "insert_page", into: "setup", document: { markdown: "---\ntitle: Linux\n---\nUse apt." } },
              { operation: "insert_files", files: [{ name: "a.txt", contentType: "text/plain", base64: Buffer.from("hello").toString("base64") }] }
            ]
          }
        })
        assert.notStrictEqual(first.revision, cr.revision)
        const revision = yield* content.getRevisionOfChangeRequestById({ params, query: {} })
        assert.strictEqual(revision.id, first.revision)
        assert.deepStrictEqual(revision.parents, [cr.revision])
        assert.deepStrictEqual(revision.pages.map((p) => [p.title, p.path, (p.pages ?? []).map((c) => c.path)]), [
          ["Guide", "guide", []],
          ["Setup", "setup", ["setup/linux"]]
        ])
        assert.deepStrictEqual(revision.files.map((f) => [f.name, f.size]), [["a.txt", 5]])
        const [guide, setup] = revision.pages
        const guidePage = yield* content.getPageInChangeRequestById({ params: { ...params, pageId: guide!.id }, query: { format: "markdown" } })
        assert.strictEqual(guidePage.markdown, `Read [setup](/pages/${setup!.id}).`)
        assert.strictEqual(setup!.emoji, "🔧")

        // A second batch: update, move and delete, as one more revision.
        const linux = setup!.pages![0]!
        const second = yield* content.updateChangeRequestContent({
          params,
          payload: {
            changes: [
              { operation: "update_page", page: guide!.id, title: "User guide", document: { markdown: "Updated." } },
              { operation: "update_page", page: linux.id, into: null, at: 0 },
              { operation: "delete_page", page: setup!.id }
            ]
          }
        })
        const pages = yield* content.listPagesInChangeRequest({ params, query: {} })
        assert.deepStrictEqual(pages.pages.map((p) => [p.title, p.path]), [["Linux", "linux"], ["User guide", "guide"]])
        const after = yield* content.getRevisionOfChangeRequestById({ params, query: {} })
        assert.deepStrictEqual(after.parents, [first.revision])
        assert.strictEqual(after.id, second.revision)
        const updated = yield* content.getPageInChangeRequestById({ params: { ...params, pageId: guide!.id }, query: { format: "markdown" } })
        assert.strictEqual(updated.markdown, "Updated.")
        const files = yield* content.listFilesInChangeRequestById({ params, query: {} })
        const file = yield* content.getFileInChangeRequestById({ params: { ...params, fileId: files.items[0]!.id }, query: {} })
        assert.strictEqual(file.name, "a.txt")
        const links = yield* content.listChangeRequestPageLinks({ params: { ...params, pageId: guide!.id }, query: {} })
        assert.deepStrictEqual(links.items, [])
        const backlinks = yield* content.listChangeRequestFileBacklinks({ params: { ...params, fileId: file.id }, query: {} })
        assert.deepStrictEqual(backlinks.items, [])

        // Main content is untouched.
        const main = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        assert.strictEqual(main.id, space.revision)
        assert.deepStrictEqual(main.pages, [])
      }))

    it.effect("caps a subject at GitBook's 100 characters: longer is a 400 naming `subject`, on create and update, and nothing changes", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const longest = "s".repeat(100)
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: longest } })
        assert.strictEqual(cr.subject, longest)
        const tooLong = JSON.stringify({ subject: `${longest}s` })
        const created = yield* raw("POST", `/v1/spaces/${spaceId}/change-requests`, { token: alice.token, body: tooLong })
        assert.strictEqual(created.status, 400, JSON.stringify(created.body))
        assert.include(errorMessage(created.body), "subject")
        const updated = yield* raw("PATCH", `/v1/spaces/${spaceId}/change-requests/${cr.id}`, { token: alice.token, body: tooLong })
        assert.strictEqual(updated.status, 400, JSON.stringify(updated.body))
        assert.include(errorMessage(updated.body), "subject")
        const drafts = yield* alice.api.changeRequests.listChangeRequestsForSpace({ params: { spaceId }, query: { status: "draft" } })
        assert.deepStrictEqual(drafts.items.map((item) => item.subject), [longest])
      }))

    it.effect("rejects a whole batch when one change is bad, naming it", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: {} })
        const params = { spaceId, changeRequestId: cr.id }
        const content = alice.api.changeRequestContent
        const bad = yield* Effect.flip(content.updateChangeRequestContent({
          params,
          payload: {
            changes: [
              { operation: "insert_page", document: { markdown: "# Fine" } },
              { operation: "delete_page", page: "nope" }
            ]
          }
        }))
        assert.strictEqual(errorCode(bad), 400)
        assert.include(errorMessage(bad), "changes[1]")
        assert.include(errorMessage(bad), "nope")
        const revision = yield* content.getRevisionOfChangeRequestById({ params, query: {} })
        assert.deepStrictEqual([revision.id, revision.pages], [cr.revision, []])
        const empty = yield* raw("POST", `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
          token: alice.token,
          body: JSON.stringify({ changes: [] })
        })
        assert.strictEqual(empty.status, 400)
      }))

    it.effect("lets readers read but not edit, hides everything from outsiders, and refuses edits on a locked space", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["read"])
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: {} })
        const params = { spaceId, changeRequestId: cr.id }
        const reader = members.read!.api
        assert.strictEqual((yield* reader.changeRequests.getChangeRequestById({ params })).id, cr.id)
        const change = { changes: [{ operation: "insert_page" as const, document: { markdown: "x" } }] }
        const denied = yield* Effect.flip(reader.changeRequestContent.updateChangeRequestContent({ params, payload: change }))
        assert.strictEqual(errorCode(denied), 403)
        assert.strictEqual(errorCode(yield* Effect.flip(reader.changeRequests.createChangeRequest({ params: { spaceId }, payload: {} }))), 403)
        assert.strictEqual(
          errorCode(yield* Effect.flip(reader.changeRequests.updateChangeRequestById({ params, payload: { status: "open" } }))),
          403
        )
        const outsider = yield* newUser("Mallory")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.changeRequests.getChangeRequestById({ params }))), 404)
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.changeRequests.listChangeRequestsForSpace({ params: { spaceId }, query: {} }))), 404)
        assert.strictEqual(
          errorCode(yield* Effect.flip(outsider.api.changeRequestContent.getRevisionOfChangeRequestById({ params, query: {} }))),
          404
        )

        yield* alice.api.spaces.updateSpaceById({ params: { spaceId }, payload: { editMode: "locked" } })
        const locked = yield* Effect.flip(alice.api.changeRequestContent.updateChangeRequestContent({ params, payload: change }))
        assert.strictEqual(errorCode(locked), 403)
        assert.include(errorMessage(locked), "locked")
      }))

    it.effect("becomes outdated when the main content moves on", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: {} })
        assert.isFalse(cr.outdated)
        const applied = yield* raw("POST", `/v1/spaces/${spaceId}/content/template`, {
          token: alice.token,
          body: JSON.stringify({ id: "product-docs" })
        })
        assert.strictEqual(applied.status, 204)
        const now = yield* alice.api.changeRequests.getChangeRequestById({ params: { spaceId, changeRequestId: cr.id } })
        assert.isTrue(now.outdated)
        assert.strictEqual(now.revisionMergedAncestor, space.revision)
        // Its content is still the branch it was created from.
        const content = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId, changeRequestId: cr.id }, query: {} })
        assert.deepStrictEqual(content.pages, [])
      }))
  })
}
