/** A change request's content as a PDF, through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, download as harnessDownload, errorCode, newUser, spaceWith } from "./Harness.ts"

/** A file of the test server, with its bytes as latin1 text (a PDF's syntax is ASCII). */
const download = (url: string) =>
  Effect.map(harnessDownload(url), (served) => ({ ...served, text: Buffer.from(served.bytes).toString("latin1") }))

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`change request PDF on ${backend.name}`, (it) => {
    it.effect("renders the change request's content to a PDF served at a signed URL, whole or from one page", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        yield* alice.api.spaceContent.applyTemplateToSpace({ params: { spaceId }, payload: { id: "product-docs" } })
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Release notes" } })
        const params = { spaceId, changeRequestId: String(cr.number) }
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: {
            changes: [{
              operation: "insert_page",
              document: { markdown: "# Release notes\n\n- **New**: PDFs\n  1. nested\n\n```sh\nquire pdf\n```\n\nSee [the site](https://example.com)." }
            }]
          }
        })

        const whole = yield* alice.api.changeRequests.getChangeRequestPDF({ params, query: {} })
        const served = yield* download(whole.url)
        assert.strictEqual(served.status, 200)
        assert.strictEqual(served.headers.get("content-type"), "application/pdf")
        assert.include(served.headers.get("content-disposition") ?? "", `${cr.number}.pdf`)
        assert.strictEqual(served.text.slice(0, 5), "%PDF-")
        // The template's banner is drawn; the link is an annotation.
        assert.include(served.text, "/Subtype /Image")
        assert.include(served.text, "/URI (https://example.com)")

        // Same content, same bytes: rendering again serves the identical file.
        const again = yield* download((yield* alice.api.changeRequests.getChangeRequestPDF({ params: { spaceId, changeRequestId: cr.id }, query: {} })).url)
        assert.deepStrictEqual(again.bytes, served.bytes)

        const { pages } = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
        const guides = pages.find((p) => p.title === "Guides")
        assert.isDefined(guides)
        const section = yield* download((yield* alice.api.changeRequests.getChangeRequestPDF({ params, query: { page: guides!.id } })).url)
        assert.strictEqual(section.text.slice(0, 5), "%PDF-")
        assert.isBelow(section.bytes.byteLength, served.bytes.byteLength)
        assert.notInclude(section.text, "/Subtype /Image")
        const only = yield* download((yield* alice.api.changeRequests.getChangeRequestPDF({ params, query: { page: guides!.id, only: true } })).url)
        assert.isBelow(only.bytes.byteLength, section.bytes.byteLength)

        const unknown = yield* Effect.flip(alice.api.changeRequests.getChangeRequestPDF({ params, query: { page: "nope" } }))
        assert.strictEqual(errorCode(unknown), 404)
      }))

    it.effect("is visible to readers and hidden from outsiders", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["read"])
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Draft" } })
        const params = { spaceId: space.id, changeRequestId: cr.id }
        const read = yield* members.read!.api.changeRequests.getChangeRequestPDF({ params, query: {} })
        assert.strictEqual((yield* download(read.url)).text.slice(0, 5), "%PDF-")
        const outsider = yield* newUser("Mallory")
        const refused = yield* Effect.flip(outsider.api.changeRequests.getChangeRequestPDF({ params, query: {} }))
        assert.strictEqual(errorCode(refused), 404)
      }))
  })
}
