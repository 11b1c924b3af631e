/**
 * The BlobStore on S3-compatible object storage (AWS S3, MinIO, Ceph, R2...), which several servers
 * and workers share. Each blob is the object `<prefix>blobs/<ab>/<hash>`: the file-system store's
 * layout, so that copying a data directory's `blobs/` into the bucket moves a store over. The SDK
 * is loaded when the layer is built, so that servers on disk never load it.
 */
import type { S3Client } from "@aws-sdk/client-s3"
import { Clock, Data, Effect, Layer, Option, Redacted, Stream } from "effect"
import { createReadStream } from "node:fs"
import { rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { type BlobLink, type BlobResponse, BlobStore, type BlobStream, blobHash, isHash, spool } from "./BlobStore.ts"

/** Where the bucket is and how to reach it. */
export interface S3Settings {
  readonly bucket: string
  /** The store's URL (`http://minio:9000`); none: AWS S3 of `region`. */
  readonly endpoint: Option.Option<string>
  /** The store's URL as clients reach it (`https://files.example.com`), for links; none: `endpoint`. */
  readonly publicEndpoint: Option.Option<string>
  readonly region: string
  /** None: the SDK's default chain (`AWS_ACCESS_KEY_ID`..., a profile, the instance's role). */
  readonly credentials: Option.Option<{ readonly accessKeyId: string; readonly secretAccessKey: Redacted.Redacted<string> }>
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>` (MinIO and most self-hosted stores). */
  readonly forcePathStyle: boolean
  /** Prepended to every key (`quire/`), to share a bucket. */
  readonly prefix: string
  /** Links are signed for windows of this many seconds and stay valid for one to two of them. */
  readonly linkSeconds: number
}

/** The store cannot open the bucket at start: it is missing, the keys are refused, or the endpoint does not answer. */
export class BucketUnreachable extends Data.TaggedError("BucketUnreachable")<{
  readonly bucket: string
  readonly endpoint: string
  readonly error: unknown
}> {
  override get message() {
    const status = (this.error as { readonly $metadata?: { readonly httpStatusCode?: number } }).$metadata?.httpStatusCode
    const reason = status === 404 ? "no such bucket" : status === 403 ? "access denied to its keys" : this.error instanceof Error ? (this.error.message || this.error.name) : String(this.error)
    return `Cannot open the S3 bucket ${this.bucket} at ${this.endpoint}: ${reason}`
  }
}

/** Whether an SDK error says the object is not there (`NoSuchKey` from GET, a bare 404 from HEAD). */
const isMissing = (error: unknown): boolean =>
  typeof error === "object" && error !== null &&
  ((error as { readonly $metadata?: { readonly httpStatusCode?: number } }).$metadata?.httpStatusCode === 404 ||
    (error as { readonly name?: unknown }).name === "NoSuchKey")

const orNoneIfMissing = <A>(error: unknown): Option.Option<A> => {
  if (isMissing(error)) return Option.none()
  throw error
}

/**
 * The store on `settings`' bucket, which must exist: the layer checks it can open it (a defect,
 * BucketUnreachable, when it cannot). Failures of the store are defects, as the disk
 * store's are. Checksums are sent and checked only where S3 requires them: many S3-compatible stores
 * refuse the SDK's newer default ones; `get` checks what it reads against the hash instead.
 */
export const layerS3 = (settings: S3Settings): Layer.Layer<BlobStore> =>
  Layer.effect(BlobStore, Effect.gen(function*() {
    const [sdk, presigner] = yield* Effect.promise(() => Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/s3-request-presigner")]))
    const clientOn = (endpoint: Option.Option<string>) =>
      Effect.acquireRelease(
        Effect.sync((): S3Client =>
          new sdk.S3Client({
            region: settings.region,
            forcePathStyle: settings.forcePathStyle,
            requestChecksumCalculation: "WHEN_REQUIRED",
            responseChecksumValidation: "WHEN_REQUIRED",
            ...Option.match(endpoint, { onNone: () => ({}), onSome: (url) => ({ endpoint: url }) }),
            ...Option.match(settings.credentials, {
              onNone: () => ({}),
              onSome: ({ accessKeyId, secretAccessKey }) => ({ credentials: { accessKeyId, secretAccessKey: Redacted.value(secretAccessKey) } })
            })
          })
        ),
        (client) => Effect.sync(() => client.destroy())
      )
    const client = yield* clientOn(settings.endpoint)
    // Links are signed for the host clients reach; signing sends nothing.
    const signer = Option.isSome(settings.publicEndpoint) ? yield* clientOn(settings.publicEndpoint) : client
    const { bucket } = settings
    // A bucket that is missing, or keys that do not open it, stop the start rather than the first upload.
    yield* Effect.tryPromise({
      try: () => client.send(new sdk.HeadBucketCommand({ Bucket: bucket })),
      catch: (error) => new BucketUnreachable({ bucket, endpoint: Option.getOrElse(settings.endpoint, () => "AWS S3"), error })
    }).pipe(Effect.orDie)
    const keyOf = (hash: string) => `${settings.prefix}blobs/${hash.slice(0, 2)}/${hash}`
    /** The object's length; none when it is not there. */
    const sizeOf = (hash: string) =>
      Effect.promise(() =>
        client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: keyOf(hash) })).then(
          (head) => Option.some(head.ContentLength ?? 0),
          orNoneIfMissing<number>
        )
      )
    /** The object's body as it arrives. */
    const body = (hash: string): Stream.Stream<Uint8Array> =>
      Stream.unwrap(Effect.promise(async () => {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: keyOf(hash) }))
        return Stream.fromAsyncIterable(object.Body as AsyncIterable<Uint8Array>, (error) => error)
      })).pipe(Stream.orDie)

    const put = Effect.fn("BlobStore.put")(function*(bytes: Uint8Array) {
      const hash = blobHash(bytes)
      if (Option.isSome(yield* sizeOf(hash))) return hash
      // Bytes put concurrently by others are the same bytes: whichever write lands last is right.
      yield* Effect.promise(() =>
        client.send(new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: keyOf(hash),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: "application/octet-stream"
        }))
      )
      return hash
    })

    // Spooled to a temporary file first: the object's key is the hash of bytes not all read yet.
    const putStream = <E>(bytes: Stream.Stream<Uint8Array, E>) =>
      Effect.flatMap(spool(tmpdir(), bytes), (spooled) =>
        Effect.gen(function*() {
          if (Option.isNone(yield* sizeOf(spooled.hash))) {
            yield* Effect.promise(() =>
              client.send(new sdk.PutObjectCommand({
                Bucket: bucket,
                Key: keyOf(spooled.hash),
                Body: createReadStream(spooled.path),
                ContentLength: spooled.size,
                ContentType: "application/octet-stream"
              }))
            )
          }
          return { hash: spooled.hash, size: spooled.size, head: spooled.head }
        }).pipe(Effect.ensuring(Effect.promise(() => rm(spooled.path, { force: true }))))).pipe(Effect.withSpan("BlobStore.putStream"))

    const get = Effect.fn("BlobStore.get")(function*(hash: string) {
      if (!isHash(hash)) return Option.none<Uint8Array>()
      const bytes = yield* Effect.promise(() =>
        client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: keyOf(hash) })).then(
          async (object) => Option.some(object.Body === undefined ? new Uint8Array(0) : await object.Body.transformToByteArray()),
          orNoneIfMissing<Uint8Array>
        )
      )
      if (Option.isSome(bytes) && blobHash(bytes.value) !== hash) {
        return yield* Effect.die(new Error(`The object store answered other bytes for blob ${hash}`))
      }
      return bytes
    })

    const stream = Effect.fn("BlobStore.stream")(function*(hash: string) {
      if (!isHash(hash)) return Option.none<BlobStream>()
      return Option.map(yield* sizeOf(hash), (size): BlobStream => ({ size, bytes: body(hash) }))
    })

    // One URL per window, so that a browser's cache keeps the bytes while the window lasts.
    const link = Effect.fn("BlobStore.link")(function*(hash: string, response: BlobResponse) {
      if (!isHash(hash)) return Option.none<BlobLink>()
      const window = settings.linkSeconds
      const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      const signedAt = Math.floor(now / window) * window
      const url = yield* Effect.promise(() =>
        presigner.getSignedUrl(
          signer,
          new sdk.GetObjectCommand({
            Bucket: bucket,
            Key: keyOf(hash),
            ResponseContentType: response.contentType,
            ResponseContentDisposition: response.contentDisposition,
            ResponseCacheControl: `private, max-age=${window}`
          }),
          { expiresIn: 2 * window, signingDate: new Date(signedAt * 1000) }
        )
      )
      return Option.some<BlobLink>({ url, expires: signedAt + 2 * window })
    })

    return BlobStore.of({ put, putStream, get, stream, link })
  }))
