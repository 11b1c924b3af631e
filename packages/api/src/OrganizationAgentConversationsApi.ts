/**
 * A member's conversations with the organization's agent: GitBook's list, provision, rename and
 * delete, and Quire's own reading of one conversation and sending it a message, which the agent
 * answers from the pages the member may read (as the organization's Ask does), following the
 * organization's agent instructions. A conversation is its member's alone: nobody else lists,
 * reads or changes it.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { AgentConversation, ConversationDeleted } from "./ChangeRequestConversationsApi.ts"
import { EntityId, ListOf, PageQuery, Timestamp } from "./Schemas.ts"
import { BudgetSpent, ModelFailed } from "./SiteAskApi.ts"

const params = { organizationId: EntityId }
const conversationParams = { organizationId: EntityId, conversationId: EntityId }
const prefix = "/orgs/:organizationId/agent/conversations"

/** A page an answer of the organization's agent stands on (Quire's). */
export const OrganizationAgentSource = Schema.Struct({
  space: Schema.String,
  page: Schema.String,
  title: Schema.String,
  /** The page in the app. */
  path: Schema.String
}).annotate({ identifier: "OrganizationAgentSource" })

/** A message of a conversation with the organization's agent (Quire's). */
export const OrganizationAgentMessage = Schema.Struct({
  role: Schema.Literals(["user", "agent"]),
  text: Schema.String,
  createdAt: Timestamp,
  /** For the agent's: whether a model wrote it (else it quotes the passages found). */
  byModel: Schema.optionalKey(Schema.Boolean),
  sources: Schema.optionalKey(Schema.Array(OrganizationAgentSource)),
  /** For the agent's: the change request it opened, as the member, and wrote the edit asked for in. */
  changeRequest: Schema.optionalKey(Schema.Struct({
    space: Schema.String,
    id: Schema.String,
    number: Schema.Finite,
    subject: Schema.String,
    /** The change request in the app. */
    path: Schema.String
  }))
}).annotate({ identifier: "OrganizationAgentMessage" })
export type OrganizationAgentMessage = typeof OrganizationAgentMessage.Type

/** A conversation with the organization's agent and its messages (Quire's). */
export const OrganizationAgentConversation = Schema.Struct({
  ...AgentConversation.fields,
  messages: Schema.Array(OrganizationAgentMessage)
}).annotate({ identifier: "OrganizationAgentConversation" })

/** PUT of a conversation: 204, as GitBook answers. */
export const ConversationProvisioned = Schema.Literal("provisioned").pipe(
  HttpApiSchema.asNoContent({ decode: () => "provisioned" as const }),
  HttpApiSchema.status(204)
)

export class OrganizationAgentConversationsApi extends HttpApiGroup.make("organizationAgentConversations")
  .add(
    HttpApiEndpoint.get("listOrganizationAgentConversations", prefix, {
      params,
      query: Schema.Struct(PageQuery),
      success: ListOf(AgentConversation),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "List your conversations with the organization's agent",
      description: "The caller's own conversations, most recently updated first; nobody else's. Any member may call it."
    }))
  )
  .add(
    HttpApiEndpoint.put("provisionOrganizationAgentConversation", `${prefix}/:conversationId`, {
      params: conversationParams,
      success: ConversationProvisioned,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Prepare a conversation with the organization's agent",
      description: "Checks the caller is a member and the id (1 to 100 letters, digits, - or _). Records nothing: the conversation is kept from its first message."
    }))
  )
  .add(
    HttpApiEndpoint.get("getOrganizationAgentConversation", `${prefix}/:conversationId`, {
      params: conversationParams,
      success: OrganizationAgentConversation,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Read a conversation with the organization's agent", description: "Quire's own." }))
  )
  .add(
    HttpApiEndpoint.post("sendOrganizationAgentConversationMessage", `${prefix}/:conversationId/messages`, {
      params: conversationParams,
      payload: Schema.Struct({ message: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(8000)) }),
      success: Schema.Struct({ conversation: OrganizationAgentConversation, reply: OrganizationAgentMessage }),
      error: [...ApiErrors.Common, ModelFailed, BudgetSpent]
    }).annotateMerge(OpenApi.annotations({
      summary: "Ask the organization's agent in a conversation",
      description:
        "Quire's own. Starts the caller's conversation (the client chooses its id) or continues it. The agent answers from the pages of the spaces the caller may read, " +
        "with what was said before and the organization's agent instructions. Without a model (QUIRE_AI_URL unset) the answer quotes the passages that best match, with their pages; 502 when the model fails. " +
          "With a model, a message that asks for an edit (it starts with fix, change, add, rewrite…) is made in a new change request of a space the caller may edit, as the caller, " +
          "by the change request's agent; the answer links it (`changeRequest`). A caller who may edit no space is told so in the answer, and nothing is changed."
    }))
  )
  .add(
    HttpApiEndpoint.patch("updateOrganizationAgentConversation", `${prefix}/:conversationId`, {
      params: conversationParams,
      payload: Schema.Struct({ title: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)) }),
      success: AgentConversation,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Rename a conversation with the organization's agent", description: "Only its member's." }))
  )
  .add(
    HttpApiEndpoint.delete("deleteOrganizationAgentConversation", `${prefix}/:conversationId`, {
      params: conversationParams,
      success: ConversationDeleted,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Delete a conversation with the organization's agent", description: "With its messages; it cannot be undone. 205 when there was one, 404 when not." }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
