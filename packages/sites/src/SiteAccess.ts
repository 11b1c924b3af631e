/**
 * Who may do what with a site: reading needs a role in its organization; changing its settings,
 * structure and publishing needs the site role `edit` or above, managing who may needs `admin`.
 * The site role is the highest of what the organization role gives (admin: admin, any other role:
 * read) and the grants on the site to the member and their teams. Outsiders and guests learn
 * nothing (NotFound). The `permissions` of responses come from here too.
 */
import { Effect, Option } from "effect"
import { Errors, Roles } from "@quire/kernel"
import type { Site } from "./domain/Site.ts"

type Role = Roles.MemberRole | null

/** GitBook's `Site.permissions`. */
export interface SitePermissions {
  readonly view: boolean
  readonly access: boolean
  readonly edit: boolean
  readonly create: boolean
  readonly admin: boolean
  readonly installIntegration: boolean
  readonly viewAdaptiveSchema: boolean
  readonly editAdaptiveSchema: boolean
}

/** What a site role allows; `undefined`: no access at all, null: a reader who only views. */
export const sitePermissions = (siteRole: Role | undefined): SitePermissions => {
  const member = siteRole !== undefined
  const edit = Roles.atLeast(siteRole, "edit")
  const admin = Roles.atLeast(siteRole, "admin")
  return {
    view: member,
    access: member,
    edit,
    create: edit,
    admin,
    installIntegration: admin,
    viewAdaptiveSchema: member,
    editAdaptiveSchema: edit
  }
}

/** Where a member's site role comes from: the organization (its admins, its members' default), a grant to them, or to a team. */
export type SiteRoleOrigin =
  | { readonly kind: "organization" }
  | { readonly kind: "default" }
  | { readonly kind: "member" }
  | { readonly kind: "team"; readonly teamId: string }

/** A grant that applies to a member: to them, or to one of their teams. */
export interface AppliedGrant {
  readonly role: Roles.MemberRole
  /** Absent: granted to the member. */
  readonly teamId?: string | undefined
}

/** What the organization role gives on every site of the organization: admins administer, other members read, guests nothing. */
export const inheritedSiteRole = (role: Role): Role => role === null ? null : role === "admin" ? "admin" : "read"

/**
 * A member's role on a site and where it comes from: the highest of what the organization gives
 * and the grants (a grant to the member wins a tie with a team's). Guests get nothing.
 */
export const resolveSiteRole = (
  role: Role,
  grants: ReadonlyArray<AppliedGrant>
): { readonly role: Role; readonly origin: SiteRoleOrigin } => {
  const inherited = inheritedSiteRole(role)
  if (inherited === null) return { role: null, origin: { kind: "default" } }
  let best: { role: Roles.MemberRole; origin: SiteRoleOrigin } = {
    role: inherited,
    origin: role === "admin" ? { kind: "organization" } : { kind: "default" }
  }
  const ordered = grants.toSorted((a, b) => (a.teamId === undefined ? 0 : 1) - (b.teamId === undefined ? 0 : 1))
  for (const grant of ordered) {
    if (Roles.roleRank(grant.role) > Roles.roleRank(best.role)) {
      best = { role: grant.role, origin: grant.teamId === undefined ? { kind: "member" } : { kind: "team", teamId: grant.teamId } }
    }
  }
  return best
}

/** A site with the caller's standing and what the API shows beside it. */
export interface SiteAccess {
  readonly site: Site
  /** The caller's organization role (null: a guest member, or a published site's reader). */
  readonly role: Role
  /** The caller's role on the site (see `resolveSiteRole`). */
  readonly siteRole: Role
  readonly permissions: SitePermissions
  /** How many site spaces the site has (`siteSpaces`). */
  readonly siteSpaces: number
}


/** The role of a member, or NotFound for an outsider. */
export const memberRole = (
  organizationId: string,
  role: Option.Option<Role>
): Effect.Effect<Role, Errors.NotFound> =>
  Option.isNone(role) ? Effect.fail(new Errors.NotFound({ resource: "Organization", id: organizationId })) : Effect.succeed(role.value)
