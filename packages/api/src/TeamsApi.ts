/** Teams of an organization. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
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
}).annotate({ identifier: "Team" })
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
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List teams",
        description: "Lists an organization's teams, paginated. Any member may call it."
      })),
    HttpApiEndpoint.put("createOrganizationTeam", "/orgs/:organizationId/teams", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({
        title: TeamTitle,
        members: Schema.optionalKey(Schema.Array(EntityId).check(Schema.isMaxLength(1000)))
      }),
      success: Team.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a team",
        description: "Creates a team holding exactly the members given (the creator is not added). Needs the admin role.",
        transform: requestExample({ title: "Writers", members: [] })
      })),
    HttpApiEndpoint.get("getTeamInOrganizationById", "/orgs/:organizationId/teams/:teamId", {
      params: teamPath,
      success: Team,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a team",
        description: "Answers one team of an organization. Any member may call it."
      })),
    HttpApiEndpoint.patch("updateTeamInOrganizationById", "/orgs/:organizationId/teams/:teamId", {
      params: teamPath,
      payload: Schema.Struct({ title: TeamTitle }),
      success: Team,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Rename a team",
        description: "Changes a team's title. Needs the admin role."
      })),
    HttpApiEndpoint.delete("removeTeamFromOrganizationById", "/orgs/:organizationId/teams/:teamId", {
      params: teamPath,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a team",
        description: "Deletes a team; its members stay in the organization. Needs the admin role."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
