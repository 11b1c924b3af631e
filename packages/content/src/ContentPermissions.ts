/**
 * Use cases on the permissions of a space or a collection: inviting users and teams of its
 * organization with a role, listing, changing and removing their grants, and the aggregate list of
 * everyone who can access it with their effective role.
 */
import { AuditLog, type AuditLogShape, caller as auditCaller } from "@quire/audit"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, Errors, Pagination, type Roles, Transactor } from "@quire/kernel"
import * as Access from "./Access.ts"
import { CollectionsRepo } from "./CollectionsRepo.ts"
import { ContentAccess } from "./ContentAccess.ts"
import type { DefaultLevel } from "./domain/Space.ts"
import { memberKeyShape, Memberships, type OrganizationMember } from "./Memberships.ts"
import { type Grant, grantKeyShape, type Principal, type PrincipalKind, PermissionsRepo, type Target } from "./PermissionsRepo.ts"
import { visiblePage } from "./Tree.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** GitBook's InviteUsersAndTeams: a role for users and teams of the organization. */
export interface Invitation {
  /** null (GitBook's "guest") grants nothing: an invitation needs a role. */
  readonly role: Roles.MemberRole | null
  readonly users?: ReadonlyArray<string> | undefined
  readonly teams?: ReadonlyArray<string> | undefined
}

/** A user's role on content: explicit (their grant) or effective (aggregate lists). */
export interface UserPermission {
  readonly userId: string
  readonly role: Roles.MemberRole
}

export interface TeamPermission {
  readonly teamId: string
  readonly role: Roles.MemberRole
}

/** A listing of one organization's people on content. */
export interface PermissionList<A> {
  readonly organizationId: string
  readonly page: Pagination.Page<A>
}

export interface ContentPermissionsShape {
  /** Grants the role to each user and team (replacing a grant they had there); needs `admin` on the content. */
  readonly invite: (target: Target, invitation: Invitation) => Effect.Effect<void, Denied | Errors.InvalidInput, Actor.Actor>
  /** The users with a grant on the content, in invitation order. */
  readonly listUsers: (target: Target, page: Pagination.PageRequest) => Effect.Effect<PermissionList<UserPermission>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** The teams with a grant on the content, in invitation order. */
  readonly listTeams: (target: Target, page: Pagination.PageRequest) => Effect.Effect<PermissionList<TeamPermission>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Sets a principal's role (null removes the grant, undefined changes nothing); needs `admin` on the content. */
  readonly update: (target: Target, principal: Principal, role: Roles.MemberRole | null | undefined) => Effect.Effect<void, Denied, Actor.Actor>
  /** Removes a principal's grant; false when they had none. Needs `admin` on the content. */
  readonly remove: (target: Target, principal: Principal) => Effect.Effect<boolean, Denied, Actor.Actor>
  /** Everyone who can access the content with their effective role (only `role` when given), in the order they joined. */
  readonly aggregate: (
    target: Target,
    role: Roles.MemberRole | undefined,
    page: Pagination.PageRequest
  ) => Effect.Effect<PermissionList<UserPermission>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** How many spaces each user or team among `ids` was invited to. */
  readonly spaceCounts: (organizationId: string, kind: PrincipalKind, ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, number>>
}

/** The content a target names, as the caller sees it. */
interface Resolved {
  readonly organizationId: string
  readonly admin: boolean
  /** The target and the collections holding it, most specific first. */
  readonly targets: ReadonlyArray<Target>
  readonly levels: ReadonlyArray<DefaultLevel>
}

/** The users and teams an invitation names, each once, checked to be of the organization. */
const invited = Effect.fnUntraced(function*(memberships: Memberships["Service"], organizationId: string, invitation: Invitation) {
  const users = invitation.users ?? []
  const teams = invitation.teams ?? []
  if (users.length === 0 && teams.length === 0) {
    return yield* new Errors.InvalidInput({ field: "users", reason: "give the users or the teams to invite" })
  }
  for (const [index, userId] of users.entries()) {
    if (Option.isNone(yield* memberships.roleOf(organizationId, userId))) {
      return yield* new Errors.InvalidInput({
        field: `users[${index}]`,
        reason: `user ${JSON.stringify(userId)} is not a member of the organization`
      })
    }
  }
  for (const [index, teamId] of teams.entries()) {
    if (!(yield* memberships.hasTeam(organizationId, teamId))) {
      return yield* new Errors.InvalidInput({
        field: `teams[${index}]`,
        reason: `team ${JSON.stringify(teamId)} is not a team of the organization`
      })
    }
  }
  const principals: Array<Principal> = [
    ...Array.from(new Set(users), (id) => ({ kind: "user" as const, id })),
    ...Array.from(new Set(teams), (id) => ({ kind: "team" as const, id }))
  ]
  return principals
})

/** How grants' changes reach the audit log: the principal's grant before, and the event of a change (none when the role stays). */
const permissionAudit = (audit: AuditLogShape, repo: PermissionsRepo["Service"]) => ({
  grantOf: (target: Target, principal: Principal) =>
    Effect.map(repo.onTargets([target]), (grants) =>
      grants.find((g) => g.target.kind === target.kind && g.target.id === target.id && g.principal.kind === principal.kind && g.principal.id === principal.id)?.role),
  recordChange: Effect.fnUntraced(function*(organizationId: string, target: Target, principal: Principal, from: Roles.MemberRole | undefined, to: Roles.MemberRole | undefined) {
    if (from === to) return
    yield* audit.record({
      organizationId,
      action: from === undefined ? "permission.granted" : to === undefined ? "permission.revoked" : "permission.changed",
      actor: yield* auditCaller,
      target: { type: target.kind, id: target.id },
      payload: { principalType: principal.kind, principalId: principal.id, from: from ?? null, to: to ?? null }
    })
  })
})

export class ContentPermissions extends Context.Service<ContentPermissions, ContentPermissionsShape>()("@quire/content/ContentPermissions") {
  static readonly layer = Layer.effect(
    ContentPermissions,
    Effect.gen(function*() {
      const access = yield* ContentAccess
      const repo = yield* PermissionsRepo
      const collections = yield* CollectionsRepo
      const memberships = yield* Memberships
      const transactor = yield* Transactor.Transactor
      const { grantOf, recordChange } = permissionAudit(yield* AuditLog, repo)

      const resolve = Effect.fnUntraced(function*(target: Target) {
        if (target.kind === "space") {
          const { permissions, space } = yield* access.space(target.id)
          const chain = space.parentId === null ? [] : yield* collections.ancestry(space.parentId)
          return {
            organizationId: space.organizationId,
            admin: permissions.admin,
            targets: [target, ...chain.map((c) => ({ kind: "collection" as const, id: c.id }))],
            levels: [space.defaultLevel, ...chain.map((c) => c.defaultLevel)]
          } satisfies Resolved
        }
        const { collection, permissions } = yield* access.collection(target.id)
        const chain = yield* collections.ancestry(collection.id)
        return {
          organizationId: collection.organizationId,
          admin: permissions.admin,
          targets: chain.map((c) => ({ kind: "collection" as const, id: c.id })),
          levels: chain.map((c) => c.defaultLevel)
        } satisfies Resolved
      })

      const administered = Effect.fnUntraced(function*(target: Target) {
        const resolved = yield* resolve(target)
        yield* Access.ensure(resolved.admin, `manage the permissions of this ${target.kind}`)
        return resolved
      })

      const invite = Effect.fn("ContentPermissions.invite")(function*(target: Target, invitation: Invitation) {
        const { organizationId } = yield* administered(target)
        const role = invitation.role
        if (role === null) {
          return yield* new Errors.InvalidInput({ field: "role", reason: "an invitation needs a role (read, comment, edit, review, create or admin)" })
        }
        const principals = yield* invited(memberships, organizationId, invitation)
        const before = yield* Effect.forEach(principals, (principal) => grantOf(target, principal))
        yield* repo.put(organizationId, target, principals, role, new Date(yield* Clock.currentTimeMillis))
        for (const [index, principal] of principals.entries()) yield* recordChange(organizationId, target, principal, before[index], role)
      }, transactor.transaction)

      const listOf = <A>(kind: PrincipalKind, present: (grant: Grant) => A) =>
        Effect.fnUntraced(function*(target: Target, page: Pagination.PageRequest) {
          const { organizationId } = yield* resolve(target)
          const after = yield* Pagination.afterOf(page, grantKeyShape)
          const grants = yield* repo.list(target, kind, after, Pagination.limitOf(page))
          return { organizationId, page: { ...grants, items: grants.items.map(present) } }
        })

      const listUsers = listOf("user", (g): UserPermission => ({ userId: g.principal.id, role: g.role }))
      const listTeams = listOf("team", (g): TeamPermission => ({ teamId: g.principal.id, role: g.role }))

      /** A user who is not a member, or a team not of the organization, is not found there. */
      const ensurePrincipal = Effect.fnUntraced(function*(organizationId: string, principal: Principal) {
        const exists = principal.kind === "user"
          ? Option.isSome(yield* memberships.roleOf(organizationId, principal.id))
          : yield* memberships.hasTeam(organizationId, principal.id)
        if (!exists) return yield* new Errors.NotFound({ resource: principal.kind === "user" ? "User" : "Team", id: principal.id })
      })

      const update = Effect.fn("ContentPermissions.update")(function*(
        target: Target,
        principal: Principal,
        role: Roles.MemberRole | null | undefined
      ) {
        const { organizationId } = yield* administered(target)
        yield* ensurePrincipal(organizationId, principal)
        if (role === undefined) return
        const before = yield* grantOf(target, principal)
        if (role === null) {
          yield* repo.remove(target, principal)
        } else {
          yield* repo.put(organizationId, target, [principal], role, new Date(yield* Clock.currentTimeMillis))
        }
        yield* recordChange(organizationId, target, principal, before, role ?? undefined)
      }, transactor.transaction)

      const remove = Effect.fn("ContentPermissions.remove")(function*(target: Target, principal: Principal) {
        const { organizationId } = yield* administered(target)
        const before = yield* grantOf(target, principal)
        const removed = yield* repo.remove(target, principal)
        yield* recordChange(organizationId, target, principal, before, undefined)
        return removed
      }, transactor.transaction)

      const aggregate = Effect.fn("ContentPermissions.aggregate")(function*(
        target: Target,
        role: Roles.MemberRole | undefined,
        page: Pagination.PageRequest
      ) {
        const resolved = yield* resolve(target)
        const after = yield* Pagination.afterOf(page, memberKeyShape)
        // The grants on the content and its collections, and the members of the teams they name,
        // read once for every member of the page.
        const grants = yield* repo.onTargets(resolved.targets)
        const teams = new Map<string, ReadonlySet<string>>()
        for (const grant of grants) {
          if (grant.principal.kind === "team" && !teams.has(grant.principal.id)) {
            teams.set(grant.principal.id, new Set(yield* memberships.teamMembers(resolved.organizationId, grant.principal.id)))
          }
        }
        const effective = (member: OrganizationMember) =>
          Access.effectiveRole(
            member.role,
            resolved.levels,
            grants
              .filter((g) =>
                g.principal.kind === "user" ? g.principal.id === member.userId : teams.get(g.principal.id)?.has(member.userId) === true
              )
              .map((g) => g.role)
          )
        const found = yield* visiblePage(
          (cursor, limit) => memberships.members(resolved.organizationId, cursor, limit),
          (member) => member.key,
          (member) => {
            const permission = effective(member)
            return Effect.succeed(
              permission !== null && (role === undefined || permission === role)
                ? Option.some<UserPermission>({ userId: member.userId, role: permission })
                : Option.none()
            )
          },
          after,
          Pagination.limitOf(page)
        )
        return { organizationId: resolved.organizationId, page: found }
      })

      const spaceCounts = (organizationId: string, kind: PrincipalKind, ids: ReadonlyArray<string>) =>
        repo.countSpaces(organizationId, kind, ids)

      return ContentPermissions.of({ invite, listUsers, listTeams, update, remove, aggregate, spaceCounts })
    })
  )
}
