/**
 * Signed upload URLs (GitBook's `generateStorageUploadURL`): a token of one hour naming the
 * organization, the person, the file's name, type and size and the key it will be stored under;
 * `PUT <public URL>/~storage/upload/<token>` with the bytes stores them as that person's upload.
 * The URL is the authority, as an S3 presigned URL is: no token or cookie goes with it.
 */
import { Schema } from "effect"
import { SignedToken } from "@quire/kernel"

/** How long an upload URL takes bytes: one hour, in seconds. */
export const uploadUrlSeconds = 3600

export const purpose = "quire/server/storage-upload/v1"

/** What an upload URL carries. */
export const UploadClaims = Schema.Struct({
  organization: Schema.String,
  user: Schema.String,
  kind: Schema.Literals(["customization_font", "import_file", "organization_file"]),
  name: Schema.String,
  type: Schema.String,
  size: Schema.Number,
  key: Schema.String
})
export type UploadClaims = typeof UploadClaims.Type

/** The path of an upload URL below the public URL. */
export const uploadPath = (token: string): string => `/~storage/upload/${token}`

export const key = SignedToken.keyFor(purpose)
