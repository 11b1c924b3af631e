/**
 * OpenAPI specifications as the domain sees them: the spec record, its versions and the literal
 * sets and field rules the API reuses (GitBook's `OpenAPISpec*` schemas).
 */
import { Schema } from "effect"

/** GitBook's `OpenAPISpecSlug`: 1 to 100 characters, dash-separated words. */
export const slugPattern = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/
export const SpecSlug = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100), Schema.isPattern(slugPattern))

/** GitBook's `OpenAPISpecVisibility`. */
export const SpecVisibility = Schema.Literals(["private", "public"])
export type SpecVisibility = typeof SpecVisibility.Type

/** GitBook's `OpenAPISpecProcessingState`: a failed run is `complete` with `lastProcessErrorCode`. */
export const ProcessingState = Schema.Literals(["pending", "progress", "complete"])
export type ProcessingState = typeof ProcessingState.Type

/** GitBook's `OpenAPISpecProcessingErrorCode`. */
export const ProcessErrorCode = Schema.Literals(["FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR"])
export type ProcessErrorCode = typeof ProcessErrorCode.Type

/** The longest source URL. */
export const maxUrlLength = 2048

/**
 * Where a spec comes from: a URL re-polled on a schedule, or text given once. A URL given with
 * credentials is stored as `url` without them (what is shown) and `sealedUrl` (what is fetched).
 */
export const SpecSource = Schema.Union([
  Schema.Struct({ url: Schema.String, sealedUrl: Schema.optionalKey(Schema.String) }),
  Schema.Struct({ text: Schema.String })
])
export type SpecSource = typeof SpecSource.Type

/** One error of the last run (GitBook's `OpenAPIErrorObject`); `code` tells an HTTP error, unparsable text and an invalid document apart. */
export const ProcessError = Schema.Struct({ message: Schema.String, code: Schema.optionalKey(Schema.String) })
export type ProcessError = typeof ProcessError.Type

export const Spec = Schema.Struct({
  id: Schema.String,
  organizationId: Schema.String,
  slug: Schema.String,
  visibility: SpecVisibility,
  source: SpecSource,
  processingState: ProcessingState,
  lastProcessErrorCode: Schema.NullOr(ProcessErrorCode),
  lastProcessedErrors: Schema.Array(ProcessError),
  lastProcessedAt: Schema.NullOr(Schema.Date),
  lastVersionId: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export interface Spec extends Schema.Schema.Type<typeof Spec> {}

/** One file of a version: the entry document or a file it references, parsed. */
export const SpecFile = Schema.Struct({
  filename: Schema.String,
  isEntrypoint: Schema.Boolean,
  /** The references (`$ref` targets outside the file) it makes. */
  references: Schema.Array(Schema.String),
  specification: Schema.Unknown
})
export type SpecFile = typeof SpecFile.Type

export const SpecVersion = Schema.Struct({
  id: Schema.String,
  specId: Schema.String,
  createdAt: Schema.Date,
  /** The entry document and every file it references. */
  filesystem: Schema.Array(SpecFile),
  /** SHA-256 of the filesystem: a new version is stored only when it changes. */
  hash: Schema.String,
  /** Where the entry document came from (the source URL; absent for text). */
  url: Schema.NullOr(Schema.String)
})
export interface SpecVersion extends Schema.Schema.Type<typeof SpecVersion> {}
