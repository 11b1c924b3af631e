/** Handlers of Quire's AI log: the organization's model calls, for its admins. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { type AiCall, Api } from "@quire/api"
import { AiLogs, type StoredAiCall } from "@quire/reviews"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"

const present = (c: StoredAiCall): AiCall => ({
  object: "ai-call",
  id: c.id,
  ...(c.conversationId === null ? {} : { conversation: c.conversationId }),
  purpose: c.purpose,
  model: c.model,
  prompt: c.prompt,
  tools: c.tools,
  answer: c.answer,
  toolCalls: c.toolCalls,
  tokens: Math.round(c.tokens),
  ...(c.failure === null ? {} : { failure: c.failure }),
  createdAt: c.at.toISOString()
})

export const layer = HttpApiBuilder.group(Api, "aiLog", Effect.fn(function*(handlers) {
  const logs = yield* AiLogs
  return handlers.handle("listOrganizationAiCalls", ({ params, query }) =>
    logs.list(params.organizationId, { page: query.page, limit: query.limit, conversationId: query.conversation }).pipe(
      DomainErrors.api,
      Effect.map((page) => Presenters.list(page, present))
    ))
}))
