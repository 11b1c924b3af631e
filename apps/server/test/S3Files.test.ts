/**
 * Files on an S3-compatible store (s3rver on 127.0.0.1): uploaded bytes land in the bucket, and
 * a file's downloadURL answers them streamed through the server or, with
 * `QUIRE_FILES_DELIVERY=redirect`, by a 302 to a signed URL of the store; a link of a deleted
 * space or an altered link is a 404 either way.
 */
import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { blobHash } from "@quire/content"
import * as S3Testing from "@quire/content/S3Testing"
import { backends, baseUrl, download, publicUrl, spaceWith, withSettings } from "./Harness.ts"

const postgres = backends.find((backend) => backend.name === "postgres")!

/** The endpoint of the suite's s3rver. */
class Endpoint extends Context.Service<Endpoint, string>()("test/S3Endpoint") {}

/** The server on PostgreSQL, its files in a bucket of a fresh s3rver, delivered as `delivery` says. */
const onS3 = (delivery: "stream" | "redirect") =>
  Layer.unwrap(Effect.map(S3Testing.start, (endpoint) =>
    Layer.merge(
      withSettings(postgres.layer, {
        QUIRE_S3_BUCKET: S3Testing.bucket,
        QUIRE_S3_ENDPOINT: endpoint,
        QUIRE_S3_ACCESS_KEY_ID: S3Testing.credentials.accessKeyId,
        QUIRE_S3_SECRET_ACCESS_KEY: S3Testing.credentials.secretAccessKey,
        QUIRE_FILES_DELIVERY: delivery
      }),
      Layer.succeed(Endpoint, endpoint)
    )))

/** 256 KiB of varied bytes: more than one chunk of a stream. */
const large = Uint8Array.from({ length: 256 * 1024 }, (_, i) => (i * 31 + (i >> 8)) % 256)
const notes = new TextEncoder().encode("Notes from the bucket.")

/** A space with a change request that uploaded `notes.txt` and `large.bin`: their download URLs. */
const uploaded = Effect.gen(function*() {
  const setup = yield* spaceWith()
  const cr = yield* setup.alice.api.changeRequests.createChangeRequest({ params: { spaceId: setup.space.id }, payload: { subject: "Files" } })
  const updated = yield* setup.alice.api.changeRequestContent.updateChangeRequestContent({
    params: { spaceId: setup.space.id, changeRequestId: cr.id },
    payload: {
      changes: [{
        operation: "insert_files",
        files: [
          { name: "notes.txt", contentType: "text/plain", base64: Buffer.from(notes).toString("base64") },
          { name: "large.bin", contentType: "application/octet-stream", base64: Buffer.from(large).toString("base64") }
        ]
      }]
    }
  })
  const url = (name: string) => updated.files?.find((file) => file.name === name)?.downloadURL ?? assert.fail(`no ${name}`)
  return { ...setup, notesUrl: url("notes.txt"), largeUrl: url("large.bin") }
})

/** A GET of a Quire file URL that does not follow redirects. */
const fetchManual = Effect.fnUntraced(function*(url: string) {
  const base = yield* baseUrl
  return yield* Effect.promise(() => fetch(`${base}${url.slice(publicUrl.length)}`, { redirect: "manual" }))
})

/** The same link with its signature altered. */
const altered = (url: string) => url.replace(/\.([A-Za-z0-9_-])([A-Za-z0-9_-]*)$/, (_, c: string, rest: string) => `.${c === "A" ? "B" : "A"}${rest}`)

const maxAgeOf = (response: Response) => Number(/max-age=(\d+)/.exec(response.headers.get("cache-control") ?? "")?.[1] ?? NaN)

layer(onS3("stream"), { timeout: 120_000, excludeTestServices: true })("files on S3, streamed", (it) => {
  it.effect("stores uploads in the bucket and streams them back through the server with their headers", () =>
    Effect.gen(function*() {
      const { alice, space, notesUrl, largeUrl } = yield* uploaded
      const stored = yield* S3Testing.keys(yield* Endpoint)
      for (const bytes of [notes, large]) {
        const hash = blobHash(bytes)
        assert.include(stored, `blobs/${hash.slice(0, 2)}/${hash}`)
      }

      const served = yield* download(notesUrl)
      assert.strictEqual(served.status, 200)
      assert.strictEqual(new TextDecoder().decode(served.bytes), "Notes from the bucket.")
      assert.strictEqual(served.headers.get("content-type"), "text/plain")
      assert.strictEqual(served.headers.get("content-disposition"), "inline; filename*=UTF-8''notes.txt")
      assert.strictEqual(served.headers.get("x-content-type-options"), "nosniff")
      const big = yield* download(largeUrl)
      assert.strictEqual(big.headers.get("content-length"), String(large.byteLength))
      assert.strictEqual(big.headers.get("content-disposition"), "attachment; filename*=UTF-8''large.bin")
      assert.strictEqual(blobHash(big.bytes), blobHash(large))

      assert.strictEqual((yield* download(altered(notesUrl))).status, 404)
      yield* alice.api.spaces.deleteSpaceById({ params: { spaceId: space.id } })
      assert.strictEqual((yield* download(notesUrl)).status, 404)
    }))
})

layer(onS3("redirect"), { timeout: 120_000, excludeTestServices: true })("files on S3, redirected", (it) => {
  it.effect("answers a file link with a 302 to a short-lived signed URL of the store, which serves the bytes as the server would", () =>
    Effect.gen(function*() {
      const { alice, space, notesUrl, largeUrl } = yield* uploaded
      const endpoint = yield* Endpoint
      const redirect = yield* fetchManual(notesUrl)
      assert.strictEqual(redirect.status, 302)
      const location = redirect.headers.get("location") ?? ""
      assert.isTrue(location.startsWith(`${endpoint}/${S3Testing.bucket}/blobs/`), location)
      assert.match(location, /X-Amz-Expires=600&/)
      // Cached no longer than the signed URL works.
      const maxAge = maxAgeOf(redirect)
      assert.isTrue(maxAge > 0 && maxAge <= 600 - 60, String(maxAge))

      const fromStore = yield* Effect.promise(() => fetch(location))
      assert.strictEqual(fromStore.status, 200)
      assert.strictEqual(fromStore.headers.get("content-type"), "text/plain")
      assert.strictEqual(fromStore.headers.get("content-disposition"), "inline; filename*=UTF-8''notes.txt")
      assert.strictEqual(yield* Effect.promise(() => fromStore.text()), "Notes from the bucket.")
      // Followed as a browser follows it.
      const big = yield* download(largeUrl)
      assert.strictEqual(big.status, 200)
      assert.strictEqual(big.headers.get("content-disposition"), "attachment; filename*=UTF-8''large.bin")
      assert.strictEqual(blobHash(big.bytes), blobHash(large))

      // The link's checks are the server's, before any redirect.
      assert.strictEqual((yield* fetchManual(altered(notesUrl))).status, 404)
      yield* alice.api.spaces.deleteSpaceById({ params: { spaceId: space.id } })
      assert.strictEqual((yield* fetchManual(notesUrl)).status, 404)
    }))
})
