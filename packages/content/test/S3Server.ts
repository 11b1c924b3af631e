/**
 * An S3-compatible server for tests: s3rver on 127.0.0.1 (an ephemeral port) over a temporary
 * directory, with one bucket, and the BlobStore settings that reach it. Other packages' tests
 * import it as `@quire/content/S3Testing`.
 */
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3"
import { Effect, Option, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { S3Settings } from "../src/BlobStoreS3.ts"

/** The part of s3rver (which has no types) the tests use. */
type S3rver = new(options: {
  readonly address: string
  readonly port: number
  readonly directory: string
  readonly silent: boolean
  readonly configureBuckets: ReadonlyArray<{ readonly name: string }>
}) => { run(): Promise<AddressInfo>; close(): Promise<void> }

const S3rver = createRequire(import.meta.url)("s3rver") as S3rver

/** s3rver's own key pair: it checks every request's signature against it. */
export const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const

export const bucket = "quire-test"

/** A running server, stopped and its directory removed when the scope closes: its endpoint. */
export const start = Effect.gen(function*() {
  const directory = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "quire-s3-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )
  const server = new S3rver({ address: "127.0.0.1", port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] })
  const address = yield* Effect.acquireRelease(
    Effect.promise(() => server.run()),
    () => Effect.promise(() => server.close())
  )
  return `http://127.0.0.1:${address.port}`
})

/** BlobStore settings for the bucket at `endpoint`: path-style, s3rver's keys, 5-minute link windows. */
export const settings = (endpoint: string, prefix = ""): S3Settings => ({
  bucket,
  endpoint: Option.some(endpoint),
  publicEndpoint: Option.none(),
  region: "us-east-1",
  credentials: Option.some({ accessKeyId: credentials.accessKeyId, secretAccessKey: Redacted.make(credentials.secretAccessKey) }),
  forcePathStyle: true,
  prefix,
  linkSeconds: 300
})

/** The keys of the objects in the bucket at `endpoint`, to see where bytes went. */
export const keys = (endpoint: string) =>
  Effect.acquireUseRelease(
    Effect.sync(() => new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials })),
    (client) =>
      Effect.promise(async () => {
        const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }))
        return (listed.Contents ?? []).flatMap((object) => object.Key === undefined ? [] : [object.Key])
      }),
    (client) => Effect.sync(() => client.destroy())
  )
