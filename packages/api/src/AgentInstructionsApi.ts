/** An organization's agent instructions: what every agent working in the organization is told. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, JSONDocument, Timestamp } from "./Schemas.ts"

/** GitBook's `OrganizationAgentInstructions`. */
export const OrganizationAgentInstructions = Schema.Struct({
  object: Schema.Literal("agent-instructions"),
  instructions: JSONDocument,
  updatedAt: Timestamp,
  /** Who set them last; never set: the organization's creator (`""` when not recorded), with `updatedAt` its creation. */
  updatedBy: Schema.String,
  urls: Schema.Struct({ location: Schema.String })
}).annotate({ identifier: "OrganizationAgentInstructions" })
export type OrganizationAgentInstructions = typeof OrganizationAgentInstructions.Type

export class AgentInstructionsApi extends HttpApiGroup.make("agentInstructions")
  .add(
    /** The organization's agent instructions (members). */
    HttpApiEndpoint.get("getOrganizationAgentInstructions", "/orgs/:organizationId/agent-instructions", {
      params: { organizationId: EntityId },
      success: OrganizationAgentInstructions,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get the organization's agent instructions",
        description: "The instructions every agent working in the organization is given, as a JSON document. Never set, they are an empty document, dated from the organization's creation and attributed to its creator. Any member may read them; a non-member gets 404."
      })),
    /** Replaces the organization's agent instructions (admins). */
    HttpApiEndpoint.put("updateOrganizationAgentInstructions", "/orgs/:organizationId/agent-instructions", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({ instructions: JSONDocument }),
      success: OrganizationAgentInstructions,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update the organization's agent instructions",
        description: "Replaces the instructions with a JSON document (at most 100,000 characters of JSON and 20,000 of text); a malformed node answers 400 naming it. Sending the same document again changes nothing. Needs the admin role."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
