/**
 * The raw-bytes upload of a change request's files (FileUploadRoute): streamed to the store, the
 * size limit enforced as it is read, the organization's quota, roles and organizations.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, baseUrl, download, newUser, spaceWith, withSettings } from "./Harness.ts"

/** The limit of these servers: 2 MB, so that the refusals need little traffic. */
const limit = 2 * 1024 * 1024

/** The organizations' storage quota on these servers: three files at the limit, so that passing it needs little traffic. */
const quota = 3 * limit

/** A body of `size` bytes, each its index's low byte. */
const bytesOf = (size: number) => Uint8Array.from({ length: size }, (_, i) => i & 0xff)

/** `bytes` as a body of unannounced length (chunked), in chunks of 64 KiB. */
const chunked = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.byteLength; at += 65536) controller.enqueue(bytes.subarray(at, at + 65536))
      controller.close()
    }
  })

const upload = Effect.fnUntraced(function*(
  token: string,
  spaceId: string,
  changeRequest: string,
  body: Uint8Array | ReadableStream<Uint8Array>,
  options: { readonly name?: string; readonly type?: string } = {}
) {
  const base = yield* baseUrl
  const query = options.name === undefined ? "" : `?name=${encodeURIComponent(options.name)}`
  const response = yield* Effect.promise(() =>
    fetch(`${base}/v1/spaces/${spaceId}/change-requests/${changeRequest}/files${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, ...(options.type === undefined ? {} : { "content-type": options.type }) },
      body,
      duplex: "half"
    } as RequestInit)
  )
  const text = yield* Effect.promise(() => response.text())
  return { status: response.status, body: JSON.parse(text) as Record<string, any> }
})

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_MAX_UPLOAD_BYTES: limit, QUIRE_ORG_STORAGE_BYTES: quota }), { timeout: 120_000, excludeTestServices: true })(`file uploads on ${backend.name}`, (it) => {
    it.effect("a file's bytes go into the change request, downloadable, and the limit is told", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Files" } })
        const bytes = bytesOf(limit)
        const answer = yield* upload(alice.token, space.id, String(cr.number), chunked(bytes), { name: "manual.pdf", type: "application/pdf" })
        assert.strictEqual(answer.status, 201)
        assert.deepStrictEqual([answer.body.file.name, answer.body.file.contentType, answer.body.file.size], ["manual.pdf", "application/pdf", limit])
        assert.notStrictEqual(answer.body.changeRequest.revision, cr.revision)
        const files = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params: { spaceId: space.id, changeRequestId: cr.id }, query: {} })
        assert.deepStrictEqual(files.items.map((f) => [f.id, f.name]), [[answer.body.file.id, "manual.pdf"]])
        const fetched = yield* download(files.items[0]!.downloadURL)
        assert.strictEqual(fetched.status, 200)
        assert.isTrue(Buffer.from(fetched.bytes).equals(Buffer.from(bytes)))
        // Without a type, the name's.
        const typed = yield* upload(alice.token, space.id, cr.id, new TextEncoder().encode("notes"), { name: "notes.txt" })
        assert.deepStrictEqual([typed.status, typed.body.file.contentType], [201, "text/plain"])
        const base = yield* baseUrl
        const told = yield* Effect.promise(() =>
          fetch(`${base}/v1/spaces/${space.id}/change-requests/${cr.id}/files/limit`, { headers: { authorization: `Bearer ${alice.token}` } }).then((r) => r.json())
        )
        assert.deepStrictEqual(told, { maxBytes: limit })
      }))

    it.effect("a body over the limit is refused with a 413 naming it in MB, declared or found while streaming, and stores nothing", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Big" } })
        const declared = yield* upload(alice.token, space.id, cr.id, bytesOf(limit + 1), { name: "big.bin" })
        assert.deepStrictEqual([declared.status, declared.body.error.message], [413, "“big.bin” is larger than 2 MB, the largest file this server takes"])
        const streamed = yield* upload(alice.token, space.id, cr.id, chunked(bytesOf(limit + 100_000)), { name: "big.bin" })
        assert.deepStrictEqual([streamed.status, streamed.body.error.field], [413, "body"])
        const files = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params: { spaceId: space.id, changeRequestId: cr.id }, query: {} })
        assert.deepStrictEqual(files.items, [])
      }))

    it.effect("the organization's storage quota applies: a file that would pass it is a 403 saying so", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Quota" } })
        // Three files of 2 MB fit in the 6 MB of these servers; a fourth does not.
        for (let i = 0; i < 3; i++) {
          const stored = yield* upload(alice.token, space.id, cr.id, bytesOf(limit).map((b) => b ^ i), { name: `part-${i}.bin` })
          assert.strictEqual(stored.status, 201, JSON.stringify(stored.body))
        }
        assert.isTrue(3 * limit <= quota && 4 * limit > quota)
        const refused = yield* upload(alice.token, space.id, cr.id, bytesOf(limit).map((b) => b ^ 9), { name: "part-4.bin" })
        assert.strictEqual(refused.status, 403)
        assert.match(refused.body.error.message, /storage quota/)
      }))

    it.effect("a reader cannot upload, another organization's change request is a 404, bad input is a 400 naming the field", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["read"])
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Roles" } })
        const reader = yield* upload(members.read!.token, space.id, cr.id, bytesOf(10), { name: "a.txt" })
        assert.strictEqual(reader.status, 403)
        const stranger = yield* newUser("Mallory")
        const other = yield* upload(stranger.token, space.id, cr.id, bytesOf(10), { name: "a.txt" })
        assert.strictEqual(other.status, 404)
        const files = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params: { spaceId: space.id, changeRequestId: cr.id }, query: {} })
        assert.deepStrictEqual(files.items, [])
        const noName = yield* upload(alice.token, space.id, cr.id, bytesOf(10))
        assert.deepStrictEqual([noName.status, noName.body.error.field], [400, "name"])
        const badType = yield* upload(alice.token, space.id, cr.id, bytesOf(10), { name: "a.txt", type: "not a type" })
        assert.deepStrictEqual([badType.status, badType.body.error.field], [400, "content-type"])
        const empty = yield* upload(alice.token, space.id, cr.id, new Uint8Array(0), { name: "a.txt" })
        assert.deepStrictEqual([empty.status, empty.body.error.field], [400, "body"])
        const base = yield* baseUrl
        const anonymous = yield* Effect.promise(() =>
          fetch(`${base}/v1/spaces/${space.id}/change-requests/${cr.id}/files?name=a.txt`, { method: "POST", body: bytesOf(10) }).then((r) => r.status)
        )
        assert.strictEqual(anonymous, 401)
      }))
  })
}
