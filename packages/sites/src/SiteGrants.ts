/**
 * Use cases on a site's permissions (GitBook's site users and site permissions): inviting users
 * and teams of its organization with a role on the site, listing, changing and removing those
 * grants, and everyone who can access the site with their site role and where it comes from. Each
 * grant, change and revocation is recorded in the audit log, in the transaction that makes it.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { AuditLog, caller as auditCaller } from "@quire/audit"
import { memberKeyShape, Memberships, type OrganizationMember, visiblePage } from "@quire/content"
import { type Actor, Errors, Pagination, type Roles, Transactor } from "@quire/kernel"
import { type AppliedGrant, resolveSiteRole, type SiteRoleOrigin } from "./SiteAccess.ts"
import * as SiteGuard from "./SiteGuard.ts"
import { type SiteGrant, siteGrantKeyShape, SitePermissionsRepo, type SitePrincipal, type SitePrincipalKind } from "./SitePermissionsRepo.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** GitBook's InviteSiteUsersAndTeams: a role for users and teams of the organization. */
export interface SiteInvitation {
  /** null (GitBook's "guest") grants nothing on a site: an invitation needs a role. */
  readonly role: Roles.MemberRole | null
  readonly users?: ReadonlyArray<string> | undefined
  readonly teams?: ReadonlyArray<string> | undefined
}

/** A principal's explicit grant on a site. */
export interface SiteGrantView {
  readonly principal: SitePrincipal
  readonly role: Roles.MemberRole
}

/** A member's effective role on a site and where it comes from. */
export interface SiteMemberRole {
  readonly userId: string
  readonly role: Roles.MemberRole
  readonly origin: SiteRoleOrigin
}

/** Which members the aggregate keeps: one role (`guest` keeps none: guests have no site role), one team's, these users. */
export interface SiteAggregateFilter {
  readonly role?: Roles.MemberRole | "guest" | undefined
  readonly team?: string | undefined
  /** Only these users (those a search of names and emails found, which the caller makes). */
  readonly users?: ReadonlySet<string> | undefined
}

export interface SiteList<A> {
  readonly organizationId: string
  readonly page: Pagination.Page<A>
}

export interface SiteGrantsShape {
  /** Grants the role to each user and team (replacing a grant they had); needs the site role `admin`. */
  readonly invite: (organizationId: string, siteId: string, invitation: SiteInvitation) => Effect.Effect<void, Denied | Errors.InvalidInput, Actor.Actor>
  /** The grants to users or to teams, in invitation order; for members who see the site. */
  readonly list: (
    organizationId: string,
    siteId: string,
    kind: SitePrincipalKind,
    page: Pagination.PageRequest
  ) => Effect.Effect<SiteList<SiteGrantView>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Sets a principal's role (null removes the grant, undefined changes nothing); needs the site role `admin`. */
  readonly update: (organizationId: string, siteId: string, principal: SitePrincipal, role: Roles.MemberRole | null | undefined) => Effect.Effect<void, Denied, Actor.Actor>
  /** Removes a principal's grant; false when there was none. Needs the site role `admin`. */
  readonly remove: (organizationId: string, siteId: string, principal: SitePrincipal) => Effect.Effect<boolean, Denied, Actor.Actor>
  /** Every member who can access the site with their site role, in the order they joined. */
  readonly aggregate: (
    organizationId: string,
    siteId: string,
    filter: SiteAggregateFilter,
    page: Pagination.PageRequest
  ) => Effect.Effect<SiteList<SiteMemberRole>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
}

const manage = "manage this site's permissions"

export class SiteGrants extends Context.Service<SiteGrants, SiteGrantsShape>()("@quire/sites/SiteGrants") {
  static readonly layer = Layer.effect(
    SiteGrants,
    Effect.gen(function*() {
      const guard = yield* SiteGuard.make
      const repo = yield* SitePermissionsRepo
      const memberships = yield* Memberships
      const audit = yield* AuditLog
      const transactor = yield* Transactor.Transactor

      /** The users and teams an invitation names, each once: members with a role, teams of the organization. */
      const invited = Effect.fnUntraced(function*(organizationId: string, invitation: SiteInvitation) {
        const users = invitation.users ?? []
        const teams = invitation.teams ?? []
        if (users.length === 0 && teams.length === 0) {
          return yield* new Errors.InvalidInput({ field: "users", reason: "give the users or the teams to invite" })
        }
        for (const [index, userId] of users.entries()) {
          const role = yield* memberships.roleOf(organizationId, userId)
          if (Option.isNone(role)) {
            return yield* new Errors.InvalidInput({ field: `users[${index}]`, reason: `user ${JSON.stringify(userId)} is not a member of the organization` })
          }
          if (role.value === null) {
            return yield* new Errors.InvalidInput({ field: `users[${index}]`, reason: `user ${JSON.stringify(userId)} is a guest: sites are for the organization's members` })
          }
        }
        for (const [index, teamId] of teams.entries()) {
          if (!(yield* memberships.hasTeam(organizationId, teamId))) {
            return yield* new Errors.InvalidInput({ field: `teams[${index}]`, reason: `team ${JSON.stringify(teamId)} is not a team of the organization` })
          }
        }
        return [
          ...Array.from(new Set(users), (id): SitePrincipal => ({ kind: "user", id })),
          ...Array.from(new Set(teams), (id): SitePrincipal => ({ kind: "team", id }))
        ]
      })

      /** Sets or removes one grant, and records what changed. */
      const apply = Effect.fnUntraced(function*(organizationId: string, site: { readonly id: string; readonly title: string }, principal: SitePrincipal, role: Roles.MemberRole | null) {
        const before = Option.getOrUndefined(yield* repo.find(site.id, principal))
        if (role === null) {
          if (before === undefined) return false
          yield* repo.remove(site.id, principal)
        } else {
          if (before?.role === role) return false
          yield* repo.put(organizationId, site.id, principal, role, new Date(yield* Clock.currentTimeMillis))
        }
        yield* audit.record({
          organizationId,
          action: role === null ? "site.permission-revoked" : before === undefined ? "site.permission-granted" : "site.permission-changed",
          actor: yield* auditCaller,
          target: { type: "site", id: site.id, label: site.title },
          payload: { principal: principal.kind, principalId: principal.id, from: before?.role ?? null, to: role }
        })
        return true
      })

      const invite = Effect.fn("SiteGrants.invite")(function*(organizationId: string, siteId: string, invitation: SiteInvitation) {
        const { site } = yield* guard.manager(organizationId, siteId, manage)
        const role = invitation.role
        if (role === null) {
          return yield* new Errors.InvalidInput({ field: "role", reason: "an invitation needs a role (read, comment, edit, review, create or admin)" })
        }
        for (const principal of yield* invited(organizationId, invitation)) yield* apply(organizationId, site, principal, role)
      }, transactor.transaction)

      const list = Effect.fn("SiteGrants.list")(function*(organizationId: string, siteId: string, kind: SitePrincipalKind, page: Pagination.PageRequest) {
        yield* guard.site(organizationId, siteId)
        const after = yield* Pagination.afterOf(page, siteGrantKeyShape)
        const grants = yield* repo.list(siteId, kind, after, Pagination.limitOf(page))
        return { organizationId, page: { ...grants, items: grants.items.map((g: SiteGrant): SiteGrantView => ({ principal: g.principal, role: g.role })) } }
      })

      /** A user who is not a member, or a team not of the organization, is not found there. */
      const ensurePrincipal = Effect.fnUntraced(function*(organizationId: string, principal: SitePrincipal) {
        const exists = principal.kind === "user"
          ? Option.isSome(yield* memberships.roleOf(organizationId, principal.id))
          : yield* memberships.hasTeam(organizationId, principal.id)
        if (!exists) return yield* new Errors.NotFound({ resource: principal.kind === "user" ? "User" : "Team", id: principal.id })
      })

      const update = Effect.fn("SiteGrants.update")(function*(organizationId: string, siteId: string, principal: SitePrincipal, role: Roles.MemberRole | null | undefined) {
        const { site } = yield* guard.manager(organizationId, siteId, manage)
        yield* ensurePrincipal(organizationId, principal)
        if (role !== undefined) yield* apply(organizationId, site, principal, role)
      }, transactor.transaction)

      const remove = Effect.fn("SiteGrants.remove")(function*(organizationId: string, siteId: string, principal: SitePrincipal) {
        const { site } = yield* guard.manager(organizationId, siteId, manage)
        return yield* apply(organizationId, site, principal, null)
      }, transactor.transaction)

      const aggregate = Effect.fn("SiteGrants.aggregate")(function*(organizationId: string, siteId: string, filter: SiteAggregateFilter, page: Pagination.PageRequest) {
        yield* guard.site(organizationId, siteId)
        const after = yield* Pagination.afterOf(page, memberKeyShape)
        if (filter.role === "guest") return { organizationId, page: { items: [] } }
        // The site's grants and the members of the teams they name, read once for the whole page.
        const grants = yield* repo.onSite(siteId)
        const teams = new Map<string, ReadonlySet<string>>()
        for (const teamId of new Set([...grants.filter((g) => g.principal.kind === "team").map((g) => g.principal.id), ...(filter.team === undefined ? [] : [filter.team])])) {
          teams.set(teamId, new Set(yield* memberships.teamMembers(organizationId, teamId)))
        }
        const applied = (member: OrganizationMember): Array<AppliedGrant> =>
          grants.flatMap((g) => {
            if (g.principal.kind === "user") return g.principal.id === member.userId ? [{ role: g.role }] : []
            return teams.get(g.principal.id)?.has(member.userId) === true ? [{ role: g.role, teamId: g.principal.id }] : []
          })
        const found = yield* visiblePage(
          (cursor, limit) => memberships.members(organizationId, cursor, limit),
          (member) => member.key,
          (member) => {
            const resolved = resolveSiteRole(member.role, applied(member))
            const kept = resolved.role !== null &&
              (filter.role === undefined || resolved.role === filter.role) &&
              (filter.team === undefined || teams.get(filter.team)?.has(member.userId) === true) &&
              (filter.users === undefined || filter.users.has(member.userId))
            return Effect.succeed(
              kept ? Option.some<SiteMemberRole>({ userId: member.userId, role: resolved.role!, origin: resolved.origin }) : Option.none()
            )
          },
          after,
          Pagination.limitOf(page)
        )
        return { organizationId, page: found }
      })

      return SiteGrants.of({ invite, list, update, remove, aggregate })
    })
  )
}
