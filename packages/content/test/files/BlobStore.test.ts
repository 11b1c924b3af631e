/**
 * The BlobStore contract, run against the memory, the file-system and the S3 adapters (the last on
 * s3rver, an S3-compatible server on 127.0.0.1).
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Option, Redacted, Stream } from "effect"
import { TestClock } from "effect/testing"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { S3Client, PutObjectCommand } from "@aws-sdk/client-s3"
import { BlobStore, blobHash } from "../../src/BlobStore.ts"
import { layerS3, type S3Settings } from "../../src/BlobStoreS3.ts"
import * as S3Server from "../S3Server.ts"

const bytes = (text: string) => new TextEncoder().encode(text)

/** A fresh directory for one test, removed afterwards. */
const temporaryDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "quire-blobs-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

/** The S3 store on a fresh s3rver of its own, keys under `prefix`. */
const layerS3rver = (prefix = "") => Layer.unwrap(Effect.map(S3Server.start, (endpoint) => layerS3(S3Server.settings(endpoint, prefix))))

const adapters: ReadonlyArray<{ readonly name: string; readonly layer: Layer.Layer<BlobStore> }> = [
  { name: "memory", layer: BlobStore.layerMemory },
  {
    name: "file system",
    layer: Layer.unwrap(Effect.map(temporaryDirectory, (dir) => BlobStore.layerFileSystem(join(dir, "blobs"))))
  },
  { name: "S3", layer: layerS3rver("quire/") }
]

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

/** How building the S3 store on `settings` ends: "started", or the defect's text. */
const startWith = (settings: S3Settings) =>
  Effect.map(Effect.exit(Effect.scoped(Layer.build(layerS3(settings)))), (exit) => Exit.isFailure(exit) ? Cause.pretty(exit.cause) : "started")

const response = { contentType: "text/plain", contentDisposition: "inline; filename*=UTF-8''notes.txt" }

for (const adapter of adapters) {
  describe(`BlobStore (${adapter.name})`, () => {
    it.effect("answers the SHA-256 of the bytes and gives the same bytes back", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const content = bytes("abc")
        const hash = yield* store.put(content)
        assert.strictEqual(hash, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        const found = yield* store.get(hash)
        assert.deepStrictEqual(Option.map(found, (b) => Array.from(b)), Option.some(Array.from(content)))
      }).pipe(Effect.provide(adapter.layer)))

    it.effect("stores the same bytes once, however often and however concurrently they are put", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const content = bytes("x".repeat(100_000))
        const hashes = yield* Effect.all(Array.from({ length: 8 }, () => store.put(content)), { concurrency: "unbounded" })
        assert.strictEqual(new Set(hashes).size, 1)
        const found = yield* store.get(hashes[0]!)
        assert.strictEqual(Option.getOrThrow(found).byteLength, 100_000)
      }).pipe(Effect.provide(adapter.layer)))

    it.effect("keeps empty and binary blobs exactly", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const binary = Uint8Array.from({ length: 256 }, (_, i) => i)
        const empty = new Uint8Array(0)
        const [a, b] = [yield* store.put(binary), yield* store.put(empty)]
        assert.notStrictEqual(a, b)
        assert.deepStrictEqual(Array.from(Option.getOrThrow(yield* store.get(a))), Array.from(binary))
        assert.strictEqual(Option.getOrThrow(yield* store.get(b)).byteLength, 0)
      }).pipe(Effect.provide(adapter.layer)))

    it.effect("stores a stream's bytes as put would, and nothing of a stream that fails", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const content = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) & 0xff)
        const chunks = [content.subarray(0, 100_000), content.subarray(100_000, 250_000), content.subarray(250_000)]
        const streamed = yield* store.putStream(Stream.fromIterable(chunks))
        assert.deepStrictEqual([streamed.hash, streamed.size, streamed.head.byteLength], [blobHash(content), content.byteLength, 256 * 1024])
        assert.deepStrictEqual(Array.from(streamed.head.subarray(0, 8)), Array.from(content.subarray(0, 8)))
        assert.isTrue(Buffer.from(Option.getOrThrow(yield* store.get(streamed.hash))).equals(Buffer.from(content)))
        assert.strictEqual((yield* store.putStream(Stream.fromIterable(chunks))).hash, streamed.hash)
        const partial = bytes("only the start")
        const failed = yield* Effect.exit(store.putStream(Stream.concat(Stream.make(partial), Stream.fail("cut off"))))
        assert.isTrue(Exit.isFailure(failed))
        assert.isTrue(Option.isNone(yield* store.get(blobHash(partial))))
      }).pipe(Effect.provide(adapter.layer)))

    it.effect("answers none for bytes never stored and for keys that are not hashes", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        assert.isTrue(Option.isNone(yield* store.get(blobHash(bytes("never stored")))))
        assert.isTrue(Option.isNone(yield* store.get("../../etc/passwd")))
        assert.isTrue(Option.isNone(yield* store.get("")))
      }).pipe(Effect.provide(adapter.layer)))

    it.effect("does not let a caller change stored bytes through the arrays it passed or got", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const content = bytes("immutable")
        const hash = yield* store.put(content)
        content[0] = 0
        Option.getOrThrow(yield* store.get(hash))[1] = 0
        assert.strictEqual(new TextDecoder().decode(Option.getOrThrow(yield* store.get(hash))), "immutable")
      }).pipe(Effect.provide(adapter.layer)))

    it.effect("streams stored bytes with their length, as often as the stream is run", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        // 3 MiB: many chunks, and an upload the S3 client sends with `Expect: 100-continue`.
        const content = Uint8Array.from({ length: 3 * 1024 * 1024 }, (_, i) => i % 251)
        const hash = yield* store.put(content)
        const streamed = Option.getOrThrow(yield* store.stream(hash))
        assert.strictEqual(streamed.size, 3 * 1024 * 1024)
        for (const read of [yield* Stream.mkUint8Array(streamed.bytes), yield* Stream.mkUint8Array(streamed.bytes)]) {
          assert.strictEqual(blobHash(read), hash)
        }
        const empty = Option.getOrThrow(yield* store.stream(yield* store.put(new Uint8Array(0))))
        assert.strictEqual(empty.size, 0)
        assert.strictEqual((yield* Stream.mkUint8Array(empty.bytes)).byteLength, 0)
        assert.isTrue(Option.isNone(yield* store.stream(blobHash(bytes("never stored")))))
        assert.isTrue(Option.isNone(yield* store.stream("../../etc/passwd")))
      }).pipe(Effect.provide(adapter.layer)))

    it.effect("links no key that is not a hash", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        assert.isTrue(Option.isNone(yield* store.link("../x", response)))
      }).pipe(Effect.provide(adapter.layer)))
  })
}

describe("BlobStore (memory and file system)", () => {
  for (const adapter of adapters.filter((a) => a.name !== "S3")) {
    it.effect(`serves no URLs of its own (${adapter.name}): downloads go through the server`, () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        assert.isTrue(Option.isNone(yield* store.link(yield* store.put(bytes("local")), response)))
      }).pipe(Effect.provide(adapter.layer)))
  }
})

describe("BlobStore (S3)", () => {
  it.effect("links a blob by a signed URL that answers its bytes with the content type and disposition asked for", () =>
    Effect.gen(function*() {
      const store = yield* BlobStore
      const hash = yield* store.put(bytes("hello from the bucket"))
      // Links are signed for windows of 300 seconds: the test's clock in the window of the real one, which the store checks.
      const window = Math.floor(Date.now() / 300_000) * 300
      yield* TestClock.setTime((window + 100) * 1000)
      const link = Option.getOrThrow(yield* store.link(hash, response))
      assert.strictEqual(link.expires, window + 600)
      const served = yield* Effect.promise(() => fetch(link.url))
      assert.strictEqual(served.status, 200)
      assert.strictEqual(served.headers.get("content-type"), "text/plain")
      assert.strictEqual(served.headers.get("content-disposition"), response.contentDisposition)
      assert.strictEqual(yield* Effect.promise(() => served.text()), "hello from the bucket")
      // The same URL while its window lasts, so that a browser's cache keeps the bytes; another in the next.
      yield* TestClock.adjust("199 seconds")
      assert.strictEqual(Option.getOrThrow(yield* store.link(hash, response)).url, link.url)
      yield* TestClock.adjust("1 second")
      const next = Option.getOrThrow(yield* store.link(hash, response))
      assert.notStrictEqual(next.url, link.url)
      assert.strictEqual(next.expires, window + 900)
    }).pipe(Effect.provide(layerS3rver())))

  it.effect("refuses to start on a bucket that does not exist, or with keys the store refuses, saying which", () =>
    Effect.gen(function*() {
      const endpoint = yield* S3Server.start
      assert.include(yield* startWith({ ...S3Server.settings(endpoint), bucket: "missing" }), `Cannot open the S3 bucket missing at ${endpoint}: no such bucket`)
      // s3rver knows one access key and does not check signatures: an unknown key is what it refuses.
      const wrongKeys = { accessKeyId: "UNKNOWN", secretAccessKey: Redacted.make("S3RVER") }
      assert.include(yield* startWith({ ...S3Server.settings(endpoint), credentials: Option.some(wrongKeys) }), "access denied")
    }).pipe(Effect.scoped))

  it.effect("signs links for the public endpoint when browsers reach the store elsewhere", () =>
    Effect.gen(function*() {
      const endpoint = yield* S3Server.start
      const settings = { ...S3Server.settings(endpoint), publicEndpoint: Option.some("https://files.example.test") }
      const link = yield* Effect.gen(function*() {
        const store = yield* BlobStore
        return yield* store.link(yield* store.put(bytes("public")), response)
      }).pipe(Effect.provide(layerS3(settings)))
      assert.match(Option.getOrThrow(link).url, /^https:\/\/files\.example\.test\/quire-test\/blobs\/[0-9a-f]{2}\/[0-9a-f]{64}\?/)
    }).pipe(Effect.scoped))

  it.effect("reads a data directory's blobs/ copied into the bucket, and what another server on the bucket stored", () =>
    Effect.gen(function*() {
      const endpoint = yield* S3Server.start
      const dir = join(yield* temporaryDirectory, "blobs")
      const hash = yield* Effect.flatMap(Effect.service(BlobStore), (store) => store.put(bytes("from disk"))).pipe(
        Effect.provide(BlobStore.layerFileSystem(dir))
      )
      // What `aws s3 sync <data dir>/blobs s3://<bucket>/<prefix>blobs` does.
      const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: S3Server.credentials })
      for (const file of readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())) {
        const path = join(file.parentPath, file.name)
        yield* Effect.promise(() =>
          client.send(new PutObjectCommand({ Bucket: S3Server.bucket, Key: `shared/blobs/${relative(dir, path)}`, Body: readFileSync(path) }))
        )
      }
      client.destroy()
      const layer = layerS3(S3Server.settings(endpoint, "shared/"))
      const copied = yield* Effect.flatMap(Effect.service(BlobStore), (store) => store.get(hash)).pipe(Effect.provide(layer))
      assert.strictEqual(text(Option.getOrThrow(copied)), "from disk")
      const other = yield* Effect.flatMap(Effect.service(BlobStore), (store) => store.put(bytes("from a server"))).pipe(Effect.provide(layer))
      const again = yield* Effect.flatMap(Effect.service(BlobStore), (store) => store.get(other)).pipe(Effect.provide(layer))
      assert.strictEqual(text(Option.getOrThrow(again)), "from a server")
    }).pipe(Effect.scoped))
})

describe("BlobStore (file system)", () => {
  it.effect("writes each blob under its hash, leaving no temporary file behind", () =>
    Effect.gen(function*() {
      const dir = join(yield* temporaryDirectory, "nested", "blobs")
      const hashes = yield* Effect.gen(function*() {
        const store = yield* BlobStore
        return yield* Effect.all([store.put(bytes("one")), store.put(bytes("two")), store.put(bytes("one"))], { concurrency: 3 })
      }).pipe(Effect.provide(BlobStore.layerFileSystem(dir)))
      const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name)
      assert.sameMembers(files, [hashes[0]!, hashes[1]!])
      // Another store on the same directory (a restarted server) reads them.
      const again = yield* Effect.flatMap(Effect.service(BlobStore), (store) => store.get(hashes[1]!)).pipe(
        Effect.provide(BlobStore.layerFileSystem(dir))
      )
      assert.strictEqual(new TextDecoder().decode(Option.getOrThrow(again)), "two")
    }).pipe(Effect.scoped))
})
