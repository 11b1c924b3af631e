/** Organization members. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
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
})
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
    }),
    HttpApiEndpoint.get("getMemberInOrganizationById", "/orgs/:organizationId/members/:userId", {
      params: memberPath,
      success: Member,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.patch("updateMemberInOrganizationById", "/orgs/:organizationId/members/:userId", {
      params: memberPath,
      payload: Schema.Struct({ role: Schema.optionalKey(MemberRoleOrGuest) }),
      success: Member,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.delete("removeMemberFromOrganizationById", "/orgs/:organizationId/members/:userId", {
      params: memberPath,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    /** Marks the member as managed by the organization's SSO. */
    HttpApiEndpoint.post("setUserAsSSOMemberForOrganization", "/orgs/:organizationId/members/:userId/sso", {
      params: memberPath,
      success: Member,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("listTeamsForOrganizationMember", "/orgs/:organizationId/members/:userId/teams", {
      params: memberPath,
      query: { ...PageQuery, title: Schema.optional(Text.check(Schema.isMaxLength(64))) },
      success: ListOf(Schema.Struct({
        team: Team,
        member: Schema.Struct({ role: TeamMemberRole })
      })),
      error: ApiErrors.Common
    }),
    /** Records the caller's presence; answers their membership and signed visitor claims. */
    HttpApiEndpoint.post("updateOrganizationMemberLastSeenAt", "/orgs/:organizationId/ping", {
      params: { organizationId: EntityId },
      success: Schema.Struct({ ...Member.fields, serviceVisitorClaims: Schema.String }),
      error: ApiErrors.Common
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
