/**
 * Who may do what with a site: reading needs a role in its organization, changing it needs
 * `admin`; outsiders and guests learn nothing (NotFound). The `permissions` of responses come from here too.
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

export const sitePermissions = (role: Role | undefined): SitePermissions => {
  const member = role !== undefined
  const admin = Roles.atLeast(role, "admin")
  return {
    view: member,
    access: member,
    edit: admin,
    create: admin,
    admin,
    installIntegration: admin,
    viewAdaptiveSchema: member,
    editAdaptiveSchema: admin
  }
}

/** A site with the caller's standing and what the API shows beside it. */
export interface SiteAccess {
  readonly site: Site
  /** The caller's organization role (null: a guest member). */
  readonly role: Role
  readonly permissions: SitePermissions
  /** How many site spaces the site has (`siteSpaces`). */
  readonly siteSpaces: number
}

/** Fails with Forbidden unless `allowed`. */
export const ensure = (allowed: boolean, what: string): Effect.Effect<void, Errors.Forbidden> =>
  allowed ? Effect.void : Effect.fail(new Errors.Forbidden({ reason: `You need to be an organization admin to ${what}` }))

/** The role of a member, or NotFound for an outsider. */
export const memberRole = (
  organizationId: string,
  role: Option.Option<Role>
): Effect.Effect<Role, Errors.NotFound> =>
  Option.isNone(role) ? Effect.fail(new Errors.NotFound({ resource: "Organization", id: organizationId })) : Effect.succeed(role.value)
