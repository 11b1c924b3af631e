/**
 * Loads a site for a caller: members of its organization see it, outsiders get NotFound; changing
 * it needs the site role `edit` (organization admins have it, others through a grant to them or a
 * team), managing its permissions `admin` (Forbidden below). Shared by the sites use cases.
 */
import { Effect, Option } from "effect"
import { Actor, Errors } from "@quire/kernel"
import { ContentAccess, Memberships } from "@quire/content"
import { type AppliedGrant, resolveSiteRole, type SiteAccess, sitePermissions } from "./SiteAccess.ts"
import type { Site } from "./domain/Site.ts"
import { SitePermissionsRepo } from "./SitePermissionsRepo.ts"
import { SitesRepo } from "./SitesRepo.ts"
import { SiteStructureRepo } from "./SiteStructureRepo.ts"
import type { Roles } from "@quire/kernel"

/** A member's standing on every site of one organization (listings): their role and their grants, read once. */
export interface Standing {
  readonly role: Roles.MemberRole | null
  /** The caller's site role on a site of the organization. */
  readonly siteRoleOf: (siteId: string) => Roles.MemberRole | null
}

export interface Guard {
  /** The caller's role in the organization; NotFound for outsiders and guests. */
  readonly member: (organizationId: string) => Effect.Effect<Roles.MemberRole, Errors.NotFound, Actor.Actor>
  /** The caller's standing on the organization's sites; NotFound for outsiders and guests. */
  readonly standing: (organizationId: string) => Effect.Effect<Standing, Errors.NotFound, Actor.Actor>
  /** The site as the caller sees it; NotFound for outsiders and sites of other organizations. */
  readonly site: (organizationId: string, siteId: string) => Effect.Effect<SiteAccess, Errors.NotFound, Actor.Actor>
  /** The site, for a caller who may change its settings, structure and publishing (site role `edit` or above). */
  readonly editor: (organizationId: string, siteId: string, what: string) => Effect.Effect<SiteAccess, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /** The site, for a caller who may manage it whole: its permissions, its deletion (site role `admin`). */
  readonly manager: (organizationId: string, siteId: string, what: string) => Effect.Effect<SiteAccess, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /** Access to a site record already loaded. */
  readonly accessOf: (site: Site, role: Roles.MemberRole | null, siteRole: Roles.MemberRole | null) => Effect.Effect<SiteAccess>
}

export const forbidden = (what: string) => new Errors.Forbidden({ reason: `You need to be an organization admin to ${what}` })

/** Forbidden to a member whose site role is below what `what` needs. */
export const forbiddenOnSite = (what: string, needed: "edit" | "admin") =>
  new Errors.Forbidden({
    reason: needed === "admin"
      ? `You need to be an admin of this site (or of the organization) to ${what}`
      : `You need to be an editor of this site (or an organization admin) to ${what}`
  })

export const make = Effect.gen(function*() {
  const access = yield* ContentAccess
  const memberships = yield* Memberships
  const grants = yield* SitePermissionsRepo
  const sites = yield* SitesRepo
  const structure = yield* SiteStructureRepo

  // Guests (members without an organization role) see only the spaces they were given: sites are
  // the organization's, so to a guest they do not exist.
  const member = access.organizationMember

  /** The grants on the organization's sites that apply to the caller (theirs and their teams'), by site. */
  const callerGrants = Effect.fnUntraced(function*(organizationId: string, role: Roles.MemberRole) {
    const bySite = new Map<string, Array<AppliedGrant>>()
    // Admins administer every site: no grant can add to that.
    if (role === "admin") return bySite
    const { userId } = yield* Actor.Actor
    const teams = yield* memberships.teamsOf(organizationId, userId)
    const held = yield* grants.ofPrincipals(organizationId, [
      { kind: "user", id: userId },
      ...teams.map((id) => ({ kind: "team" as const, id }))
    ])
    for (const grant of held) {
      const applied = bySite.get(grant.siteId) ?? []
      applied.push({ role: grant.role, teamId: grant.principal.kind === "team" ? grant.principal.id : undefined })
      bySite.set(grant.siteId, applied)
    }
    return bySite
  })

  const standing = Effect.fnUntraced(function*(organizationId: string) {
    const role = yield* member(organizationId)
    const bySite = yield* callerGrants(organizationId, role)
    return { role, siteRoleOf: (siteId: string) => resolveSiteRole(role, bySite.get(siteId) ?? []).role } satisfies Standing
  })

  const accessOf = (site: Site, role: Roles.MemberRole | null, siteRole: Roles.MemberRole | null) =>
    Effect.map(structure.countSiteSpaces([site.id]), (counts): SiteAccess => ({
      site,
      role,
      siteRole,
      permissions: sitePermissions(siteRole),
      siteSpaces: counts.get(site.id) ?? 0
    }))

  const site = (organizationId: string, siteId: string) =>
    Effect.gen(function*() {
      // A published site's reader reaches that one site, as a guest would: with no role.
      const reader = (yield* Actor.Actor).siteReader
      const isReader = reader !== undefined && reader.siteId === siteId && reader.organizationId === organizationId
      const known = isReader ? undefined : yield* standing(organizationId)
      const found = yield* sites.find(siteId)
      if (Option.isNone(found) || found.value.organizationId !== organizationId) {
        return yield* new Errors.NotFound({ resource: "Site", id: siteId })
      }
      return yield* accessOf(found.value, known?.role ?? null, known === undefined ? null : known.siteRoleOf(siteId))
    })

  const editor = (organizationId: string, siteId: string, what: string) =>
    Effect.flatMap(site(organizationId, siteId), (found) =>
      found.permissions.edit ? Effect.succeed(found) : Effect.fail(forbiddenOnSite(what, "edit")))

  const manager = (organizationId: string, siteId: string, what: string) =>
    Effect.flatMap(site(organizationId, siteId), (found) =>
      found.permissions.admin ? Effect.succeed(found) : Effect.fail(forbiddenOnSite(what, "admin")))

  return { member, standing, site, editor, manager, accessOf } satisfies Guard
})

/** Checks a string's length, as an InvalidInput naming the field. */
export const checkLength = (field: string, value: string, min: number, max: number): Effect.Effect<void, Errors.InvalidInput> =>
  value.length < min || value.length > max
    ? Effect.fail(new Errors.InvalidInput({
      field,
      reason: min === 0 ? `must be at most ${max} characters` : `must be ${min} to ${max} characters`
    }))
    : Effect.void

/** Runs a removal that answers nothing when the site is missing or hidden from the caller. */
export const quietly = <E, R>(self: Effect.Effect<void, E | Errors.NotFound, R>): Effect.Effect<void, Exclude<E, Errors.NotFound>, R> =>
  Effect.catchIf(self, (e): e is Errors.NotFound => e instanceof Errors.NotFound, () => Effect.void) as Effect.Effect<
    void,
    Exclude<E, Errors.NotFound>,
    R
  >
