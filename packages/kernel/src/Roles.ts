/**
 * Member roles and their order. The order follows the API document: admin administers,
 * create creates content, review reviews, edit edits, comment discusses, read only reads.
 */
import { Schema } from "effect"

export const MemberRole = Schema.Literals(["admin", "create", "review", "edit", "comment", "read"])
export type MemberRole = typeof MemberRole.Type

/** A role, or null for a guest (no organization-wide role). */
export const MemberRoleOrGuest = Schema.NullOr(MemberRole)
export type MemberRoleOrGuest = typeof MemberRoleOrGuest.Type

/** Team membership records also show `owner`. */
export const TeamRole = Schema.Literals(["owner", "admin", "create", "review", "edit", "comment", "read"])
export type TeamRole = typeof TeamRole.Type

const rank: Record<MemberRole, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 }

/** Numeric rank of a role; a guest (null) ranks 0. */
export const roleRank = (role: MemberRole | null | undefined): number => (role == null ? 0 : rank[role])

/** True when `role` grants at least what `required` grants. */
export const atLeast = (role: MemberRole | null | undefined, required: MemberRole): boolean =>
  roleRank(role) >= rank[required]

/** The stronger of two roles. */
export const maxRole = (a: MemberRole | null, b: MemberRole | null): MemberRole | null =>
  roleRank(a) >= roleRank(b) ? a : b
