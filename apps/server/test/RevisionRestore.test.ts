/**
 * `restoreRevisionInChangeRequest` (Quire's extension): a past revision of main restored through a
 * draft change request holding its whole content (groups, link pages, descriptions, files), on
 * every backend.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { everyBackend, changeRequestsOn, errorCode, errorMessage, mergeIntoMain, newUser, raw, spaceWith } from "./Harness.ts"

interface Listed { readonly title: string; readonly kind: string; readonly description?: string | undefined; readonly href?: string | undefined; readonly pages?: ReadonlyArray<Listed> | undefined }

/** The tree as a person reads it: title, kind, description and link, nested. */
const outline = (pages: ReadonlyArray<Listed>): ReadonlyArray<unknown> =>
  pages.map((page) => [page.title, page.kind, page.description ?? "", page.href ?? "", outline(page.pages ?? [])])

for (const backend of everyBackend) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`restoring a revision on ${backend.name}`, (it) => {
    it.effect("opens a draft whose content is the old revision's, groups, links, descriptions and files included; merged, main reads as it did", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const api = alice.api
        const s = changeRequestsOn(api, spaceId)
        yield* mergeIntoMain(api, spaceId, [
          { operation: "insert_page", ref: "welcome", title: "Welcome", description: "Where to start", document: { markdown: "Start here.\n" } },
          { operation: "insert_page", type: "group", ref: "guides", title: "Guides", document: {} },
          { operation: "insert_page", ref: "install", into: "guides", title: "Install", document: { markdown: "Run it.\n" } },
          { operation: "insert_page", type: "link", into: "guides", title: "Changelog", href: "https://example.com/changelog", document: {} }
        ])
        const good = yield* s.main()
        const before = yield* api.spaceContent.listPages({ params: { spaceId }, query: {} })
        const welcome = before.pages.find((page) => page.title === "Welcome")!
        const guides = before.pages.find((page) => page.title === "Guides")!

        // Later: the welcome page rewritten and its description dropped, the group deleted, a file added.
        yield* mergeIntoMain(api, spaceId, [
          { operation: "update_page", page: welcome.id, description: "", document: { markdown: "Something else.\n" } },
          { operation: "delete_page", page: guides.id },
          { operation: "insert_files", files: [{ name: "notes.txt", contentType: "text/plain", base64: Buffer.from("Notes.").toString("base64") }] }
        ])
        const later = yield* s.main()
        assert.strictEqual(later.files.length, 1)

        const restored = yield* api.revisions.restoreRevisionInChangeRequest({ params: { spaceId, revisionId: good.id }, payload: { subject: "Back to the good days" } })
        assert.strictEqual(restored.status, "draft")
        assert.strictEqual(restored.subject, "Back to the good days")
        assert.strictEqual(restored.revisionInitial, later.id)
        assert.match(restored.urls.app, new RegExp(`/s/${spaceId}/~/changes/${restored.number}$`))
        // Main is untouched until the change request is merged.
        assert.strictEqual((yield* s.main()).id, later.id)

        const content = yield* api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId, changeRequestId: restored.id }, query: {} })
        assert.deepStrictEqual(outline(content.pages), outline(before.pages))
        assert.strictEqual(yield* s.crMarkdown(restored.id, welcome.id), "Start here.\n")
        const changes = yield* api.changeRequestChanges.getChangeRequestChanges({ params: { spaceId, changeRequestId: restored.id }, query: {} })
        assert.includeMembers(changes.changes.map((change) => change.type), ["page_edited", "page_created", "file_deleted"])

        yield* s.merge(restored.id)
        const after = yield* api.spaceContent.listPages({ params: { spaceId }, query: {} })
        assert.deepStrictEqual(outline(after.pages), outline(before.pages))
        assert.strictEqual(yield* s.mainMarkdown(welcome.id), "Start here.\n")
        assert.strictEqual((yield* s.main()).files.length, 0)
      }))

    it.effect("without a subject names what it restores; a reader is refused, an outsider and another space's revision are 404, a long subject is 400", () =>
      Effect.gen(function*() {
        const { alice, space, organizationId, members } = yield* spaceWith(["read"])
        const spaceId = space.id
        yield* mergeIntoMain(alice.api, spaceId, [{ operation: "insert_page", title: "One", document: { markdown: "One.\n" } }])
        const revisionId = (yield* changeRequestsOn(alice.api, spaceId).main()).id

        const plain = yield* alice.api.revisions.restoreRevisionInChangeRequest({ params: { spaceId, revisionId }, payload: {} })
        assert.strictEqual(plain.subject, "")

        const reader = yield* members.read!.api.revisions.restoreRevisionInChangeRequest({ params: { spaceId, revisionId }, payload: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(reader), 403)
        const mallory = yield* newUser("Mallory")
        const outsider = yield* mallory.api.revisions.restoreRevisionInChangeRequest({ params: { spaceId, revisionId }, payload: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(outsider), 404)

        const other = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Other" } })
        const crossed = yield* alice.api.revisions.restoreRevisionInChangeRequest({ params: { spaceId: other.id, revisionId }, payload: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(crossed), 404)

        const long = yield* raw("POST", `/v1/spaces/${spaceId}/revisions/${revisionId}/restore`, { token: alice.token, body: JSON.stringify({ subject: "x".repeat(5000) }) })
        assert.strictEqual(long.status, 400)
        assert.match(errorMessage(long.body), /subject/)
        // Nothing refused opened a change request: only the one restore above exists.
        const listed = yield* alice.api.changeRequests.listChangeRequestsForSpace({ params: { spaceId }, query: { status: "draft" } })
        assert.deepStrictEqual(listed.items.map((cr) => cr.id), [plain.id])
      }))
  })
}
