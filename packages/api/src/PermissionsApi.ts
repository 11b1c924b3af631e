/** Permissions on spaces and collections: users and teams invited with a role, and who can access them. */
import { type Context, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
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

/** The start of each permission endpoint's operationId, which `name` ends. */
type PermissionOperation =
  | "inviteTo"
  | "listPermissionsAggregateIn"
  | "listUserPermissionsIn"
  | "updateUserPermissionIn"
  | "removeUserFrom"
  | "listTeamPermissionsIn"
  | "updateTeamPermissionIn"
  | "removeTeamFrom"

/**
 * The eight permission endpoints GitBook declares alike for a space and a collection: `name` ends
 * each operationId, `path` is the resource (with its id parameter), `params` declares that id and
 * `docs` holds each endpoint's OpenAPI annotations, by the operationId's start.
 */
const contentPermissions = <const Name extends string, const Path extends `/${string}`, const Params extends Schema.Struct.Fields>(
  name: Name,
  path: Path,
  params: Params,
  docs: Readonly<Record<PermissionOperation, Context.Context<never>>>
) =>
  [
    HttpApiEndpoint.post(`inviteTo${name}`, `${path}/permissions`, {
      params,
      payload: InviteUsersAndTeams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }).annotateMerge(docs.inviteTo),
    HttpApiEndpoint.get(`listPermissionsAggregateIn${name}`, `${path}/permissions/aggregate`, {
      params,
      query: { ...PageQuery, role: Schema.optional(MemberRole) },
      success: ListOf(UserContentPermission),
      error: ApiErrors.Common
    }).annotateMerge(docs.listPermissionsAggregateIn),
    HttpApiEndpoint.get(`listUserPermissionsIn${name}`, `${path}/permissions/users`, {
      params,
      query: PageQuery,
      success: ListOf(UserContentPermission),
      error: ApiErrors.Common
    }).annotateMerge(docs.listUserPermissionsIn),
    HttpApiEndpoint.patch(`updateUserPermissionIn${name}`, `${path}/permissions/users/:userId`, {
      params: { ...params, userId: EntityId },
      payload: PermissionUpdate,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }).annotateMerge(docs.updateUserPermissionIn),
    HttpApiEndpoint.delete(`removeUserFrom${name}`, `${path}/permissions/users/:userId`, {
      params: { ...params, userId: EntityId },
      success: [PermissionRemoved, PermissionAbsent],
      error: ApiErrors.Common
    }).annotateMerge(docs.removeUserFrom),
    HttpApiEndpoint.get(`listTeamPermissionsIn${name}`, `${path}/permissions/teams`, {
      params,
      query: PageQuery,
      success: ListOf(TeamContentPermission),
      error: ApiErrors.Common
    }).annotateMerge(docs.listTeamPermissionsIn),
    HttpApiEndpoint.patch(`updateTeamPermissionIn${name}`, `${path}/permissions/teams/:teamId`, {
      params: { ...params, teamId: EntityId },
      payload: PermissionUpdate,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }).annotateMerge(docs.updateTeamPermissionIn),
    HttpApiEndpoint.delete(`removeTeamFrom${name}`, `${path}/permissions/teams/:teamId`, {
      params: { ...params, teamId: EntityId },
      success: [PermissionRemoved, PermissionAbsent],
      error: ApiErrors.Common
    }).annotateMerge(docs.removeTeamFrom)
  ] as const

export class PermissionsApi extends HttpApiGroup.make("permissions")
  .add(
    ...contentPermissions("Space", "/spaces/:spaceId", { spaceId: EntityId }, {
      inviteTo: OpenApi.annotations({
        summary: "Invite users and teams to a space",
        description: "Grants a role on the space to members (guests included) and teams of its organization; a grant they had there takes the new role. A person's access is the highest of what they inherit and their grants. Needs admin on the space; a user who is not a member or a team of another organization is a 400 naming it.",
        transform: requestExample({ role: "edit", users: ["user-id"], teams: ["team-id"] })
      }),
      listPermissionsAggregateIn: OpenApi.annotations({
        summary: "List who can access a space",
        description: "Every member of the organization who can access the space, with their effective role: organization admins, the inherited level, and the grants to them and their teams on the space and its collections. `role` keeps one role only."
      }),
      listUserPermissionsIn: OpenApi.annotations({
        summary: "List the users invited to a space",
        description: "The users with an explicit grant on the space, in the order they were invited, with the role granted."
      }),
      updateUserPermissionIn: OpenApi.annotations({
        summary: "Change a user's role on a space",
        description: "Sets the role granted to a member on the space; null removes the grant. Needs admin on the space; a user who is not a member is a 404.",
        transform: requestExample({ role: "review" })
      }),
      removeUserFrom: OpenApi.annotations({
        summary: "Remove a user's grant on a space",
        description: "Removes the role granted to the user on the space: 205 when it was removed, 204 when there was none. What they inherit stays."
      }),
      listTeamPermissionsIn: OpenApi.annotations({
        summary: "List the teams invited to a space",
        description: "The teams with an explicit grant on the space, in the order they were invited, with the role granted."
      }),
      updateTeamPermissionIn: OpenApi.annotations({
        summary: "Change a team's role on a space",
        description: "Sets the role granted to a team on the space; null removes the grant. Needs admin on the space.",
        transform: requestExample({ role: "comment" })
      }),
      removeTeamFrom: OpenApi.annotations({
        summary: "Remove a team's grant on a space",
        description: "Removes the role granted to the team on the space: 205 when it was removed, 204 when there was none."
      })
    }),
    ...contentPermissions("Collection", "/collections/:collectionId", { collectionId: EntityId }, {
      inviteTo: OpenApi.annotations({
        summary: "Invite users and teams to a collection",
        description: "Grants a role on the collection, and so on everything inside it, to members (guests included) and teams of its organization. Needs admin on the collection; a user who is not a member or a team of another organization is a 400 naming it.",
        transform: requestExample({ role: "read", teams: ["team-id"] })
      }),
      listPermissionsAggregateIn: OpenApi.annotations({
        summary: "List who can access a collection",
        description: "Every member of the organization who can access the collection, with their effective role. `role` keeps one role only."
      }),
      listUserPermissionsIn: OpenApi.annotations({
        summary: "List the users invited to a collection",
        description: "The users with an explicit grant on the collection, in the order they were invited, with the role granted."
      }),
      updateUserPermissionIn: OpenApi.annotations({
        summary: "Change a user's role on a collection",
        description: "Sets the role granted to a member on the collection; null removes the grant. Needs admin on the collection.",
        transform: requestExample({ role: "edit" })
      }),
      removeUserFrom: OpenApi.annotations({
        summary: "Remove a user's grant on a collection",
        description: "Removes the role granted to the user on the collection: 205 when it was removed, 204 when there was none."
      }),
      listTeamPermissionsIn: OpenApi.annotations({
        summary: "List the teams invited to a collection",
        description: "The teams with an explicit grant on the collection, in the order they were invited, with the role granted."
      }),
      updateTeamPermissionIn: OpenApi.annotations({
        summary: "Change a team's role on a collection",
        description: "Sets the role granted to a team on the collection; null removes the grant. Needs admin on the collection.",
        transform: requestExample({ role: "review" })
      }),
      removeTeamFrom: OpenApi.annotations({
        summary: "Remove a team's grant on a collection",
        description: "Removes the role granted to the team on the collection: 205 when it was removed, 204 when there was none."
      })
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
