/** Use cases on teams: listing, creation with members, renaming, removal, and their members. */
import { type AuditAction, AuditLog, type AuditLogShape, type AuditPayload, caller as auditCaller, userRef } from "@quire/audit"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import { ensure, ensureOrganization, organizationPermissions } from "./Authorization.ts"
import type { Member, OrganizationAccess, Team, TeamMemberRole } from "./domain/Identity.ts"
import { MembershipDependents } from "./MembershipDependents.ts"
import { MembersRepo, type MembersRepoShape } from "./MembersRepo.ts"
import { Organizations } from "./Organizations.ts"
import { type TeamFilter, teamKeyShape, teamMemberKeyShape, TeamsRepo } from "./TeamsRepo.ts"
import { UsersRepo, type UsersRepoShape } from "./UsersRepo.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface TeamView {
  readonly access: OrganizationAccess
  readonly team: Team
}

/** A member of the organization in a team, with their role in the team. */
export interface TeamMemberView {
  readonly member: Member
  readonly role: TeamMemberRole
}

/**
 * GitBook's bulk change of a team's members. Users are named by id or email; someone both added
 * and removed is removed; `memberships` adds or sets roles.
 */
export interface TeamMembersChange {
  readonly add?: ReadonlyArray<string> | undefined
  readonly remove?: ReadonlyArray<string> | undefined
  readonly memberships?: Readonly<Record<string, { readonly role: TeamMemberRole }>> | undefined
}

export interface TeamsShape {
  readonly list: (organizationId: string, filter: TeamFilter, page: Pagination.PageRequest) => Effect.Effect<{ readonly access: OrganizationAccess; readonly page: Pagination.Page<Team> }, Denied | Errors.InvalidInput, Actor.Actor>
  readonly create: (organizationId: string, input: { readonly title: string; readonly members?: ReadonlyArray<string> | undefined }) => Effect.Effect<TeamView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, teamId: string) => Effect.Effect<TeamView, Denied, Actor.Actor>
  readonly rename: (organizationId: string, teamId: string, title: string) => Effect.Effect<TeamView, Denied, Actor.Actor>
  readonly remove: (organizationId: string, teamId: string) => Effect.Effect<void, Denied, Actor.Actor>
  /** The team's members by name (members of the organization with a role). */
  readonly listMembers: (organizationId: string, teamId: string, page: Pagination.PageRequest) => Effect.Effect<{ readonly access: OrganizationAccess; readonly page: Pagination.Page<TeamMemberView> }, Denied | Errors.InvalidInput, Actor.Actor>
  /**
   * Adds a member of the organization to the team, or sets their role in it; without a role a
   * new team member is a `member` and an existing one keeps theirs. Admins and the team's owners.
   */
  readonly addMember: (organizationId: string, teamId: string, userId: string, role: TeamMemberRole | undefined) => Effect.Effect<void, Denied | Errors.InvalidInput, Actor.Actor>
  /** Takes a user out of the team (admins and the team's owners); false when they were not in it. */
  readonly removeMember: (organizationId: string, teamId: string, userId: string) => Effect.Effect<boolean, Denied, Actor.Actor>
  /** Adds, removes and sets roles of several members at once, in one transaction. */
  readonly updateMembers: (organizationId: string, teamId: string, change: TeamMembersChange) => Effect.Effect<void, Denied | Errors.InvalidInput, Actor.Actor>
}

/** How a team change names users: by id or by email, checked to be members of the organization. */
const memberNames = (members: MembersRepoShape, users: UsersRepoShape) => {
  /** The id of the organization member `user` names (an id or an email); InvalidInput naming `field` otherwise. */
  const memberId = Effect.fnUntraced(function*(organizationId: string, user: string, field: string) {
    const id = yield* resolve(user)
    if (id !== undefined && Option.isSome(yield* members.find(organizationId, id))) return id
    return yield* new Errors.InvalidInput({ field, reason: `user ${JSON.stringify(user)} is not a member of the organization` })
  })

  /** The user id of an id or an email; undefined for an email without an account. */
  const resolve = Effect.fnUntraced(function*(user: string) {
    if (!user.includes("@")) return user
    return Option.getOrUndefined(yield* users.findByEmail(user))?.id
  })
  return { memberId, resolve }
}

/** What the team use cases record in the audit log, in their transactions; the member writes with theirs. */
const teamAudit = (audit: AuditLogShape, repo: TeamsRepo["Service"]) => {
  const record = (organizationId: string, action: AuditAction, target: { readonly type: string; readonly id: string; readonly label?: string }, payload?: AuditPayload) =>
    Effect.flatMap(auditCaller, (actor) => audit.record({ organizationId, action, actor, target, payload }))
  return {
    team: (organizationId: string, action: "team.created" | "team.renamed" | "team.deleted", team: { readonly id: string; readonly title: string }, payload?: AuditPayload) =>
      record(organizationId, action, { type: "team", id: team.id, label: team.title }, payload),
    /** Sets a member's role in the team (`role`, else the one they have, else member); an addition or a new role is recorded. */
    setMember: Effect.fnUntraced(function*(organizationId: string, team: Team, userId: string, role: TeamMemberRole | undefined) {
      const current = yield* repo.findMember(organizationId, team.id, userId)
      const next = role ?? Option.getOrElse(current, () => "member" as const)
      yield* repo.setMember(organizationId, team.id, userId, next)
      if (!Option.contains(current, next)) yield* record(organizationId, "team.member-added", userRef(userId), { teamId: team.id, team: team.title, role: next })
    }),
    /** Takes a user out of the team; false (and nothing recorded) when they were not in it. */
    removeMember: Effect.fnUntraced(function*(organizationId: string, team: Team, userId: string) {
      const current = yield* repo.findMember(organizationId, team.id, userId)
      const removed = yield* repo.removeMember(organizationId, team.id, userId)
      if (Option.isSome(current)) yield* record(organizationId, "team.member-removed", userRef(userId), { teamId: team.id, team: team.title })
      return removed
    })
  }
}

export class Teams extends Context.Service<Teams, TeamsShape>()("@quire/identity/Teams") {
  static readonly layer = Layer.effect(
    Teams,
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const repo = yield* TeamsRepo
      const members = yield* MembersRepo
      const dependents = yield* MembershipDependents
      const users = yield* UsersRepo
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const audited = teamAudit(yield* AuditLog, repo)

      const find = Effect.fnUntraced(function*(organizationId: string, teamId: string) {
        const team = yield* repo.find(organizationId, teamId)
        if (Option.isNone(team)) return yield* new Errors.NotFound({ resource: "Team", id: teamId })
        return team.value
      })

      const list = Effect.fn("Teams.list")(function*(organizationId: string, filter: TeamFilter, page: Pagination.PageRequest) {
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "listTeams", "list teams")
        const after = yield* Pagination.afterOf(page, teamKeyShape)
        return { access, page: yield* repo.list(organizationId, filter, after, Pagination.limitOf(page)) }
      })

      const create = Effect.fn("Teams.create")(function*(
        organizationId: string,
        input: { readonly title: string; readonly members?: ReadonlyArray<string> | undefined }
      ) {
        const actor = yield* Actor.Actor
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "admin", "create teams")
        // GitBook's `members` are the team's members, exactly: the caller joins only when listed.
        const memberIds = Array.from(new Set(input.members ?? []))
        for (const [index, userId] of (input.members ?? []).entries()) {
          if (Option.isNone(yield* members.find(organizationId, userId))) {
            return yield* new Errors.InvalidInput({
              field: `members[${index}]`,
              reason: `user ${JSON.stringify(userId)} is not a member of the organization`
            })
          }
        }
        const id = yield* ids.make
        const createdAt = new Date(yield* Clock.currentTimeMillis)
        yield* repo.insert(
          { id, organizationId, title: input.title, createdAt },
          memberIds.map((userId) => ({ userId, role: userId === actor.userId ? "owner" as const : "member" as const }))
        )
        const team = yield* find(organizationId, id)
        yield* audited.team(organizationId, "team.created", team, { members: memberIds.length })
        return { access, team }
      }, transactor.transaction)

      const get = Effect.fn("Teams.get")(function*(organizationId: string, teamId: string) {
        const access = yield* organizations.access(organizationId)
        return { access, team: yield* find(organizationId, teamId) }
      })

      const rename = Effect.fn("Teams.rename")(function*(organizationId: string, teamId: string, title: string) {
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "admin", "rename teams")
        const team = yield* find(organizationId, teamId)
        yield* repo.rename(organizationId, teamId, title)
        if (title !== team.title) yield* audited.team(organizationId, "team.renamed", { id: teamId, title }, { from: team.title, to: title })
        return { access, team: { ...team, title } }
      }, transactor.transaction)

      const remove = Effect.fn("Teams.remove")(function*(organizationId: string, teamId: string) {
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "admin", "delete teams")
        const team = yield* repo.find(organizationId, teamId)
        yield* dependents.removeTeam(organizationId, teamId)
        yield* repo.remove(organizationId, teamId)
        if (Option.isSome(team)) yield* audited.team(organizationId, "team.deleted", team.value)
      }, transactor.transaction)

      /** The team, when the caller may manage its members: an admin of the organization or an owner of the team. */
      const manageable = Effect.fnUntraced(function*(organizationId: string, teamId: string) {
        const actor = yield* Actor.Actor
        const access = yield* organizations.access(organizationId)
        const team = yield* find(organizationId, teamId)
        if (!organizationPermissions(access.membership.role).admin) {
          const own = yield* repo.findMember(organizationId, teamId, actor.userId)
          yield* ensure(Option.contains(own, "owner"), "manage this team's members")
        }
        return team
      })

      const { memberId, resolve } = memberNames(members, users)

      const listMembers = Effect.fn("Teams.listMembers")(function*(organizationId: string, teamId: string, page: Pagination.PageRequest) {
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "listTeams", "list team members")
        yield* find(organizationId, teamId)
        const after = yield* Pagination.afterOf(page, teamMemberKeyShape)
        const found = yield* repo.listMembers(organizationId, teamId, after, Pagination.limitOf(page))
        const items: Array<TeamMemberView> = []
        for (const entry of found.items) {
          const member = yield* members.find(organizationId, entry.userId)
          if (Option.isSome(member)) items.push({ member: member.value, role: entry.role })
        }
        return { access, page: { ...found, items } }
      })

      const addMember = Effect.fn("Teams.addMember")(function*(
        organizationId: string,
        teamId: string,
        userId: string,
        role: TeamMemberRole | undefined
      ) {
        const team = yield* manageable(organizationId, teamId)
        yield* memberId(organizationId, userId, "userId")
        yield* audited.setMember(organizationId, team, userId, role)
      }, transactor.transaction)

      const removeMember = Effect.fn("Teams.removeMember")(function*(organizationId: string, teamId: string, userId: string) {
        return yield* audited.removeMember(organizationId, yield* manageable(organizationId, teamId), userId)
      }, transactor.transaction)

      const updateMembers = Effect.fn("Teams.updateMembers")(function*(
        organizationId: string,
        teamId: string,
        change: TeamMembersChange
      ) {
        const team = yield* manageable(organizationId, teamId)
        const removed = new Set<string>()
        for (const user of change.remove ?? []) {
          const id = yield* resolve(user)
          if (id !== undefined) removed.add(id)
        }
        const roles = new Map<string, TeamMemberRole | undefined>()
        for (const [index, user] of (change.add ?? []).entries()) {
          const id = yield* memberId(organizationId, user, `add[${index}]`)
          if (!roles.has(id)) roles.set(id, undefined)
        }
        for (const [user, { role }] of Object.entries(change.memberships ?? {})) {
          roles.set(yield* memberId(organizationId, user, `memberships.${user}`), role)
        }
        for (const [id, role] of roles) {
          if (removed.has(id)) continue
          yield* audited.setMember(organizationId, team, id, role)
        }
        for (const id of removed) yield* audited.removeMember(organizationId, team, id)
      }, transactor.transaction)

      return Teams.of({ list, create, get, rename, remove, listMembers, addMember, removeMember, updateMembers })
    })
  )
}
