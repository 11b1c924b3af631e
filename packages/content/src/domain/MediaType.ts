/** Media types (MIME types) that files may carry: what the API accepts and what a fetched file keeps. */
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
