/**
 * The one place that decides what a caller may do. The `permissions` objects in responses are
 * computed by the same functions the use cases call to enforce them.
 */
import { Effect } from "effect"
import { Errors, Roles } from "@quire/kernel"
import type { MembershipRole } from "./domain/Identity.ts"

type Role = Roles.MemberRole | null

export interface OrganizationPermissions {
  readonly view: boolean
  readonly access: boolean
  readonly admin: boolean
  readonly ownTeam: boolean
  readonly createContent: boolean
  readonly createOpenAPISpec: boolean
  readonly ingestConversations: boolean
  readonly viewBilling: boolean
  readonly listMembers: boolean
  readonly listTeams: boolean
  readonly listIntegrations: boolean
  readonly listInstallations: boolean
  readonly installIntegration: boolean
}

/** What a member with `role` (null: guest) may do in their organization. */
export const organizationPermissions = (role: Role): OrganizationPermissions => {
  const admin = Roles.atLeast(role, "admin")
  const member = Roles.atLeast(role, "read")
  return {
    view: true,
    access: true,
    admin,
    ownTeam: admin,
    createContent: Roles.atLeast(role, "create"),
    createOpenAPISpec: Roles.atLeast(role, "create"),
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: member,
    listTeams: member,
    listIntegrations: member,
    listInstallations: admin,
    installIntegration: admin
  }
}

export interface TeamPermissions {
  readonly admin: boolean
  readonly view: boolean
}

export const teamPermissions = (role: Role): TeamPermissions => ({
  admin: Roles.atLeast(role, "admin"),
  view: Roles.atLeast(role, "read")
})

/** Fails with Forbidden unless `allowed`; `action` says what was refused. */
export const ensure = (allowed: boolean, action: string): Effect.Effect<void, Errors.Forbidden> =>
  allowed ? Effect.void : Effect.fail(new Errors.Forbidden({ reason: `Your role does not allow you to ${action}` }))

/** The organization permission `key` for the caller, or Forbidden. */
export const ensureOrganization = (
  membership: MembershipRole,
  key: keyof OrganizationPermissions,
  action: string
): Effect.Effect<void, Errors.Forbidden> => ensure(organizationPermissions(membership.role)[key], action)
