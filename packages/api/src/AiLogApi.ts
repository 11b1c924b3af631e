/** Quire's: the organization's AI log, every model call made on its behalf, for its admins. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, PageQuery, Text, Timestamp } from "./Schemas.ts"

/** One call of the model: what it was sent (the prompt, retrieved passages included), offered, answered and called. */
export const AiCall = Schema.Struct({
  object: Schema.Literal("ai-call"),
  id: Schema.String,
  /** The conversation the call was part of (an organization agent's, a change request's), absent for a one-off call. */
  conversation: Schema.optionalKey(Schema.String),
  /** What it was for: `organization-agent`, `change-request-agent`, `ask`, `agent-task`, `styleguide`, `other`. */
  purpose: Schema.String,
  model: Schema.String,
  prompt: Schema.Array(Schema.Struct({ role: Schema.String, content: Schema.String })),
  tools: Schema.Array(Schema.String),
  answer: Schema.String,
  toolCalls: Schema.Array(Schema.Struct({ name: Schema.String, params: Schema.Unknown })),
  tokens: Schema.Int,
  failure: Schema.optionalKey(Schema.String),
  createdAt: Timestamp
}).annotate({ identifier: "AiCall" })
export type AiCall = typeof AiCall.Type

export class AiLogApi extends HttpApiGroup.make("aiLog")
  .add(
    HttpApiEndpoint.get("listOrganizationAiCalls", "/orgs/:organizationId/ai/calls", {
      params: { organizationId: EntityId },
      query: { ...PageQuery, conversation: Schema.optional(Text.check(Schema.isMaxLength(200))) },
      success: ListOf(AiCall),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List the organization's AI calls",
        description: "Quire's. Every call of the model made on the organization's behalf, newest first: the prompt it was sent (instructions, the passages retrieved, the conversation so far; each message cut at 20,000 characters), the tools it was offered, what it answered and which tools it called, its tokens and why it failed. `conversation` keeps one conversation's calls. Needs the admin role."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
