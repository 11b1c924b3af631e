/** Organization members. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { MemberRoleFilter, MemberSort, TeamMemberRole } from "@quire/identity/domain/Identity"
import { EntityId, ListOf, MemberRoleOrGuest, Order, PageQuery, Text, Timestamp, User } from "./Schemas.ts"
import { Team } from "./TeamsApi.ts"

export const Member = Schema.Struct({
  object: Schema.Literal("member"),
  id: Schema.String,
  role: MemberRoleOrGuest,
  user: User,
  disabled: Schema.Boolean,
  joinedAt: Timestamp,
  lastSeenAt: Schema.optionalKey(Timestamp),
  sso: Schema.Boolean,
  spaces: Schema.Finite,
  teams: Schema.Finite,
  sites: Schema.Finite
}).annotate({ identifier: "Member" })
export type Member = typeof Member.Type

const memberPath = { organizationId: EntityId, userId: EntityId }

export class MembersApi extends HttpApiGroup.make("members")
  .add(
    HttpApiEndpoint.get("listMembersInOrganizationById", "/orgs/:organizationId/members", {
      params: { organizationId: EntityId },
      query: {
        ...PageQuery,
        order: Schema.optional(Order),
        role: Schema.optional(MemberRoleFilter),
        search: Schema.optional(Text.check(Schema.isMaxLength(255))),
        sort: Schema.optional(MemberSort)
      },
      success: ListOf(Member),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List members",
        description: "Lists the members of an organization with their roles, paginated. Any member may call it."
      })),
    HttpApiEndpoint.get("getMemberInOrganizationById", "/orgs/:organizationId/members/:userId", {
      params: memberPath,
      success: Member,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a member",
        description: "Answers one member of an organization and their role. Any member may call it."
      })),
    HttpApiEndpoint.patch("updateMemberInOrganizationById", "/orgs/:organizationId/members/:userId", {
      params: memberPath,
      payload: Schema.Struct({ role: Schema.optionalKey(MemberRoleOrGuest) }),
      success: Member,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Change a member's role",
        description: "Changes a member's role in the organization. Needs the admin role; the last administrator cannot be demoted."
      })),
    HttpApiEndpoint.delete("removeMemberFromOrganizationById", "/orgs/:organizationId/members/:userId", {
      params: memberPath,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Remove a member",
        description: "Removes a person from an organization, with their team memberships. Needs the admin role, or is the member leaving."
      })),
    /** Marks the member as managed by the organization's SSO. */
    HttpApiEndpoint.post("setUserAsSSOMemberForOrganization", "/orgs/:organizationId/members/:userId/sso", {
      params: memberPath,
      success: Member,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Mark a member as SSO",
        description: "Records that a member signs in through the organization's single sign-on. Needs the admin role."
      })),
    HttpApiEndpoint.get("listTeamsForOrganizationMember", "/orgs/:organizationId/members/:userId/teams", {
      params: memberPath,
      query: { ...PageQuery, title: Schema.optional(Text.check(Schema.isMaxLength(64))) },
      success: ListOf(Schema.Struct({
        team: Team,
        member: Schema.Struct({ role: TeamMemberRole })
      })),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a member's teams",
        description: "Lists the teams of the organization a member belongs to. Any member may call it."
      })),
    /** Records the caller's presence; answers their membership and signed visitor claims. */
    HttpApiEndpoint.post("updateOrganizationMemberLastSeenAt", "/orgs/:organizationId/ping", {
      params: { organizationId: EntityId },
      success: Schema.Struct({ ...Member.fields, serviceVisitorClaims: Schema.String }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Record activity",
        description: "Marks the caller as seen now in the organization, which member listings show."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
