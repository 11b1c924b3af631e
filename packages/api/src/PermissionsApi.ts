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

const space = { spaceId: EntityId }
const collection = { collectionId: EntityId }

export class PermissionsApi extends HttpApiGroup.make("permissions")
  .add(
    HttpApiEndpoint.post("inviteToSpace", "/spaces/:spaceId/permissions", {
      params: space,
      payload: InviteUsersAndTeams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("listPermissionsAggregateInSpace", "/spaces/:spaceId/permissions/aggregate", {
      params: space,
      query: { ...PageQuery, role: Schema.optional(MemberRole) },
      success: ListOf(UserContentPermission),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("listUserPermissionsInSpace", "/spaces/:spaceId/permissions/users", {
      params: space,
      query: PageQuery,
      success: ListOf(UserContentPermission),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.patch("updateUserPermissionInSpace", "/spaces/:spaceId/permissions/users/:userId", {
      params: { ...space, userId: EntityId },
      payload: PermissionUpdate,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.delete("removeUserFromSpace", "/spaces/:spaceId/permissions/users/:userId", {
      params: { ...space, userId: EntityId },
      success: [PermissionRemoved, PermissionAbsent],
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("listTeamPermissionsInSpace", "/spaces/:spaceId/permissions/teams", {
      params: space,
      query: PageQuery,
      success: ListOf(TeamContentPermission),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.patch("updateTeamPermissionInSpace", "/spaces/:spaceId/permissions/teams/:teamId", {
      params: { ...space, teamId: EntityId },
      payload: PermissionUpdate,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.delete("removeTeamFromSpace", "/spaces/:spaceId/permissions/teams/:teamId", {
      params: { ...space, teamId: EntityId },
      success: [PermissionRemoved, PermissionAbsent],
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.post("inviteToCollection", "/collections/:collectionId/permissions", {
      params: collection,
      payload: InviteUsersAndTeams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("listPermissionsAggregateInCollection", "/collections/:collectionId/permissions/aggregate", {
      params: collection,
      query: { ...PageQuery, role: Schema.optional(MemberRole) },
      success: ListOf(UserContentPermission),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("listUserPermissionsInCollection", "/collections/:collectionId/permissions/users", {
      params: collection,
      query: PageQuery,
      success: ListOf(UserContentPermission),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.patch("updateUserPermissionInCollection", "/collections/:collectionId/permissions/users/:userId", {
      params: { ...collection, userId: EntityId },
      payload: PermissionUpdate,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.delete("removeUserFromCollection", "/collections/:collectionId/permissions/users/:userId", {
      params: { ...collection, userId: EntityId },
      success: [PermissionRemoved, PermissionAbsent],
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("listTeamPermissionsInCollection", "/collections/:collectionId/permissions/teams", {
      params: collection,
      query: PageQuery,
      success: ListOf(TeamContentPermission),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.patch("updateTeamPermissionInCollection", "/collections/:collectionId/permissions/teams/:teamId", {
      params: { ...collection, teamId: EntityId },
      payload: PermissionUpdate,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.delete("removeTeamFromCollection", "/collections/:collectionId/permissions/teams/:teamId", {
      params: { ...collection, teamId: EntityId },
      success: [PermissionRemoved, PermissionAbsent],
      error: ApiErrors.Common
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
