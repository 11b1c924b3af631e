/** Use cases on organization members: listing, roles, removal, SSO and presence. */
import { AuditLog, caller as auditCaller, userRef } from "@quire/audit"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Pagination, type Roles, Transactor } from "@quire/kernel"
import { ensureOrganization } from "./Authorization.ts"
import type { Member, MemberQuery, OrganizationAccess } from "./domain/Identity.ts"
import { MembershipDependents } from "./MembershipDependents.ts"
import { memberKeyShapeOf, MembersRepo } from "./MembersRepo.ts"
import { Organizations } from "./Organizations.ts"
import { teamKeyShape, type TeamMembership, TeamsRepo } from "./TeamsRepo.ts"
import { VisitorClaims } from "./VisitorClaims.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface MembersShape {
  readonly list: (organizationId: string, query: MemberQuery, page: Pagination.PageRequest) => Effect.Effect<{ readonly access: OrganizationAccess; readonly page: Pagination.Page<Member> }, Denied | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, userId: string) => Effect.Effect<Member, Denied, Actor.Actor>
  readonly updateRole: (organizationId: string, userId: string, role: Roles.MemberRole | null) => Effect.Effect<Member, Denied | Errors.InvalidInput, Actor.Actor>
  /** Removes a member (an admin, or the member leaving); succeeds when they were not a member. */
  readonly remove: (organizationId: string, userId: string) => Effect.Effect<void, Denied | Errors.InvalidInput, Actor.Actor>
  readonly setSso: (organizationId: string, userId: string) => Effect.Effect<Member, Denied, Actor.Actor>
  /** Records that the caller was seen now; returns their membership and signed visitor claims. */
  readonly ping: (organizationId: string) => Effect.Effect<{ readonly member: Member; readonly visitorClaims: string }, Errors.NotFound, Actor.Actor>
  readonly listTeams: (organizationId: string, userId: string, title: string | undefined, page: Pagination.PageRequest) => Effect.Effect<{ readonly access: OrganizationAccess; readonly page: Pagination.Page<TeamMembership> }, Denied | Errors.InvalidInput, Actor.Actor>
}

export class Members extends Context.Service<Members, MembersShape>()("@quire/identity/Members") {
  static readonly layer = Layer.effect(
    Members,
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const repo = yield* MembersRepo
      const teams = yield* TeamsRepo
      const claims = yield* VisitorClaims
      const dependents = yield* MembershipDependents
      const transactor = yield* Transactor.Transactor
      const audit = yield* AuditLog

      const find = Effect.fnUntraced(function*(organizationId: string, userId: string) {
        const member = yield* repo.find(organizationId, userId)
        if (Option.isNone(member)) return yield* new Errors.NotFound({ resource: "Member", id: userId })
        return member.value
      })

      const list = Effect.fn("Members.list")(function*(organizationId: string, query: MemberQuery, page: Pagination.PageRequest) {
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "listMembers", "list members")
        const after = yield* Pagination.afterOf(page, memberKeyShapeOf(query.sort))
        return { access, page: yield* repo.list(organizationId, query, after, Pagination.limitOf(page)) }
      })

      const get = Effect.fn("Members.get")(function*(organizationId: string, userId: string) {
        const actor = yield* Actor.Actor
        const access = yield* organizations.access(organizationId)
        if (actor.userId !== userId) yield* ensureOrganization(access.membership, "listMembers", "view members")
        return yield* find(organizationId, userId)
      })

      /** An organization always keeps at least one admin. */
      const keepAnAdmin = Effect.fnUntraced(function*(organizationId: string, member: Member) {
        if (member.role === "admin" && (yield* repo.countAdmins(organizationId)) <= 1) {
          return yield* new Errors.InvalidInput({ field: "role", reason: "the organization must keep at least one admin" })
        }
      })

      const updateRole = Effect.fn("Members.updateRole")(function*(organizationId: string, userId: string, role: Roles.MemberRole | null) {
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "admin", "change member roles")
        const member = yield* find(organizationId, userId)
        if (role !== "admin") yield* keepAnAdmin(organizationId, member)
        yield* repo.setRole(organizationId, userId, role)
        if (role !== member.role) {
          yield* audit.record({
            organizationId,
            action: "member.role-changed",
            actor: yield* auditCaller,
            target: userRef(userId),
            payload: { from: member.role, to: role }
          })
        }
        return { ...member, role }
      }, transactor.transaction)

      const remove = Effect.fn("Members.remove")(function*(organizationId: string, userId: string) {
        const actor = yield* Actor.Actor
        const access = yield* organizations.access(organizationId)
        if (actor.userId !== userId) yield* ensureOrganization(access.membership, "admin", "remove members")
        const member = yield* repo.find(organizationId, userId)
        if (Option.isNone(member)) return
        yield* keepAnAdmin(organizationId, member.value)
        yield* dependents.removeMember(organizationId, userId)
        yield* repo.remove(organizationId, userId)
        yield* audit.record({ organizationId, action: "member.removed", actor: yield* auditCaller, target: userRef(userId), payload: { role: member.value.role } })
      }, transactor.transaction)

      const setSso = Effect.fn("Members.setSso")(function*(organizationId: string, userId: string) {
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "admin", "manage SSO members")
        const member = yield* find(organizationId, userId)
        yield* repo.setSso(organizationId, userId, true)
        return { ...member, sso: true }
      })

      const ping = Effect.fn("Members.ping")(function*(organizationId: string) {
        const actor = yield* Actor.Actor
        const access = yield* organizations.access(organizationId)
        const at = new Date(yield* Clock.currentTimeMillis)
        yield* repo.touch(organizationId, actor.userId, at)
        const member = yield* find(organizationId, actor.userId)
        const visitorClaims = yield* claims.sign({ sub: actor.userId, org: organizationId, role: access.membership.role })
        return { member, visitorClaims }
      })

      const listTeams = Effect.fn("Members.listTeams")(function*(
        organizationId: string,
        userId: string,
        title: string | undefined,
        page: Pagination.PageRequest
      ) {
        const actor = yield* Actor.Actor
        const access = yield* organizations.access(organizationId)
        if (actor.userId !== userId) yield* ensureOrganization(access.membership, "listTeams", "list teams")
        yield* find(organizationId, userId)
        const after = yield* Pagination.afterOf(page, teamKeyShape)
        return { access, page: yield* teams.listForMember(organizationId, userId, title, after, Pagination.limitOf(page)) }
      })

      return Members.of({ list, get, updateRole, remove, setSso, ping, listTeams })
    })
  )
}
