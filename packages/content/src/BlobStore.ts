/**
 * Port: the bytes of files, content-addressed by their SHA-256. Storing the same bytes twice
 * stores them once; stored bytes never change, so any copy of a hash is the right one.
 */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import { createHash, randomBytes } from "node:crypto"
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { join } from "node:path"

/** The key of bytes in the store: the lowercase hex SHA-256 of the bytes. */
export const blobHash = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

const isHash = (hash: string): boolean => /^[0-9a-f]{64}$/.test(hash)

export interface BlobStoreShape {
  /** Stores `bytes` (once, however often they are put) and answers their hash. */
  readonly put: (bytes: Uint8Array) => Effect.Effect<string>
  /** The bytes of `hash`; none when they were never stored (or `hash` is not a SHA-256). */
  readonly get: (hash: string) => Effect.Effect<Option.Option<Uint8Array>>
}

export class BlobStore extends Context.Service<BlobStore, BlobStoreShape>()("@quire/content/BlobStore") {
  /** Bytes in a map of this process. */
  static readonly layerMemory = Layer.sync(BlobStore, () => {
    const blobs = new MemoryStore.TxMap<string, Uint8Array>()
    return BlobStore.of({
      put: (bytes) =>
        Effect.sync(() => {
          const hash = blobHash(bytes)
          if (!blobs.has(hash)) blobs.set(hash, Uint8Array.from(bytes))
          return hash
        }),
      get: (hash) =>
        Effect.sync(() => {
          const found = blobs.get(hash)
          return found === undefined ? Option.none() : Option.some(Uint8Array.from(found))
        })
    })
  })

  /**
   * Bytes as files under `dir` (`<dir>/ab/abcdef...`), created on first use. A blob is written to a
   * temporary file and renamed into place, so a reader never sees a partial blob, even after a crash.
   * I/O failures are defects: the port's callers cannot do anything about a broken disk.
   */
  static readonly layerFileSystem = (dir: string): Layer.Layer<BlobStore> =>
    Layer.succeed(BlobStore, BlobStore.of({
      put: (bytes) =>
        Effect.promise(async () => {
          const hash = blobHash(bytes)
          const folder = join(dir, hash.slice(0, 2))
          const target = join(folder, hash)
          const exists = await stat(target).then((s) => s.isFile(), () => false)
          if (exists) return hash
          await mkdir(folder, { recursive: true })
          const temporary = join(folder, `.${hash}.${randomBytes(6).toString("hex")}.tmp`)
          try {
            await writeFile(temporary, bytes, { flag: "wx" })
            await rename(temporary, target)
          } catch (error) {
            await rm(temporary, { force: true })
            throw error
          }
          return hash
        }).pipe(Effect.withSpan("BlobStore.put")),
      get: (hash) =>
        isHash(hash)
          ? Effect.promise(() =>
            readFile(join(dir, hash.slice(0, 2), hash)).then(
              (buffer) => Option.some(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)),
              (error: NodeJS.ErrnoException) => {
                if (error.code === "ENOENT") return Option.none<Uint8Array>()
                throw error
              }
            )
          )
          : Effect.succeed(Option.none())
    }))
}
