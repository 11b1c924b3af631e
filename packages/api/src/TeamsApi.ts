/** Teams of an organization. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, PageQuery, Text, Timestamp } from "./Schemas.ts"

export const TeamTitle = Text.check(Schema.isMinLength(1), Schema.isMaxLength(64))

export const Team = Schema.Struct({
  object: Schema.Literal("team"),
  id: Schema.String,
  title: Schema.String,
  members: Schema.Finite,
  spaces: Schema.Finite,
  createdAt: Timestamp,
  permissions: Schema.Struct({ admin: Schema.Boolean, view: Schema.Boolean })
})
export type Team = typeof Team.Type

const teamPath = { organizationId: EntityId, teamId: EntityId }

export class TeamsApi extends HttpApiGroup.make("teams")
  .add(
    HttpApiEndpoint.get("listTeamsInOrganizationById", "/orgs/:organizationId/teams", {
      params: { organizationId: EntityId },
      query: {
        ...PageQuery,
        owner: Schema.optional(EntityId),
        title: Schema.optional(Text.check(Schema.isMaxLength(64)))
      },
      success: ListOf(Team),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.put("createOrganizationTeam", "/orgs/:organizationId/teams", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({
        title: TeamTitle,
        members: Schema.optionalKey(Schema.Array(EntityId).check(Schema.isMaxLength(1000)))
      }),
      success: Team.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("getTeamInOrganizationById", "/orgs/:organizationId/teams/:teamId", {
      params: teamPath,
      success: Team,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.patch("updateTeamInOrganizationById", "/orgs/:organizationId/teams/:teamId", {
      params: teamPath,
      payload: Schema.Struct({ title: TeamTitle }),
      success: Team,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.delete("removeTeamFromOrganizationById", "/orgs/:organizationId/teams/:teamId", {
      params: teamPath,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
