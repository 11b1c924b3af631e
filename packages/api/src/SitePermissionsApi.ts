/**
 * Site permissions and site users: who may change a site's settings, structure and publishing,
 * granted to members and teams of its organization apart from the spaces the site shows.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { PermissionAbsent, PermissionRemoved, PermissionUpdate } from "./PermissionsApi.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, ListOf, MemberRole, MemberRoleOrGuest, PageQuery, Text, User } from "./Schemas.ts"
import { siteParams } from "./SiteSchemas.ts"
import { Team } from "./TeamsApi.ts"

const prefix = "/orgs/:organizationId/sites/:siteId/permissions"

const Ids = Schema.Array(EntityId).check(Schema.isMinLength(1), Schema.isMaxLength(1000))

/** GitBook's InviteSiteUsersAndTeams: a role on the site for users and teams of the organization (at least one of them). */
export const InviteSiteUsersAndTeams = Schema.Struct({
  role: MemberRoleOrGuest,
  users: Schema.optionalKey(Ids),
  teams: Schema.optionalKey(Ids)
})

/** GitBook's UserSitePermissionOrigin: the organization, or the site (a grant to the member, to a team, or the members' default). */
export const UserSitePermissionOrigin = Schema.Union([
  Schema.Struct({ type: Schema.Literal("organization"), organization: Schema.String }),
  Schema.Struct({
    type: Schema.Literal("site"),
    site: Schema.String,
    reason: Schema.Literals(["member", "team", "default"]),
    team: Schema.optionalKey(Schema.String)
  })
])
export type UserSitePermissionOrigin = typeof UserSitePermissionOrigin.Type

/** GitBook's UserSitePermission: a member's effective role on a site and where it comes from. */
export const UserSitePermission = Schema.Struct({
  permission: MemberRole,
  user: User,
  origin: UserSitePermissionOrigin,
  disabled: Schema.Boolean
})
export type UserSitePermission = typeof UserSitePermission.Type

/** GitBook's UserSitePermissionOverride: a role granted to a user on a site. */
export const UserSitePermissionOverride = Schema.Struct({ permission: MemberRole, user: User })
export type UserSitePermissionOverride = typeof UserSitePermissionOverride.Type

/** GitBook's TeamSitePermissionOverride: a role granted to a team on a site. */
export const TeamSitePermissionOverride = Schema.Struct({ permission: MemberRole, team: Team })
export type TeamSitePermissionOverride = typeof TeamSitePermissionOverride.Type

/** GitBook's `site-permissions` tag: inviting to a site, and the teams' grants. */
export class SitePermissionsApi extends HttpApiGroup.make("sitePermissions")
  .add(
    HttpApiEndpoint.post("inviteToSite", prefix, {
      params: siteParams,
      payload: InviteSiteUsersAndTeams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Invite users and teams to a site",
      description: "Grants a role on the site to members and teams of its organization; a grant they had there takes the new role. `edit` and above may change the site's settings, structure and publishing, `admin` also who may. Needs the site role `admin` (organization admins have it). A user who is not a member (or a guest), or a team of another organization, is a 400 naming it.",
      transform: requestExample({ role: "edit", users: ["user-id"] })
    })),
    HttpApiEndpoint.get("listTeamPermissionsInSite", `${prefix}/teams`, {
      params: siteParams,
      query: PageQuery,
      success: ListOf(TeamSitePermissionOverride),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "List the teams invited to a site",
      description: "The teams with a role on the site, in the order they were invited."
    })),
    HttpApiEndpoint.patch("updateTeamPermissionInSite", `${prefix}/teams/:teamId`, {
      params: { ...siteParams, teamId: EntityId },
      payload: PermissionUpdate,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Change a team's role on a site",
      description: "Sets the role granted to a team on the site; null removes the grant. Needs the site role `admin`.",
      transform: requestExample({ role: "edit" })
    })),
    HttpApiEndpoint.delete("removeTeamFromSite", `${prefix}/teams/:teamId`, {
      params: { ...siteParams, teamId: EntityId },
      success: [PermissionRemoved, PermissionAbsent],
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Remove a team's grant on a site",
      description: "Removes the role granted to the team on the site: 205 when it was removed, 204 when there was none."
    }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}

/** GitBook's `site-users` tag: who can access a site, and the users' grants. */
export class SiteUsersApi extends HttpApiGroup.make("siteUsers")
  .add(
    HttpApiEndpoint.get("listPermissionsAggregateInSite", `${prefix}/aggregate`, {
      params: siteParams,
      query: {
        ...PageQuery,
        role: Schema.optional(Schema.Union([MemberRole, Schema.Literal("guest")])),
        team: Schema.optional(EntityId),
        search: Schema.optional(Text.check(Schema.isMaxLength(255)))
      },
      success: ListOf(UserSitePermission),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "List who can access a site",
      description: "Every member of the organization with their role on the site, in the order they joined, and where it comes from: the organization (its admins), a grant to them or to a team, or the members' default (read). `role` keeps one role (`guest` keeps none: guests have no site role), `team` one team's members, `search` those whose name or email contains it."
    })),
    HttpApiEndpoint.get("listUserPermissionsInSite", `${prefix}/users`, {
      params: siteParams,
      query: PageQuery,
      success: ListOf(UserSitePermissionOverride),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "List the users invited to a site",
      description: "The users with a role granted on the site, in the order they were invited."
    })),
    HttpApiEndpoint.patch("updateUserPermissionInSite", `${prefix}/users/:userId`, {
      params: { ...siteParams, userId: EntityId },
      payload: PermissionUpdate,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Change a user's role on a site",
      description: "Sets the role granted to a member on the site; null removes the grant. Needs the site role `admin`; a user who is not a member is a 404.",
      transform: requestExample({ role: "admin" })
    })),
    HttpApiEndpoint.delete("removeUserFromSite", `${prefix}/users/:userId`, {
      params: { ...siteParams, userId: EntityId },
      success: [PermissionRemoved, PermissionAbsent],
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Remove a user's grant on a site",
      description: "Removes the role granted to the user on the site: 205 when it was removed, 204 when there was none. What the organization gives them stays."
    }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
