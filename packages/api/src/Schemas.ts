/** Schemas shared by the API groups: ids, timestamps, roles, the list envelope, users. */
import { Schema } from "effect"

/** GitBook's EntityId: URL-safe identifiers. */
export const EntityId = Schema.String.check(Schema.isPattern(/^[a-zA-Z0-9_-]+$/), Schema.isMaxLength(100))

/** ISO 8601 date-time. */
export const Timestamp = Schema.String

export const MemberRole = Schema.Literals(["admin", "create", "review", "edit", "comment", "read"])
export const MemberRoleOrGuest = Schema.NullOr(MemberRole)

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
