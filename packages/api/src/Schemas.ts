/** Schemas shared by the API groups: ids, timestamps, roles, the list envelope, users. */
import { Schema } from "effect"
import { Pagination, Roles } from "@quire/kernel"

/** GitBook's EntityId: URL-safe identifiers. */
export const EntityId = Schema.String.check(Schema.isPattern(/^[a-zA-Z0-9_-]+$/), Schema.isMaxLength(100))

/** ISO 8601 date-time. */
export const Timestamp = Schema.String

/** The kernel's roles, as members and guests (null) have them. */
export const MemberRole = Roles.MemberRole
export const MemberRoleOrGuest = Roles.MemberRoleOrGuest

/** The direction of a listing. */
export const Order = Pagination.Order

/** `format` of reads that carry page or comment bodies: GitBook's JSON document, or markdown. */
export const Format = Schema.Literals(["document", "markdown"])

export const Url = Schema.String.check(Schema.isMaxLength(2048), Schema.isPattern(/^https?:\/\/\S+$/))

/** `limit` of list operations: at most 1000. */
export const Limit = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 }))

/** The query parameters of every list operation. */
export const PageQuery = {
  page: Schema.optional(Schema.String),
  limit: Schema.optional(Limit)
} as const

/** The list envelope: `next.page` when more results exist, `count`, `items`. */
export const ListOf = <S extends Schema.Top>(item: S) =>
  Schema.Struct({
    next: Schema.optionalKey(Schema.Struct({ page: Schema.String })),
    count: Schema.Number,
    items: Schema.Array(item)
  })

export const User = Schema.Struct({
  object: Schema.Literal("user"),
  id: Schema.String,
  displayName: Schema.String,
  email: Schema.optionalKey(Schema.String),
  photoURL: Schema.optionalKey(Schema.String),
  urls: Schema.Struct({ location: Schema.String })
})
export type User = typeof User.Type
