/** The BlobStore contract, run against the memory and the file-system adapters. */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BlobStore, blobHash } from "../../src/BlobStore.ts"

const bytes = (text: string) => new TextEncoder().encode(text)

/** A fresh directory for one test, removed afterwards. */
const temporaryDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "quire-blobs-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const adapters: ReadonlyArray<{ readonly name: string; readonly layer: Layer.Layer<BlobStore> }> = [
  { name: "memory", layer: BlobStore.layerMemory },
  {
    name: "file system",
    layer: Layer.unwrap(Effect.map(temporaryDirectory, (dir) => BlobStore.layerFileSystem(join(dir, "blobs"))))
  }
]

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
  })
}

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
