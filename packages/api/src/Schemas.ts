/** Schemas shared by the API groups: ids, timestamps, roles, the list envelope, users. */
import { Schema } from "effect"
import { mediaTypeChecks, mediaTypePattern } from "@quire/content/domain/MediaType"
import { Pagination, Roles } from "@quire/kernel"

/** GitBook's EntityId: URL-safe identifiers. */
export const EntityId = Schema.String.check(Schema.isPattern(/^[a-zA-Z0-9_-]+$/), Schema.isMaxLength(100))

// oxlint-disable-next-line no-control-regex -- matching NUL is the point
const nulPattern = Schema.isPattern(/^[^\u0000]*$/, { message: "must not contain the NUL character (\\u0000)" })
/** `nulPattern` (its message, its JSON Schema) checked by a search for NUL: the pattern took milliseconds on a 1.5 MB page. */
const noNulCheck = Schema.makeFilter((s: string) => !s.includes("\u0000"), nulPattern.annotations)
/**
 * Every string the contract accepts (path and query parameters, bodies): any text but the NUL
 * character, which PostgreSQL cannot store. Checks of a field are added to it (`Text.check(...)`).
 */
export const Text = Schema.String.check(noNulCheck)

export { mediaTypePattern }

/** A MIME type (content's one definition), as the contract accepts it. */
export const MediaType = Text.check(...mediaTypeChecks)

/** ISO 8601 date-time. */
export const Timestamp = Schema.String

/** An instant with its offset, as `2026-01-31T12:00:00Z` or `2026-01-31T13:00:00.000+01:00`. */
export const DateTime = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/),
  Schema.makeFilter((s: string) => {
    // Date.parse rolls 2030-02-31 over to March: the day must exist in its month.
    const [year, month, day] = s.slice(0, 10).split("-").map(Number) as [number, number, number]
    const date = new Date(Date.UTC(year, month - 1, day))
    return (date.getUTCMonth() === month - 1 && date.getUTCDate() === day && !Number.isNaN(Date.parse(s))) ||
      "Expected a valid date-time"
  })
)

/** The kernel's roles, as members and guests (null) have them. */
export const MemberRole = Roles.MemberRole
export const MemberRoleOrGuest = Roles.MemberRoleOrGuest

/** The direction of a listing. */
export const Order = Pagination.Order

/** `format` of reads that carry page or comment bodies: GitBook's JSON document, or markdown. */
export const Format = Schema.Literals(["document", "markdown"])

/**
 * `format` of single-page reads: GitBook's JSON document, markdown, or (Quire's extension) `html`,
 * the page body drawn as its published page draws it.
 */
export const PageFormat = Schema.Literals(["document", "markdown", "html"]).annotate({
  description: "The form of the page's body: `document` (GitBook's JSON document, the default), `markdown`, or `html` (Quire's extension: the body as the published site renders it, in an `html` field, its page links leading to the app and its files to signed download URLs; style it with `/app/render.css`)."
})

/** An absolute http(s) URL of at most 2048 characters: every URL a caller gives (logos, photos, SSO endpoints, imports). */
export const Url = Text.check(
  Schema.isMaxLength(2048),
  Schema.isPattern(/^https?:\/\/\S+$/),
  Schema.makeFilter((s: string) => {
    if (s.includes("\u0000") || !URL.canParse(s)) return "Expected an absolute http(s) URL"
    return new URL(s).hostname !== "" || "Expected an absolute http(s) URL with a host"
  })
)

/** A hostname as GitBook's seed gives it for sites: lowercase dot-separated labels, at least three. */
export const Hostname = Schema.String.check(
  Schema.isMaxLength(255),
  Schema.isPattern(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/)
)

/** GitBook's Subdomain: 3 to 32 lowercase letters, digits and inner hyphens. */
export const Subdomain = Schema.String.check(Schema.isPattern(/^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/))

/** `limit` of list operations: at most 1000. */
export const Limit = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 }))

/** The query parameters of every list operation. */
export const PageQuery = {
  page: Schema.optional(Text),
  limit: Schema.optional(Limit)
} as const

/** The list envelope: `next.page` when more results exist, `count`, `items`. */
export const ListOf = <S extends Schema.Top>(item: S) =>
  Schema.Struct({
    next: Schema.optionalKey(Schema.Struct({ page: Schema.String })),
    count: Schema.Finite,
    items: Schema.Array(item)
  })

export const User = Schema.Struct({
  object: Schema.Literal("user"),
  id: Schema.String,
  displayName: Schema.String,
  email: Schema.optionalKey(Schema.String),
  photoURL: Schema.optionalKey(Schema.String),
  urls: Schema.Struct({ location: Schema.String })
}).annotate({ identifier: "User" })
export type User = typeof User.Type

/**
 * GitBook's `JSONDocument` as a payload takes it: the outline here; what its nodes hold is checked
 * by whoever reads them (translations' instructions, a change request's description), and a 400
 * names the field.
 */
export const JSONDocument = Schema.Struct({
  object: Schema.Literal("document"),
  data: Schema.Record(Schema.String, Schema.Unknown),
  nodes: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)),
  meta: Schema.optionalKey(Schema.Struct({ token: Schema.optionalKey(Schema.String) }))
})

/** GitBook's JSON document of a page (`format=document`): blocks of its editor's model. */
export const JsonDocument = Schema.Struct({
  object: Schema.Literal("document"),
  data: Schema.Struct({ schemaVersion: Schema.optionalKey(Schema.Finite) }),
  nodes: Schema.Array(Schema.Unknown)
})
