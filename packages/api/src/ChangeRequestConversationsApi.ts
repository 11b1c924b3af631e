/**
 * The agent's conversations in a change request: GitBook's list, rename and delete, and Quire's
 * own reading of one conversation and sending it a message (GitBook's client talks to its agent
 * over a transport of its own; Quire's is this operation), which answers with the agent's reply
 * and the pages it wrote or added.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { ChangeRequest, changeRequestParams } from "./ChangeRequestsApi.ts"
import { EntityId, ListOf, PageQuery, Timestamp } from "./Schemas.ts"
import { BudgetSpent, ModelFailed, NotConfigured } from "./SiteAskApi.ts"

/** GitBook's `AgentConversation`. */
export const AgentConversation = Schema.Struct({
  object: Schema.Literal("agent-conversation"),
  id: Schema.String,
  title: Schema.optionalKey(Schema.String),
  shared: Schema.Boolean,
  /** For an organization agent conversation, the change request it edits in (GitBook's): the latest one its agent opened for an edit asked. */
  changeRequest: Schema.optionalKey(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "AgentConversation" })

/** An edit the agent made for one answer. */
export const AgentEdit = Schema.Struct({
  kind: Schema.Literals(["created", "updated"]),
  page: Schema.String,
  title: Schema.String
}).annotate({ identifier: "AgentEdit" })

/** A message of a conversation (Quire's). */
export const AgentMessage = Schema.Struct({
  role: Schema.Literals(["user", "agent"]),
  text: Schema.String,
  user: Schema.String,
  createdAt: Timestamp,
  edits: Schema.optionalKey(Schema.Array(AgentEdit))
}).annotate({ identifier: "AgentMessage" })

/** A conversation with its messages (Quire's). */
export const AgentConversationWithMessages = Schema.Struct({
  ...AgentConversation.fields,
  messages: Schema.Array(AgentMessage)
}).annotate({ identifier: "AgentConversationWithMessages" })

const conversationParams = { ...changeRequestParams, conversationId: EntityId }

/** DELETE of a conversation: 205, as GitBook answers. */
export const ConversationDeleted = Schema.Literal("deleted").pipe(
  HttpApiSchema.asNoContent({ decode: () => "deleted" as const }),
  HttpApiSchema.status(205)
)

/** One event of a streamed answer (Quire's): the agent's words so far, a tool it calls, then the conversation as stored, or why it failed. */
export const AgentAnswerEvent = Schema.Union([
  Schema.Struct({ type: Schema.Literal("text"), text: Schema.String }),
  Schema.Struct({ type: Schema.Literal("tool"), tool: Schema.String }),
  Schema.Struct({ type: Schema.Literal("done"), conversation: AgentConversationWithMessages, reply: AgentMessage }),
  Schema.Struct({ type: Schema.Literal("error"), code: Schema.Int, message: Schema.String })
]).annotate({ identifier: "AgentAnswerEvent" })
export type AgentAnswerEvent = typeof AgentAnswerEvent.Type

/** What "Write with AI" and "Improve" ask the agent (Quire's). */
export const ComposeRequest = Schema.Struct({
  prompt: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2000)),
  selection: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(20_000))),
  page: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(60_000)))
}).annotate({ identifier: "AgentComposeRequest" })

const noModel = "Sending answers 501 when the server has no model (QUIRE_AI_URL), and 502 when the model fails."

export class ChangeRequestConversationsApi extends HttpApiGroup.make("changeRequestConversations")
  .add(
    HttpApiEndpoint.get("listChangeRequestConversations", "/spaces/:spaceId/change-requests/:changeRequestId/conversations", {
      params: changeRequestParams,
      query: Schema.Struct(PageQuery),
      success: ListOf(AgentConversation),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "List the agent's conversations of a change request",
      description: "The conversations shared in the change request and the caller's own private ones, most recently updated first. Anyone who may read the change request may list them."
    }))
  )
  .add(
    HttpApiEndpoint.get("getChangeRequestConversation", "/spaces/:spaceId/change-requests/:changeRequestId/conversations/:conversationId", {
      params: conversationParams,
      success: AgentConversationWithMessages,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Read a conversation of a change request with its messages", description: "Quire's own." }))
  )
  .add(
    HttpApiEndpoint.post("sendChangeRequestConversationMessage", "/spaces/:spaceId/change-requests/:changeRequestId/conversations/:conversationId/messages", {
      params: conversationParams,
      payload: Schema.Struct({ message: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(8000)) }),
      success: Schema.Struct({ conversation: AgentConversationWithMessages, reply: AgentMessage }),
      error: [...ApiErrors.Common, NotConfigured, ModelFailed, BudgetSpent]
    }).annotateMerge(OpenApi.annotations({
      summary: "Ask the agent in a conversation of a change request",
      description:
        "Quire's own. Starts the conversation (the client chooses its id; GitBook's default one is \"default\") or continues it. The agent reads the change request's pages and writes or adds them " +
        `as the caller, who must be allowed to edit it while it is a draft or open. ${noModel}`
    }))
  )
  .add(
    HttpApiEndpoint.post("streamChangeRequestConversationMessage", "/spaces/:spaceId/change-requests/:changeRequestId/conversations/:conversationId/messages/stream", {
      params: conversationParams,
      payload: Schema.Struct({ message: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(8000)) }),
      success: HttpApiSchema.StreamSse({ data: AgentAnswerEvent }),
      error: [...ApiErrors.Common, NotConfigured]
    }).annotateMerge(OpenApi.annotations({
      summary: "Ask the agent in a change request, its answer streamed",
      description:
        "Quire's own. As sendChangeRequestConversationMessage, as server-sent events: the agent's words so far (`text`), each tool it calls (`tool`), then the conversation " +
        "as stored (`done`), or why the model failed (`error`). What send refuses before asking the model (the caller's role, the message, no model: 501) is an answer, not an event."
    }))
  )
  .add(
    HttpApiEndpoint.post("composeInChangeRequest", "/spaces/:spaceId/change-requests/:changeRequestId/agent/compose", {
      params: changeRequestParams,
      payload: ComposeRequest,
      success: Schema.Struct({ markdown: Schema.String }),
      error: [...ApiErrors.Common, NotConfigured, ModelFailed, BudgetSpent]
    }).annotateMerge(OpenApi.annotations({
      summary: "Have the agent write text for a page of a change request",
      description:
        "Quire's own, behind the editor's \"Write with AI\" (text to insert, from `prompt`) and \"Improve\" (`selection` rewritten as `prompt` asks). `page` is the page around it. " +
        `The caller must be allowed to edit the change request; nothing is written: the editor inserts what the person accepts. ${noModel.replace("Sending", "It")}`
    }))
  )
  .add(
    HttpApiEndpoint.patch("updateChangeRequestConversation", "/spaces/:spaceId/change-requests/:changeRequestId/conversations/:conversationId", {
      params: conversationParams,
      payload: Schema.Struct({ title: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)) }),
      success: AgentConversation,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Rename a conversation of a change request", description: "By its author, or anyone who may edit the change request." }))
  )
  .add(
    HttpApiEndpoint.delete("deleteChangeRequestConversation", "/spaces/:spaceId/change-requests/:changeRequestId/conversations/:conversationId", {
      params: conversationParams,
      success: ConversationDeleted,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({ summary: "Delete a conversation of a change request", description: "By its author, or anyone who may edit the change request. The agent's edits stay in the change request." }))
  )
  .add(
    HttpApiEndpoint.post("writeChangeRequestDetailsWithAgent", "/spaces/:spaceId/change-requests/:changeRequestId/agent/details", {
      params: changeRequestParams,
      success: ChangeRequest,
      error: [...ApiErrors.Common, ApiErrors.Conflict, NotConfigured, ModelFailed, BudgetSpent]
    }).annotateMerge(OpenApi.annotations({
      summary: "Have the agent write the subject and description",
      description:
        "Quire's own. The agent reads the change request's diff and sets its subject and description (GitBook's description document), as the caller, who must be allowed to edit it; " +
        `the audit log records it. Answers the change request. ${noModel}`
    }))
  )
  .add(
    HttpApiEndpoint.post("reviewChangeRequestWithAgent", "/spaces/:spaceId/change-requests/:changeRequestId/agent/review", {
      params: changeRequestParams,
      success: Schema.Struct({
        comments: Schema.Array(Schema.Struct({ id: Schema.String, page: Schema.String, quote: Schema.String })),
        summary: Schema.String
      }),
      error: [...ApiErrors.Common, NotConfigured, ModelFailed, BudgetSpent]
    }).annotateMerge(OpenApi.annotations({
      summary: "Have the agent review a change request",
      description:
        "Quire's own. The agent reads the change request's diff and leaves review comments anchored on the blocks they are about, and a comment summing up, " +
        "each marked as the agent's and posted as the caller (who must be allowed to comment), through the same path as a person's comments; the audit log records the review. " +
        `Answers the comments left and the summary. ${noModel}`
    }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
