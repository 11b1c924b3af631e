/**
 * Port: the bytes of files, content-addressed by their SHA-256. Storing the same bytes twice
 * stores them once; stored bytes never change, so any copy of a hash is the right one.
 */
import { Context, Effect, Exit, Layer, Option, Stream } from "effect"
import { MemoryStore } from "@quire/kernel"
import { createHash, randomBytes } from "node:crypto"
import { createReadStream } from "node:fs"
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { join } from "node:path"

/** The key of bytes in the store: the lowercase hex SHA-256 of the bytes. */
export const blobHash = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

/** Whether `hash` is a key of the store (a lowercase hex SHA-256): anything else names no blob. */
export const isHash = (hash: string): boolean => /^[0-9a-f]{64}$/.test(hash)

/** A blob's bytes read as they are sent rather than held whole: its length, and a stream that reads them each time it runs. */
export interface BlobStream {
  readonly size: number
  readonly bytes: Stream.Stream<Uint8Array>
}

/** How a client fetching a blob straight from the store is to be answered. */
export interface BlobResponse {
  readonly contentType: string
  readonly contentDisposition: string
}

/** A URL of the store that serves a blob's bytes, and when it stops working (seconds since the epoch). */
export interface BlobLink {
  readonly url: string
  readonly expires: number
}

/** Bytes stored from a stream: their hash, their length, and their first `headBytes` (to read an image's size from). */
export interface StreamedBlob {
  readonly hash: string
  readonly size: number
  readonly head: Uint8Array
}

/** How many of a streamed blob's first bytes `putStream` keeps in `head`. */
export const headBytes = 256 * 1024

export interface BlobStoreShape {
  /** Stores `bytes` (once, however often they are put) and answers their hash. */
  readonly put: (bytes: Uint8Array) => Effect.Effect<string>
  /**
   * Stores the bytes of a stream as they arrive, never holding them whole (the memory store
   * aside); the stream's failure stores nothing and is the answer's.
   */
  readonly putStream: <E>(bytes: Stream.Stream<Uint8Array, E>) => Effect.Effect<StreamedBlob, E>
  /** The bytes of `hash`; none when they were never stored (or `hash` is not a SHA-256). */
  readonly get: (hash: string) => Effect.Effect<Option.Option<Uint8Array>>
  /** The bytes of `hash` as a stream with their length; none when they were never stored (or `hash` is not a SHA-256). */
  readonly stream: (hash: string) => Effect.Effect<Option.Option<BlobStream>>
  /**
   * A short-lived URL where a client fetches the bytes of `hash` from the store itself, answered
   * as `response` says; none from a store that serves no URLs (memory, disk) or for a key that is
   * not a hash. The URL is not checked against the store: a caller links only blobs it stored.
   */
  readonly link: (hash: string, response: BlobResponse) => Effect.Effect<Option.Option<BlobLink>>
}

/** A blob written to a temporary file by `spool`, before it is moved to its place. */
export interface SpooledBlob extends StreamedBlob {
  readonly path: string
}

/**
 * Writes a stream to a new temporary file in `dir` while hashing it; the file is removed when the
 * stream fails or is interrupted, and otherwise left for the caller to move or remove.
 */
export const spool = <E>(dir: string, bytes: Stream.Stream<Uint8Array, E>): Effect.Effect<SpooledBlob, E> =>
  Effect.gen(function*() {
    yield* Effect.promise(() => mkdir(dir, { recursive: true }))
    const path = join(dir, `.upload.${randomBytes(8).toString("hex")}.tmp`)
    const file = yield* Effect.promise(() => open(path, "wx"))
    const hash = createHash("sha256")
    const head: Array<Uint8Array> = []
    let size = 0
    yield* Stream.runForEach(bytes, (chunk) =>
      Effect.promise(async () => {
        if (size < headBytes) head.push(chunk.subarray(0, headBytes - size))
        size += chunk.byteLength
        hash.update(chunk)
        let offset = 0
        while (offset < chunk.byteLength) offset += (await file.write(chunk, offset)).bytesWritten
      })).pipe(
        Effect.onExit((exit) =>
          Effect.promise(async () => {
            await file.close()
            if (!Exit.isSuccess(exit)) await rm(path, { force: true })
          })
        )
      )
    return { path, hash: hash.digest("hex"), size, head: concat(head) }
  })

const concat = (chunks: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.byteLength, 0))
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.byteLength
  }
  return out
}

/** `link` of the stores that serve no URLs. */
const noLink: BlobStoreShape["link"] = () => Effect.succeedNone

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
      putStream: (bytes) =>
        Effect.map(Stream.runCollect(bytes), (chunks) => {
          const all = concat(Array.from(chunks))
          const hash = blobHash(all)
          if (!blobs.has(hash)) blobs.set(hash, all)
          return { hash, size: all.byteLength, head: all.subarray(0, headBytes) }
        }),
      get: (hash) =>
        Effect.sync(() => {
          const found = blobs.get(hash)
          return found === undefined ? Option.none() : Option.some(Uint8Array.from(found))
        }),
      stream: (hash) =>
        Effect.sync(() => {
          const found = blobs.get(hash)
          return found === undefined ? Option.none() : Option.some({ size: found.byteLength, bytes: Stream.sync(() => Uint8Array.from(found)) })
        }),
      link: noLink
    })
  })

  /**
   * Bytes as files under `dir` (`<dir>/ab/abcdef...`), created on first use. A blob is written to a
   * temporary file and renamed into place, so a reader never sees a partial blob, even after a crash.
   * I/O failures are defects: the port's callers cannot do anything about a broken disk.
   */
  static readonly layerFileSystem = (dir: string): Layer.Layer<BlobStore> => {
    const pathOf = (hash: string) => join(dir, hash.slice(0, 2), hash)
    return Layer.succeed(BlobStore, BlobStore.of({
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
      putStream: (bytes) =>
        Effect.flatMap(spool(dir, bytes), (spooled) =>
          Effect.promise(async () => {
            const folder = join(dir, spooled.hash.slice(0, 2))
            const target = join(folder, spooled.hash)
            try {
              if (!(await stat(target).then((s) => s.isFile(), () => false))) {
                await mkdir(folder, { recursive: true })
                await rename(spooled.path, target)
              }
            } finally {
              await rm(spooled.path, { force: true })
            }
            return { hash: spooled.hash, size: spooled.size, head: spooled.head }
          })).pipe(Effect.withSpan("BlobStore.putStream")),
      get: (hash) =>
        isHash(hash)
          ? Effect.promise(() =>
            readFile(pathOf(hash)).then(
              (buffer) => Option.some(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)),
              orNoneIfMissing<Uint8Array>
            )
          )
          : Effect.succeedNone,
      stream: (hash) =>
        isHash(hash)
          ? Effect.promise(() =>
            stat(pathOf(hash)).then(
              (found) =>
                Option.some<BlobStream>({
                  size: found.size,
                  bytes: Stream.suspend(() => Stream.fromAsyncIterable(createReadStream(pathOf(hash)), (error) => error)).pipe(Stream.orDie)
                }),
              orNoneIfMissing<BlobStream>
            )
          )
          : Effect.succeedNone,
      link: noLink
    }))
  }
}

/** A read's failure: none when the file is missing, else the error (a defect). */
const orNoneIfMissing = <A>(error: NodeJS.ErrnoException): Option.Option<A> => {
  if (error.code === "ENOENT") return Option.none()
  throw error
}
