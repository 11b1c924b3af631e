/**
 * Who may do what with content: the caller's effective role on a space or collection, and the
 * `permissions` objects of responses from the same functions that guard operations.
 */
import { Effect } from "effect"
import { Errors, Roles } from "@quire/kernel"
import type { DefaultLevel } from "./domain/Space.ts"

type Role = Roles.MemberRole | null

/**
 * The effective role of a member with `organizationRole` (null: a guest) on content whose levels
 * are `chain` (most specific first), given the roles `grants` gives them explicitly (to them or one
 * of their teams, on the content or a collection holding it). Organization admins administer
 * everything; for the others the highest of the inherited level and their grants wins. A guest
 * inherits nothing: only grants open content to them. Callers pass no grants for non-members.
 */
export const effectiveRole = (
  organizationRole: Role,
  chain: ReadonlyArray<DefaultLevel>,
  grants: ReadonlyArray<Roles.MemberRole> = []
): Role => {
  if (organizationRole === "admin") return "admin"
  let role = organizationRole === null ? null : inheritedRole(organizationRole, chain)
  for (const granted of grants) role = Roles.maxRole(role, granted)
  return role
}

/** The level a member inherits: the nearest explicit level of `chain`, else their organization role. */
const inheritedRole = (organizationRole: Roles.MemberRole, chain: ReadonlyArray<DefaultLevel>): Role => {
  for (const level of chain) {
    if (level !== "inherit") return level
  }
  return organizationRole
}

export interface SpacePermissions {
  readonly view: boolean
  readonly access: boolean
  readonly admin: boolean
  readonly viewInviteLinks: boolean
  readonly edit: boolean
  readonly triggerGitSync: boolean
  readonly comment: boolean
  readonly merge: boolean
  readonly review: boolean
  readonly installIntegration: boolean
}

export const spacePermissions = (role: Role): SpacePermissions => ({
  view: Roles.atLeast(role, "read"),
  access: Roles.atLeast(role, "read"),
  admin: Roles.atLeast(role, "admin"),
  viewInviteLinks: Roles.atLeast(role, "admin"),
  edit: Roles.atLeast(role, "edit"),
  triggerGitSync: Roles.atLeast(role, "edit"),
  comment: Roles.atLeast(role, "comment"),
  merge: Roles.atLeast(role, "review"),
  review: Roles.atLeast(role, "review"),
  installIntegration: Roles.atLeast(role, "admin")
})

export interface CollectionPermissions {
  readonly view: boolean
  readonly admin: boolean
  readonly viewInviteLinks: boolean
  readonly create: boolean
}

export const collectionPermissions = (role: Role): CollectionPermissions => ({
  view: Roles.atLeast(role, "read"),
  admin: Roles.atLeast(role, "admin"),
  viewInviteLinks: Roles.atLeast(role, "admin"),
  create: Roles.atLeast(role, "create")
})

/** Fails with Forbidden unless `allowed`. */
export const ensure = (allowed: boolean, action: string): Effect.Effect<void, Errors.Forbidden> =>
  allowed ? Effect.void : Effect.fail(new Errors.Forbidden({ reason: `Your role does not allow you to ${action}` }))
