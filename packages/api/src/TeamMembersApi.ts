/** Members of an organization's teams (GitBook's `team-members` operations). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { TeamMemberRole } from "@quire/identity/domain/Identity"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { Member } from "./MembersApi.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, ListOf, PageQuery, Text } from "./Schemas.ts"

/** A member of a team: their organization membership, their role in the team, what the caller may do. */
export const OrganizationTeamMember = Schema.Struct({
  organization: Member,
  team: Schema.Struct({ role: TeamMemberRole }),
  permissions: Schema.Struct({ view: Schema.Boolean })
})
export type OrganizationTeamMember = typeof OrganizationTeamMember.Type

/** A user named by id or by email, as GitBook's bulk update takes them. */
const UserRef = Text.check(Schema.isMinLength(1), Schema.isMaxLength(255))
const UserRefs = Schema.Array(UserRef).check(Schema.isMaxLength(1000))

const teamPath = { organizationId: EntityId, teamId: EntityId }
const memberPath = { ...teamPath, userId: EntityId }

/** DELETE of a team member: 205 when they were removed, 204 when they were not in the team. */
export const TeamMemberRemoved = Schema.Literal("removed").pipe(
  HttpApiSchema.asNoContent({ decode: () => "removed" as const }),
  HttpApiSchema.status(205)
)
export const TeamMemberAbsent = Schema.Literal("absent").pipe(
  HttpApiSchema.asNoContent({ decode: () => "absent" as const }),
  HttpApiSchema.status(204)
)

export class TeamMembersApi extends HttpApiGroup.make("teamMembers")
  .add(
    /** The team's members, by name. */
    HttpApiEndpoint.get("listTeamMembersInOrganizationById", "/orgs/:organizationId/teams/:teamId/members", {
      params: teamPath,
      query: PageQuery,
      success: ListOf(OrganizationTeamMember),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a team's members",
        description: "Lists a team's members by name, each with their organization membership and their role in the team. Any member with a role may call it."
      })),
    /** Adds, removes and sets roles of several team members at once. */
    HttpApiEndpoint.put("updateMembersInOrganizationTeam", "/orgs/:organizationId/teams/:teamId/members", {
      params: teamPath,
      payload: Schema.Struct({
        add: Schema.optionalKey(UserRefs),
        remove: Schema.optionalKey(UserRefs),
        memberships: Schema.optionalKey(Schema.Record(UserRef, Schema.Struct({ role: TeamMemberRole })))
      }),
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Change a team's members",
        description: "Adds, removes and sets the roles of several team members at once, named by user id or email. Someone both added and removed is removed; added users must be members of the organization. Needs the admin role or ownership of the team.",
        transform: requestExample({ add: ["ada@example.com"], remove: [], memberships: {} })
      })),
    /** Adds a member of the organization to the team, or changes their role in it. */
    HttpApiEndpoint.put("addMemberToOrganizationTeamById", "/orgs/:organizationId/teams/:teamId/members/:userId", {
      params: memberPath,
      // GitBook's body is optional: an empty body (null) adds a `member`, or keeps an existing role.
      payload: [Schema.Struct({ role: Schema.optionalKey(TeamMemberRole) }), Schema.Null],
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Add a team member",
        description: "Adds a member of the organization to a team, or changes their role in it (`owner` or `member`). Needs the admin role or ownership of the team.",
        transform: requestExample({ role: "member" })
      })),
    HttpApiEndpoint.delete("deleteMemberFromOrganizationTeamById", "/orgs/:organizationId/teams/:teamId/members/:userId", {
      params: memberPath,
      success: [TeamMemberRemoved, TeamMemberAbsent],
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Remove a team member",
        description: "Takes a user out of a team: 205 when they were removed, 204 when they were not in it. Needs the admin role or ownership of the team."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
