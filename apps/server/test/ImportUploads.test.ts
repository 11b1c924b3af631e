/**
 * Uploads for imports and the organization's storage quota, on every storage backend: an upload
 * counts against the quota as a space's files do (the same counter: a 403 past it, declared or
 * found while streaming), and is purged (its key forgotten, its bytes given back) when the run
 * that named it ends, or once kept past the retention without a run.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Imports } from "@quire/content"
import { baseUrl, type Client, errorCode, errorMessage, everyBackend, memory, spaceWith, withSettings } from "./Harness.ts"

/** The size of the uploads: the quota is three of them. */
const unit = 100_000
const quota = 3 * unit

/** A markdown file of `size` bytes, distinct by `seed` (a blob counts once however often it is uploaded). */
const markdownOf = (seed: number, size = unit) => {
  const head = new TextEncoder().encode(`# Notes ${seed}\n\n`)
  const bytes = new Uint8Array(size).fill(0x61)
  bytes.set(head)
  for (let at = head.byteLength + 79; at < size; at += 80) bytes[at] = 0x0a
  return bytes
}

/** `bytes` as a body of unannounced length (chunked). */
const chunked = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.byteLength; at += 16_384) controller.enqueue(bytes.subarray(at, at + 16_384))
      controller.close()
    }
  })

const upload = Effect.fnUntraced(function*(token: string, organizationId: string, name: string, body: Uint8Array | ReadableStream<Uint8Array>) {
  const base = yield* baseUrl
  const response = yield* Effect.promise(() =>
    fetch(`${base}/v1/org/${organizationId}/imports/files?name=${encodeURIComponent(name)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "text/markdown" },
      body: body instanceof Uint8Array ? Buffer.from(body) : body,
      duplex: "half"
    } as RequestInit)
  )
  return { status: response.status, body: (yield* Effect.promise(() => response.json())) as Record<string, any> }
})

const uploadKey = Effect.fnUntraced(function*(token: string, organizationId: string, name: string, bytes: Uint8Array) {
  const answer = yield* upload(token, organizationId, name, bytes)
  assert.strictEqual(answer.status, 201, JSON.stringify(answer.body))
  return answer.body["key"] as string
})

const settled = Effect.fnUntraced(function*(api: Client, organizationId: string, importRunId: string) {
  for (let i = 0; i < 600; i++) {
    const run = yield* api.imports.getImportRun({ params: { organizationId, importRunId } })
    if (run.status !== "pending" && run.status !== "in-progress") return run
    yield* Effect.sleep("100 millis")
  }
  return assert.fail(`import run ${importRunId} did not finish`)
})

/** Starting a run from `key` is refused because the upload is no longer kept. */
const forgotten = Effect.fnUntraced(function*(api: Client, organizationId: string, spaceId: string, key: string) {
  const refused = yield* Effect.flip(api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [key] }, target: { space: spaceId } } }))
  assert.strictEqual(errorCode(refused), 400)
  assert.include(errorMessage(refused), "No uploaded file has the key")
})

for (const backend of [memory, ...everyBackend]) {
  layer(withSettings(backend.layer, { QUIRE_ORG_STORAGE_BYTES: quota }), { timeout: 180_000, excludeTestServices: true })(`import uploads and the storage quota on ${backend.name}`, (it) => {
    it.effect("uploads count against the quota: past it a 403, declared or streamed, and space files share the count", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        yield* uploadKey(alice.token, organizationId, "part-0.md", markdownOf(0))
        // The same bytes again count nothing more: four uploads, three of them distinct, fill the quota.
        yield* uploadKey(alice.token, organizationId, "again.md", markdownOf(0))
        for (let i = 1; i < 3; i++) yield* uploadKey(alice.token, organizationId, `part-${i}.md`, markdownOf(i))
        const declared = yield* upload(alice.token, organizationId, "more.md", markdownOf(3))
        assert.strictEqual(declared.status, 403)
        assert.match(declared.body.error.message, /storage quota of 300000 bytes is used up \(300000 bytes stored; "more\.md" needs 100000\)/)
        const streamed = yield* upload(alice.token, organizationId, "more.md", chunked(markdownOf(4)))
        assert.strictEqual(streamed.status, 403)
        assert.match(streamed.body.error.message, /storage quota/)
        // A space's file meets the same quota the uploads used up.
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "A file" } })
        const file = yield* Effect.flip(alice.api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId: space.id, changeRequestId: cr.id },
          payload: { changes: [{ operation: "insert_files", files: [{ name: "tiny.txt", contentType: "text/plain", base64: "aGk=" }] }] }
        }))
        assert.strictEqual(errorCode(file), 403)
        assert.include(errorMessage(file), "storage quota")
        // Another organization has its own quota.
        const other = yield* spaceWith()
        yield* uploadKey(other.alice.token, other.organizationId, "part-0.md", markdownOf(5))
      }))

    it.effect("an upload is purged when the run that named it ends: its bytes leave the quota and its key is forgotten", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const keys = [
          yield* uploadKey(alice.token, organizationId, "guide.md", markdownOf(10)),
          yield* uploadKey(alice.token, organizationId, "b.md", markdownOf(11)),
          yield* uploadKey(alice.token, organizationId, "c.md", markdownOf(12))
        ]
        assert.strictEqual((yield* upload(alice.token, organizationId, "d.md", markdownOf(13))).status, 403)
        const started = yield* alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [keys[0]!] }, target: { space: space.id } } })
        const run = yield* settled(alice.api, organizationId, started.id)
        assert.strictEqual(run.status, "completed", run.reason ?? "")
        yield* forgotten(alice.api, organizationId, space.id, keys[0]!)
        // Its room is free again; the others are still kept.
        yield* uploadKey(alice.token, organizationId, "d.md", markdownOf(13))
        assert.strictEqual((yield* upload(alice.token, organizationId, "e.md", markdownOf(14))).status, 403)
        // A cancelled run gives its upload back too.
        const cancelled = yield* alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [keys[1]!] }, target: { space: space.id } } })
        const stopped = yield* Effect.result(alice.api.imports.cancelImportRun({ params: { organizationId, importRunId: cancelled.id } }))
        const ended = yield* settled(alice.api, organizationId, cancelled.id)
        assert.include(["cancelled", "completed"], ended.status, `${stopped._tag} ${ended.status}`)
        yield* forgotten(alice.api, organizationId, space.id, keys[1]!)
        yield* uploadKey(alice.token, organizationId, "e.md", markdownOf(14))
      }))
  })

  layer(withSettings(backend.layer, { QUIRE_ORG_STORAGE_BYTES: quota, QUIRE_IMPORT_UPLOAD_RETENTION_HOURS: 0 }), { timeout: 180_000, excludeTestServices: true })(`import uploads past their retention on ${backend.name}`, (it) => {
    it.effect("an upload no run used is purged after the retention, giving its bytes back", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const keys: Array<string> = []
        for (let i = 0; i < 3; i++) keys.push(yield* uploadKey(alice.token, organizationId, `part-${i}.md`, markdownOf(20 + i)))
        assert.strictEqual((yield* upload(alice.token, organizationId, "more.md", markdownOf(23))).status, 403)
        yield* Effect.sleep("5 millis")
        // The hourly job's work, now: with a retention of 0 hours every unused upload is past it.
        yield* Imports.use((imports) => imports.purgeUploads)
        for (const key of keys) yield* forgotten(alice.api, organizationId, space.id, key)
        yield* uploadKey(alice.token, organizationId, "more.md", markdownOf(23))
      }))
  })
}
