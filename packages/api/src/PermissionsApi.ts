/** Permissions on spaces and collections: users and teams invited with a role, and who can access them. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, MemberRole, MemberRoleOrGuest, PageQuery, User } from "./Schemas.ts"
import { Team } from "./TeamsApi.ts"

const Ids = Schema.Array(EntityId).check(Schema.isMinLength(1), Schema.isMaxLength(1000))

/** GitBook's InviteUsersAndTeams: a role for users and teams of the organization (at least one of them). */
export const InviteUsersAndTeams = Schema.Struct({
  role: MemberRoleOrGuest,
  users: Schema.optionalKey(Ids),
  teams: Schema.optionalKey(Ids)
})

/** The body of a permission change: a role, null to remove the grant, absent to change nothing. */
export const PermissionUpdate = Schema.Struct({ role: Schema.optionalKey(MemberRoleOrGuest) })

/** GitBook's UserContentPermission. */
export const UserContentPermission = Schema.Struct({ permission: MemberRole, user: User })
export type UserContentPermission = typeof UserContentPermission.Type

/** GitBook's permission of a team on content. */
export const TeamContentPermission = Schema.Struct({ permission: MemberRole, team: Team })
export type TeamContentPermission = typeof TeamContentPermission.Type

/** DELETE of a permission: 205 when it was removed, 204 when there was none. */
export const PermissionRemoved = Schema.Literal("removed").pipe(
  HttpApiSchema.asNoContent({ decode: () => "removed" as const }),
  HttpApiSchema.status(205)
)
export const PermissionAbsent = Schema.Literal("absent").pipe(
  HttpApiSchema.asNoContent({ decode: () => "absent" as const }),
  HttpApiSchema.status(204)
)

/**
 * The eight permission endpoints GitBook declares alike for a space and a collection: `name` ends
 * each operationId, `path` is the resource (with its id parameter) and `params` declares that id.
 */
const contentPermissions = <const Name extends string, const Path extends `/${string}`, const Params extends Schema.Struct.Fields>(
  name: Name,
  path: Path,
  params: Params
) =>
  [
    HttpApiEndpoint.post(`inviteTo${name}`, `${path}/permissions`, {
      params,
      payload: InviteUsersAndTeams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get(`listPermissionsAggregateIn${name}`, `${path}/permissions/aggregate`, {
      params,
      query: { ...PageQuery, role: Schema.optional(MemberRole) },
      success: ListOf(UserContentPermission),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get(`listUserPermissionsIn${name}`, `${path}/permissions/users`, {
      params,
      query: PageQuery,
      success: ListOf(UserContentPermission),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.patch(`updateUserPermissionIn${name}`, `${path}/permissions/users/:userId`, {
      params: { ...params, userId: EntityId },
      payload: PermissionUpdate,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.delete(`removeUserFrom${name}`, `${path}/permissions/users/:userId`, {
      params: { ...params, userId: EntityId },
      success: [PermissionRemoved, PermissionAbsent],
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get(`listTeamPermissionsIn${name}`, `${path}/permissions/teams`, {
      params,
      query: PageQuery,
      success: ListOf(TeamContentPermission),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.patch(`updateTeamPermissionIn${name}`, `${path}/permissions/teams/:teamId`, {
      params: { ...params, teamId: EntityId },
      payload: PermissionUpdate,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.delete(`removeTeamFrom${name}`, `${path}/permissions/teams/:teamId`, {
      params: { ...params, teamId: EntityId },
      success: [PermissionRemoved, PermissionAbsent],
      error: ApiErrors.Common
    })
  ] as const

export class PermissionsApi extends HttpApiGroup.make("permissions")
  .add(
    ...contentPermissions("Space", "/spaces/:spaceId", { spaceId: EntityId }),
    ...contentPermissions("Collection", "/collections/:collectionId", { collectionId: EntityId })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
