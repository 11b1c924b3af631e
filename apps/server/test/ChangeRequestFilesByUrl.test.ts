/** `insert_files` by URL: fetched through the outbound guard, stored like inline files, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { LocalServer } from "@quire/testkit"
import { backends, download, errorCode, errorMessage, spaceWith } from "./Harness.ts"

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])
const notes = new TextEncoder().encode("Some notes.")

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`insert_files by URL on ${backend.name}`, (it) => {
    it.effect("fetches files by URL into the change request, typed by the response or the name, downloadable", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const site = yield* LocalServer.serveRoutes({
          "/diagram": { type: "image/png", body: png },
          "/notes.txt": { type: null, body: notes }
        })
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Files" } })
        const params = { spaceId: space.id, changeRequestId: cr.id }
        const updated = yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: {
            changes: [{
              operation: "insert_files",
              files: [
                { name: "diagram.png", url: `${site.origin}/diagram` },
                { name: "notes.txt", url: `${site.origin}/notes.txt` },
                { name: "inline.txt", contentType: "text/plain", base64: Buffer.from("inline").toString("base64") }
              ]
            }]
          }
        })
        assert.notStrictEqual(updated.revision, cr.revision)
        const files = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params, query: {} })
        const byName = new Map(files.items.map((f) => [f.name, f]))
        assert.deepStrictEqual(
          ["diagram.png", "notes.txt", "inline.txt"].map((name) => [byName.get(name)?.contentType, byName.get(name)?.size]),
          [["image/png", png.byteLength], ["text/plain", notes.byteLength], ["text/plain", 6]]
        )
        const fetched = yield* download(byName.get("diagram.png")!.downloadURL)
        assert.deepStrictEqual([fetched.status, Array.from(fetched.bytes)], [200, Array.from(png)])
        assert.strictEqual(new TextDecoder().decode((yield* download(byName.get("notes.txt")!.downloadURL)).bytes), "Some notes.")
      }))

    it.effect("a response's content type that is not a media type is not stored: the name's is, else application/octet-stream", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const site = yield* LocalServer.serveRoutes({
          "/a": { type: "text/html <script>", body: png },
          "/b": { type: "nonsense", body: notes },
          "/c": { type: `text/${"x".repeat(300)}`, body: notes }
        })
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Types" } })
        const params = { spaceId: space.id, changeRequestId: cr.id }
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: {
            changes: [{
              operation: "insert_files",
              files: [
                { name: "a.png", url: `${site.origin}/a` },
                { name: "b.bin", url: `${site.origin}/b` },
                { name: "c", url: `${site.origin}/c` }
              ]
            }]
          }
        })
        const files = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params, query: {} })
        const byName = new Map(files.items.map((f) => [f.name, f.contentType]))
        assert.deepStrictEqual(["a.png", "b.bin", "c"].map((name) => byName.get(name)), ["image/png", "application/octet-stream", "application/octet-stream"])
        const served = yield* download(files.items.find((f) => f.name === "b.bin")!.downloadURL)
        assert.strictEqual(served.status, 200)
      }))

    it.effect("a refused or failing URL rejects the whole batch with a 400 naming the change", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const site = yield* LocalServer.serveRoutes({ "/ok.txt": { type: "text/plain", body: notes } })
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Files" } })
        const params = { spaceId: space.id, changeRequestId: cr.id }
        const edit = (url: string) =>
          alice.api.changeRequestContent.updateChangeRequestContent({
            params,
            payload: {
              changes: [
                { operation: "insert_page", title: "Page", document: { markdown: "Text." } },
                { operation: "insert_files", files: [{ name: "ok.txt", url: `${site.origin}/ok.txt` }, { name: "secret.json", url }] }
              ]
            }
          }).pipe(Effect.flip)
        const blocked = yield* edit("http://169.254.169.254/latest/meta-data")
        assert.strictEqual(errorCode(blocked), 400)
        assert.include(errorMessage(blocked), "changes[1]: insert_files")
        assert.include(errorMessage(blocked), "blocked")
        const missing = yield* edit(`${site.origin}/missing`)
        assert.strictEqual(errorCode(missing), 400)
        assert.include(errorMessage(missing), "changes[1]")
        // Nothing of either batch was applied.
        const after = yield* alice.api.changeRequests.getChangeRequestById({ params })
        assert.strictEqual(after.revision, cr.revision)
      }))
  })
}
