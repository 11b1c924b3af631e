/**
 * GitBook's `storage` operation: a signed URL a client sends a file's bytes to with `PUT`, outside
 * the API and without a token (the URL is the authority, for an hour), for a key it names later.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, MediaType, Text } from "./Schemas.ts"

/** GitBook's `StorageUploadKind`. */
export const StorageUploadKind = Schema.Literals(["customization_font", "import_file", "organization_file"])

/** GitBook's `StorageUploadURL`. */
export const StorageUploadURL = Schema.Struct({
  object: Schema.Literal("storage-signed-url"),
  url: Schema.String,
  key: Schema.String
}).annotate({ identifier: "StorageUploadURL" })

export class StorageApi extends HttpApiGroup.make("storage")
  .add(
    /** A URL of one hour where a client `PUT`s one file's bytes, and the key the file is then known by. */
    HttpApiEndpoint.post("generateStorageUploadURL", "/orgs/:organizationId/storage/upload", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({
        file: Schema.Struct({
          name: Text.check(Schema.isMinLength(1), Schema.isMaxLength(255), Schema.isPattern(/^[^/\\]+$/)),
          type: MediaType,
          size: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))
        }),
        kind: StorageUploadKind
      }),
      success: StorageUploadURL.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a signed URL to upload a file",
        description: "Answers a URL of this server, signed for one hour, to which the client sends the file's bytes with `PUT` (no token: the URL is the authority; `Content-Length` must be the declared `size`, the body at most `QUIRE_MAX_UPLOAD_BYTES`), and the `key` the stored file is known by: an `import_file` is named by its key in an import run's `source.files`. The bytes count against the organization's storage quota, and an upload no import run uses is dropped after `QUIRE_IMPORT_UPLOAD_RETENTION_HOURS`. Quire stores files by the hash of their bytes, which it computes as they arrive, so the URL is its own even when files are kept in S3 (the server streams them there). `import_file` needs edit rights in the organization; `customization_font` and `organization_file` need an admin. 400 naming the field for a size over the limit.",
        transform: requestExample({ file: { name: "export.zip", type: "application/zip", size: 52431 }, kind: "import_file" })
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
