/** `listRevisionsInSpace` (Quire's extension): the main content's history, newest first, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, errorCode, errorMessage, mergeIntoMain, newUser, publicUrl, raw, spaceWith } from "./Harness.ts"

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`revision history on ${backend.name}`, (it) => {
    it.effect("lists main's revisions newest first, page by page, without a change request's own revisions", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const first = yield* mergeIntoMain(alice.api, spaceId, [{ operation: "insert_page", title: "One", document: { markdown: "One." } }])
        yield* alice.api.spaceContent.applyTemplateToSpace({ params: { spaceId }, payload: { id: "blank" } })
        const second = yield* mergeIntoMain(alice.api, spaceId, [{ operation: "insert_page", title: "Two", document: { markdown: "Two." } }])
        // A change request still open: its revisions are not main's history.
        const open = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Open" } })
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId, changeRequestId: open.id },
          payload: { changes: [{ operation: "insert_page", title: "Three", document: { markdown: "Three." } }] }
        })

        const api = alice.api.revisions
        const all = yield* api.listRevisionsInSpace({ params: { spaceId }, query: {} })
        const current = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        assert.strictEqual(all.items[0]?.id, current.id)
        assert.strictEqual(all.items[0]?.id, second.revision)
        assert.deepStrictEqual(all.items.map((r) => r.type), ["merge", "edits", "merge", "edits"])
        assert.strictEqual(all.items.length, 4)
        assert.strictEqual(all.items[2]?.id, first.revision)
        assert.strictEqual(all.items.at(-1)?.id, space.revision)
        assert.deepStrictEqual(all.items.at(-1)?.parents, [])
        // Each names its first parent next, and links to its screen.
        all.items.slice(0, -1).forEach((r, i) => assert.strictEqual(r.parents[0], all.items[i + 1]!.id))
        assert.strictEqual(all.items[0]?.urls.app, `${publicUrl}/s/${spaceId}/~/revisions/${current.id}`)
        assert.notProperty(all.items[0], "pages")

        const seen: Array<string> = []
        let page: string | undefined
        do {
          const got = yield* api.listRevisionsInSpace({ params: { spaceId }, query: { limit: 3, ...(page === undefined ? {} : { page }) } })
          assert.isAtMost(got.items.length, 3)
          seen.push(...got.items.map((r) => r.id))
          page = got.next?.page
        } while (page !== undefined)
        assert.deepStrictEqual(seen, all.items.map((r) => r.id))
      }))

    it.effect("keeps to the caller's spaces: 404 for an outsider, 400 for another space's cursor or a bad limit", () =>
      Effect.gen(function*() {
        const { alice, space, organizationId } = yield* spaceWith()
        yield* mergeIntoMain(alice.api, space.id, [{ operation: "insert_page", title: "One", document: { markdown: "One." } }])
        const mallory = yield* newUser("Mallory")
        const refused = yield* mallory.api.revisions.listRevisionsInSpace({ params: { spaceId: space.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 404)
        assert.strictEqual((yield* raw("GET", `/v1/spaces/${space.id}/revisions`)).status, 401)

        const other = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Other" } })
        yield* mergeIntoMain(alice.api, other.id, [{ operation: "insert_page", title: "Two", document: { markdown: "Two." } }])
        const page = (yield* alice.api.revisions.listRevisionsInSpace({ params: { spaceId: other.id }, query: { limit: 1 } })).next!.page
        const crossed = yield* raw("GET", `/v1/spaces/${space.id}/revisions?page=${encodeURIComponent(page)}`, { token: alice.token })
        assert.strictEqual(crossed.status, 400)
        assert.match(errorMessage(crossed.body), /^page:/)
        for (const query of ["limit=0", "limit=1001", "page=nope"]) {
          const bad = yield* raw("GET", `/v1/spaces/${space.id}/revisions?${query}`, { token: alice.token })
          assert.strictEqual(bad.status, 400, query)
          assert.match(errorMessage(bad.body), /limit|page/, query)
        }
      }))
  })
}
