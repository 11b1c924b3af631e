/**
 * `updateChangeRequestContent` with `baseRevision` (Quire's extension), on every backend: a page
 * changed in the change request since that revision is merged three-way with the edit, or the
 * batch is refused with 409 showing the conflicting lines; nothing is silently overwritten.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { everyBackend, raw, spaceWith } from "./Harness.ts"

for (const backend of everyBackend) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`base revision of content edits on ${backend.name}`, (it) => {
    it.effect("an edit written against an older revision is merged with what changed since; overlapping edits are refused with the conflict", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const api = alice.api
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Merging" } })
        const params = { spaceId: space.id, changeRequestId: cr.id }
        const first = yield* api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "insert_page", title: "Guide", document: { markdown: "Line one.\n\nLine two.\n\nLine three.\n" } }] }
        })
        const base = first.revision
        const { pages } = yield* api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
        const page = pages[0]!.id
        const markdownNow = Effect.map(
          api.changeRequestContent.getPageInChangeRequestById({ params: { ...params, pageId: page }, query: { format: "markdown" } }),
          (p) => ({ title: p.title, markdown: (p as { markdown?: string }).markdown ?? "" })
        )
        // Someone else edits the first line and the title in the change request.
        yield* api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "update_page", page, title: "Guide, revised", document: { markdown: "Line ONE.\n\nLine two.\n\nLine three.\n" } }] }
        })

        // The writer's copy came from `base`: its edit of the last line is merged, the other's first line and title kept.
        yield* api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { baseRevision: base, changes: [{ operation: "update_page", page, document: { markdown: "# Guide\n\nLine one.\n\nLine two.\n\nLine three, edited.\n" } }] }
        })
        const merged = yield* markdownNow
        assert.strictEqual(merged.title, "Guide, revised")
        assert.strictEqual(merged.markdown, "Line ONE.\n\nLine two.\n\nLine three, edited.\n")

        // Both changed the first line: 409 with both versions, and the page as it was.
        const refused = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          token: alice.token,
          body: JSON.stringify({
            baseRevision: base,
            changes: [{ operation: "update_page", page, document: { markdown: "# Guide\n\nLine uno.\n\nLine two.\n\nLine three.\n" } }]
          })
        })
        assert.strictEqual(refused.status, 409)
        const message = (refused.body as { error: { message: string } }).error.message
        assert.include(message, `revision ${base}`)
        assert.include(message, "<<<<<<< change request\nLine ONE.\n=======\nLine uno.\n>>>>>>> yours")
        assert.deepStrictEqual(yield* markdownNow, merged)

        // A revision of another space names the field; without baseRevision the edit replaces the page, as GitBook's does.
        const other = yield* spaceWith()
        const elsewhere = yield* other.alice.api.changeRequests.createChangeRequest({ params: { spaceId: other.space.id }, payload: {} })
        const bad = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          token: alice.token,
          body: JSON.stringify({ baseRevision: elsewhere.revision, changes: [{ operation: "update_page", page, title: "X" }] })
        })
        assert.strictEqual(bad.status, 400)
        assert.include((bad.body as { error: { message: string } }).error.message, "baseRevision")
        yield* api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "update_page", page, document: { markdown: "Replaced.\n" } }] }
        })
        assert.strictEqual((yield* markdownNow).markdown, "Replaced.\n")
      }))
  })
}
