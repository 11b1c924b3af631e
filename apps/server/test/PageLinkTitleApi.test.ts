/**
 * A page's navigation label (GitBook's `linkTitle`, a page input's field) set, replaced and removed
 * through a change request's content updates, and refused past 100 characters; on every backend.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, raw, spaceWith } from "./Harness.ts"
import { write } from "./SiteFixtures.ts"

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`page linkTitle through the API on ${backend.name}`, (it) => {
    it.effect("insert_page and update_page set the label the navigation shows; empty removes it; the title stays", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const api = alice.api
        yield* write(api, space.id, [{ operation: "insert_page", title: "Getting started with the CLI", linkTitle: "CLI", document: { markdown: "Install it." } }])
        const inserted = (yield* api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })).pages[0]!
        assert.deepStrictEqual([inserted.title, inserted.linkTitle], ["Getting started with the CLI", "CLI"])

        yield* write(api, space.id, [{ operation: "update_page", page: inserted.id, linkTitle: "Command line" }])
        const renamed = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId: inserted.id }, query: {} })
        assert.deepStrictEqual([renamed.title, renamed.linkTitle], ["Getting started with the CLI", "Command line"])

        // Another edit of the page keeps the label.
        yield* write(api, space.id, [{ operation: "update_page", page: inserted.id, title: "The CLI" }])
        const retitled = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId: inserted.id }, query: {} })
        assert.deepStrictEqual([retitled.title, retitled.linkTitle], ["The CLI", "Command line"])

        yield* write(api, space.id, [{ operation: "update_page", page: inserted.id, linkTitle: "" }])
        const removed = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId: inserted.id }, query: {} })
        assert.strictEqual(removed.linkTitle, undefined)
      }))

    it.effect("a linkTitle over 100 characters is refused with a 400 naming it", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Long" } })
        const long = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          token: alice.token,
          body: JSON.stringify({ changes: [{ operation: "insert_page", title: "P", linkTitle: "x".repeat(101), document: { markdown: "Body" } }] })
        })
        assert.strictEqual(long.status, 400)
        assert.include(JSON.stringify(long.body), "linkTitle")
      }))
  })
}
