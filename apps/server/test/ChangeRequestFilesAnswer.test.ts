/** `updateChangeRequestContent`'s answer names the files its `insert_files` stored (ids and download URLs), on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, download, raw, spaceWith } from "./Harness.ts"

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 8, 9])

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`insert_files answer on ${backend.name}`, (it) => {
    it.effect("the answer is the change request plus `files`: the inserted files as the revision lists them, downloadable", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Files" } })
        const params = { spaceId: space.id, changeRequestId: cr.id }
        const updated = yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: {
            changes: [
              { operation: "insert_page", title: "Guide", document: { markdown: "![Diagram](diagram.png)" } },
              {
                operation: "insert_files",
                files: [
                  { name: "diagram.png", contentType: "image/png", base64: Buffer.from(png).toString("base64") },
                  { name: "notes.txt", contentType: "text/plain", base64: Buffer.from("Notes.").toString("base64") }
                ]
              }
            ]
          }
        })
        // GitBook's fields of the change request are kept.
        assert.deepStrictEqual([updated.object, updated.id, updated.number, updated.space], ["change-request", cr.id, cr.number, space.id])
        assert.notStrictEqual(updated.revision, cr.revision)
        const files = updated.files ?? []
        assert.deepStrictEqual(files.map((f) => [f.name, f.contentType, f.size]), [
          ["diagram.png", "image/png", png.byteLength],
          ["notes.txt", "text/plain", 6]
        ])
        // The ids are those of the change request's files.
        const listed = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params, query: {} })
        assert.sameMembers(listed.items.map((f) => f.id), files.map((f) => f.id))
        for (const file of files) {
          const one = yield* alice.api.changeRequestContent.getFileInChangeRequestById({ params: { ...params, fileId: file.id }, query: {} })
          assert.strictEqual(one.name, file.name)
        }
        const fetched = yield* download(files[0]!.downloadURL)
        assert.deepStrictEqual([fetched.status, Array.from(fetched.bytes)], [200, Array.from(png)])
      }))

    it.effect("a batch without files answers no `files` key (GitBook's change request as it was)", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: {} })
        const answer = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          token: alice.token,
          body: JSON.stringify({ changes: [{ operation: "insert_page", title: "Only a page", document: { markdown: "Text." } }] })
        })
        assert.strictEqual(answer.status, 200)
        const body = answer.body as Record<string, unknown>
        assert.strictEqual(body["object"], "change-request")
        assert.notProperty(body, "files")
      }))
  })
}
