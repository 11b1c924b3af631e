/**
 * Loads a site for a caller: members of its organization see it, outsiders get NotFound, and
 * writes need `admin` (Forbidden below it). Shared by the sites use cases.
 */
import { Effect, Option } from "effect"
import { Actor, Errors } from "@quire/kernel"
import { ContentAccess } from "@quire/content"
import { type SiteAccess, sitePermissions } from "./SiteAccess.ts"
import type { Site } from "./domain/Site.ts"
import { SitesRepo } from "./SitesRepo.ts"
import { SiteStructureRepo } from "./SiteStructureRepo.ts"
import type { Roles } from "@quire/kernel"

export interface Guard {
  /** The caller's role in the organization; NotFound for outsiders and guests. */
  readonly member: (organizationId: string) => Effect.Effect<Roles.MemberRole, Errors.NotFound, Actor.Actor>
  /** The site as the caller sees it; NotFound for outsiders and sites of other organizations. */
  readonly site: (organizationId: string, siteId: string) => Effect.Effect<SiteAccess, Errors.NotFound, Actor.Actor>
  /** The site, for an admin of its organization. */
  readonly admin: (organizationId: string, siteId: string, what: string) => Effect.Effect<SiteAccess, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /** Access to a site record already loaded. */
  readonly accessOf: (site: Site, role: Roles.MemberRole | null) => Effect.Effect<SiteAccess>
}

export const forbidden = (what: string) => new Errors.Forbidden({ reason: `You need to be an organization admin to ${what}` })

export const make = Effect.gen(function*() {
  const access = yield* ContentAccess
  const sites = yield* SitesRepo
  const structure = yield* SiteStructureRepo

  // Guests (members without an organization role) see only the spaces they were given: sites are
  // the organization's, so to a guest they do not exist.
  const member = access.organizationMember

  const accessOf = (site: Site, role: Roles.MemberRole | null) =>
    Effect.map(structure.countSiteSpaces([site.id]), (counts): SiteAccess => ({
      site,
      role,
      permissions: sitePermissions(role),
      siteSpaces: counts.get(site.id) ?? 0
    }))

  const site = (organizationId: string, siteId: string) =>
    Effect.gen(function*() {
      // A published site's reader reaches that one site, as a guest would: with no role.
      const reader = (yield* Actor.Actor).siteReader
      const role = reader !== undefined && reader.siteId === siteId && reader.organizationId === organizationId
        ? null
        : yield* member(organizationId)
      const found = yield* sites.find(siteId)
      if (Option.isNone(found) || found.value.organizationId !== organizationId) {
        return yield* new Errors.NotFound({ resource: "Site", id: siteId })
      }
      return yield* accessOf(found.value, role)
    })

  const admin = (organizationId: string, siteId: string, what: string) =>
    Effect.flatMap(site(organizationId, siteId), (found) =>
      found.permissions.admin ? Effect.succeed(found) : Effect.fail(forbidden(what)))

  return { member, site, admin, accessOf } satisfies Guard
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
