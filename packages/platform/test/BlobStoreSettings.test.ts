/** Which blob store the server's settings choose: the S3 settings read from the environment. */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { ContentPlatform } from "../src/index.ts"

const settingsFrom = (env: Record<string, string>) =>
  ContentPlatform.s3Settings.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env))))

describe("blob store settings", () => {
  it.effect("choose disk without a bucket, an empty one included (compose passes `${QUIRE_S3_BUCKET:-}`)", () =>
    Effect.gen(function*() {
      assert.isTrue(Option.isNone(yield* settingsFrom({})))
      assert.isTrue(Option.isNone(yield* settingsFrom({ QUIRE_S3_BUCKET: "", QUIRE_S3_ENDPOINT: "http://minio:9000" })))
    }))

  it.effect("read a MinIO bucket's endpoint and keys, path-style by default with an endpoint", () =>
    Effect.gen(function*() {
      const settings = Option.getOrThrow(yield* settingsFrom({
        QUIRE_S3_BUCKET: "quire",
        QUIRE_S3_ENDPOINT: "http://minio:9000",
        QUIRE_S3_ACCESS_KEY_ID: "quire",
        QUIRE_S3_SECRET_ACCESS_KEY: "secret-key",
        QUIRE_S3_PUBLIC_ENDPOINT: "",
        QUIRE_S3_PREFIX: "docs/"
      }))
      assert.deepStrictEqual(
        [settings.bucket, settings.endpoint, settings.publicEndpoint, settings.region, settings.forcePathStyle, settings.prefix],
        ["quire", Option.some("http://minio:9000"), Option.none(), "us-east-1", true, "docs/"]
      )
      const credentials = Option.getOrThrow(settings.credentials)
      assert.deepStrictEqual([credentials.accessKeyId, Redacted.value(credentials.secretAccessKey)], ["quire", "secret-key"])
    }))

  it.effect("leave AWS to its own credentials and region, virtual-hosted unless asked", () =>
    Effect.gen(function*() {
      const settings = Option.getOrThrow(yield* settingsFrom({ QUIRE_S3_BUCKET: "docs", AWS_REGION: "eu-west-3" }))
      assert.deepStrictEqual([settings.endpoint, settings.credentials, settings.region, settings.forcePathStyle], [Option.none(), Option.none(), "eu-west-3", false])
      const forced = Option.getOrThrow(yield* settingsFrom({ QUIRE_S3_BUCKET: "docs", QUIRE_S3_REGION: "us-west-2", QUIRE_S3_FORCE_PATH_STYLE: "true" }))
      assert.deepStrictEqual([forced.region, forced.forcePathStyle], ["us-west-2", true])
    }))

  it.effect("refuse half a key pair and a bad boolean, naming the setting", () =>
    Effect.gen(function*() {
      const half = yield* Effect.flip(settingsFrom({ QUIRE_S3_BUCKET: "docs", QUIRE_S3_ACCESS_KEY_ID: "key" }))
      assert.match(half.message, /QUIRE_S3_ACCESS_KEY_ID and QUIRE_S3_SECRET_ACCESS_KEY/)
      const bad = yield* Effect.flip(settingsFrom({ QUIRE_S3_BUCKET: "docs", QUIRE_S3_FORCE_PATH_STYLE: "maybe" }))
      assert.include(String(bad), "QUIRE_S3_FORCE_PATH_STYLE")
    }))
})
