/** Handlers of the permissions group: grants on spaces and collections, presented with identity's users and teams. */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type TeamContentPermission, type UserContentPermission } from "@quire/api"
import { ContentAccess, ContentPermissions, type PermissionList, type Target, type TeamPermission, type UserPermission } from "@quire/content"
import { Authorization, type Team, Teams, Users } from "@quire/identity"
import type { Pagination } from "@quire/kernel"
import * as DomainErrors from "../DomainErrors.ts"
import * as GrantCounts from "../GrantCounts.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

/** DELETE answers 205 when a grant was removed, 204 when there was none. */
const removal = (removed: boolean) => removed ? "removed" as const : "absent" as const

const space = (spaceId: string): Target => ({ kind: "space", id: spaceId })
const collection = (collectionId: string): Target => ({ kind: "collection", id: collectionId })
const user = (id: string) => ({ kind: "user" as const, id })
const team = (id: string) => ({ kind: "team" as const, id })

export const layer = HttpApiBuilder.group(Api, "permissions", Effect.fn(function*(handlers) {
  const permissions = yield* ContentPermissions
  const access = yield* ContentAccess
  const usersService = yield* Users
  const teams = yield* Teams
  const urls = yield* PublicUrl
  const counts = yield* GrantCounts.make

  /** The page's users, emails shown to those who may list the organization's members (as that listing does). */
  const users = ({ organizationId, page }: PermissionList<UserPermission>) =>
    Effect.gen(function*() {
      const callerRole = Option.getOrNull(yield* access.organizationRole(organizationId))
      const showEmail = Authorization.organizationPermissions(callerRole).listMembers
      const items: Array<UserContentPermission> = []
      for (const { role, userId } of page.items) {
        const found = yield* Effect.option(usersService.get(userId))
        if (Option.isSome(found)) items.push({ permission: role, user: Presenters.user(urls, found.value, { showEmail }) })
      }
      return Presenters.list({ ...page, items }, (item) => item)
    })

  const teamList = ({ organizationId, page }: PermissionList<TeamPermission>) =>
    Effect.gen(function*() {
      const callerRole = Option.getOrNull(yield* access.organizationRole(organizationId))
      const present: Array<{ readonly role: TeamPermission["role"]; readonly team: Team }> = []
      for (const { role, teamId } of page.items) {
        const found = yield* Effect.option(teams.get(organizationId, teamId))
        if (Option.isSome(found)) present.push({ role, team: found.value.team })
      }
      const counted = yield* counts.teams(organizationId, present.map((p) => p.team))
      const items = counted.map((team, i): TeamContentPermission => ({
        permission: present[i]!.role,
        team: Presenters.team(callerRole, team)
      }))
      return Presenters.list({ ...page, items }, (item) => item)
    })

  const aggregate = (target: Target, query: Pagination.PageRequest & { readonly role?: UserPermission["role"] | undefined }) =>
    permissions.aggregate(target, query.role, query).pipe(DomainErrors.api, Effect.flatMap(users))

  return handlers
    .handle("inviteToSpace", ({ params, payload }) =>
      permissions.invite(space(params.spaceId), payload).pipe(DomainErrors.api))
    .handle("listPermissionsAggregateInSpace", ({ params, query }) => aggregate(space(params.spaceId), query))
    .handle("listUserPermissionsInSpace", ({ params, query }) =>
      permissions.listUsers(space(params.spaceId), query).pipe(DomainErrors.api, Effect.flatMap(users)))
    .handle("updateUserPermissionInSpace", ({ params, payload }) =>
      permissions.update(space(params.spaceId), user(params.userId), payload.role).pipe(DomainErrors.api))
    .handle("removeUserFromSpace", ({ params }) =>
      permissions.remove(space(params.spaceId), user(params.userId)).pipe(DomainErrors.api, Effect.map(removal)))
    .handle("listTeamPermissionsInSpace", ({ params, query }) =>
      permissions.listTeams(space(params.spaceId), query).pipe(DomainErrors.api, Effect.flatMap(teamList)))
    .handle("updateTeamPermissionInSpace", ({ params, payload }) =>
      permissions.update(space(params.spaceId), team(params.teamId), payload.role).pipe(DomainErrors.api))
    .handle("removeTeamFromSpace", ({ params }) =>
      permissions.remove(space(params.spaceId), team(params.teamId)).pipe(DomainErrors.api, Effect.map(removal)))
    .handle("inviteToCollection", ({ params, payload }) =>
      permissions.invite(collection(params.collectionId), payload).pipe(DomainErrors.api))
    .handle("listPermissionsAggregateInCollection", ({ params, query }) => aggregate(collection(params.collectionId), query))
    .handle("listUserPermissionsInCollection", ({ params, query }) =>
      permissions.listUsers(collection(params.collectionId), query).pipe(DomainErrors.api, Effect.flatMap(users)))
    .handle("updateUserPermissionInCollection", ({ params, payload }) =>
      permissions.update(collection(params.collectionId), user(params.userId), payload.role).pipe(DomainErrors.api))
    .handle("removeUserFromCollection", ({ params }) =>
      permissions.remove(collection(params.collectionId), user(params.userId)).pipe(DomainErrors.api, Effect.map(removal)))
    .handle("listTeamPermissionsInCollection", ({ params, query }) =>
      permissions.listTeams(collection(params.collectionId), query).pipe(DomainErrors.api, Effect.flatMap(teamList)))
    .handle("updateTeamPermissionInCollection", ({ params, payload }) =>
      permissions.update(collection(params.collectionId), team(params.teamId), payload.role).pipe(DomainErrors.api))
    .handle("removeTeamFromCollection", ({ params }) =>
      permissions.remove(collection(params.collectionId), team(params.teamId)).pipe(DomainErrors.api, Effect.map(removal)))
}))
