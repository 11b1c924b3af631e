/** Media types (MIME types) that files may carry: what the API accepts, what a fetched file keeps, what a file name implies. */
import { Schema } from "effect"

/** A MIME type, `type/subtype` with optional `; name=value` parameters (RFC 9110 tokens, printable ASCII, no CR/LF). */
export const mediaTypePattern =
  /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+([ \t]*;[ \t]*[A-Za-z0-9!#$%&'*+.^_`|~-]+=([A-Za-z0-9!#$%&'*+.^_`|~-]+|"[ !#-[\]-~]*"))*$/

export const maxMediaTypeLength = 200

/** The checks of a media type, for the contract's strings too. */
export const mediaTypeChecks = [
  Schema.isMaxLength(maxMediaTypeLength),
  Schema.isPattern(mediaTypePattern, { message: "must be a media type such as text/plain or text/html; charset=utf-8" })
] as const

export const MediaType = Schema.String.check(...mediaTypeChecks)

export const isMediaType = Schema.is(MediaType)

const contentTypes: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  pdf: "application/pdf",
  json: "application/json",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  yaml: "application/yaml",
  yml: "application/yaml",
  zip: "application/zip",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg"
}

/** The content type of a file named `name`, by its extension. */
export const contentTypeOf = (name: string): string => {
  const dot = name.lastIndexOf(".")
  return dot < 0 ? "application/octet-stream" : contentTypes[name.slice(dot + 1).toLowerCase()] ?? "application/octet-stream"
}
