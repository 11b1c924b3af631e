/**
 * What the content use cases need from the machine: where file bytes live and which addresses
 * outbound fetches (website imports) may reach, from the server's settings.
 */
import { Config, Data, Effect, Layer, Option } from "effect"
import { resolve } from "node:path"
import { BlobStore, BlobStoreS3 } from "@quire/content"
import { OutboundFetch } from "@quire/outbound"

/** A setting that may be empty (compose passes `${X:-}`): empty is unset. */
const optional = (name: string) =>
  Config.option(Config.String(name)).pipe(Config.map(Option.filter((value) => value.trim() !== "")))

/**
 * The S3-compatible store's settings, when `QUIRE_S3_BUCKET` names a bucket: `QUIRE_S3_ENDPOINT`
 * (none: AWS) and `QUIRE_S3_PUBLIC_ENDPOINT` (the one links name, if browsers reach the store
 * elsewhere), `QUIRE_S3_REGION` (else `AWS_REGION`, else us-east-1), `QUIRE_S3_ACCESS_KEY_ID` and
 * `QUIRE_S3_SECRET_ACCESS_KEY` (both or neither; neither: the SDK's own chain, `AWS_ACCESS_KEY_ID`...
 * or the instance's role), `QUIRE_S3_FORCE_PATH_STYLE` (by default, when an endpoint is set) and
 * `QUIRE_S3_PREFIX`.
 */
export const s3Settings: Effect.Effect<Option.Option<BlobStoreS3.S3Settings>, Config.ConfigError | IncompleteS3Credentials> = Effect.gen(function*() {
  const s = yield* Config.all({
    bucket: optional("QUIRE_S3_BUCKET"),
    endpoint: optional("QUIRE_S3_ENDPOINT"),
    publicEndpoint: optional("QUIRE_S3_PUBLIC_ENDPOINT"),
    region: optional("QUIRE_S3_REGION"),
    awsRegion: optional("AWS_REGION"),
    accessKeyId: optional("QUIRE_S3_ACCESS_KEY_ID"),
    secretAccessKey: Config.option(Config.Redacted("QUIRE_S3_SECRET_ACCESS_KEY")),
    forcePathStyle: Config.option(Config.Boolean("QUIRE_S3_FORCE_PATH_STYLE")),
    prefix: Config.String("QUIRE_S3_PREFIX").pipe(Config.withDefault(""))
  })
  if (Option.isNone(s.bucket)) return Option.none()
  if (Option.isSome(s.accessKeyId) !== Option.isSome(s.secretAccessKey)) return yield* new IncompleteS3Credentials()
  return Option.some<BlobStoreS3.S3Settings>({
    bucket: s.bucket.value,
    endpoint: s.endpoint,
    publicEndpoint: s.publicEndpoint,
    region: Option.getOrElse(Option.orElse(s.region, () => s.awsRegion), () => "us-east-1"),
    credentials: Option.zipWith(s.accessKeyId, s.secretAccessKey, (accessKeyId, secretAccessKey) => ({ accessKeyId, secretAccessKey })),
    forcePathStyle: Option.getOrElse(s.forcePathStyle, () => Option.isSome(s.endpoint)),
    prefix: s.prefix,
    linkSeconds: 300
  })
})

/** A start refused: one of the bucket's key pair without the other. */
export class IncompleteS3Credentials extends Data.TaggedError("IncompleteS3Credentials") {
  override get message() {
    return "Set both QUIRE_S3_ACCESS_KEY_ID and QUIRE_S3_SECRET_ACCESS_KEY, or neither (the AWS SDK's own credentials)"
  }
}

/**
 * File bytes in the S3-compatible bucket `QUIRE_S3_BUCKET` names (s3Settings), which servers and
 * workers on other machines share; without one, in `${QUIRE_DATA_DIR}/blobs` (default
 * `.quire/data/blobs`), created on first write.
 */
export const layerBlobStore: Layer.Layer<BlobStore> = Layer.unwrap(Effect.gen(function*() {
  const s3 = yield* s3Settings
  if (Option.isSome(s3)) return BlobStoreS3.layerS3(s3.value)
  const configured = yield* Config.String("QUIRE_DATA_DIR").pipe(Config.withDefault(".quire/data"))
  // Relative to where the command was typed, as the embedded database's directory is.
  return BlobStore.layerFileSystem(resolve(process.env.INIT_CWD ?? process.cwd(), configured, "blobs"))
})).pipe(Layer.orDie)

/** Outbound fetches to public addresses, and to those `QUIRE_FETCH_ALLOW` lists. */
export const layerOutboundFetch: Layer.Layer<OutboundFetch> = OutboundFetch.layerConfig.pipe(Layer.orDie)

/** For servers on a database: bytes on disk. */
export const layer = Layer.mergeAll(layerBlobStore, layerOutboundFetch)

/** For servers in memory: bytes in memory too. */
export const layerMemory = Layer.mergeAll(BlobStore.layerMemory, layerOutboundFetch)
