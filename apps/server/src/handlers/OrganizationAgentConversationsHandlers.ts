/** Handlers of a member's conversations with the organization's agent (reviews' OrganizationAgent). */
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api, ApiErrors, BudgetSpent, ModelFailed, modelFailure } from "@quire/api"
import type { OrganizationAskFailure } from "@quire/content"
import { Errors, Pagination } from "@quire/kernel"
import { changeRequestPath, type OrganizationAgentMessage, OrganizationAgent, type OrganizationConversation } from "@quire/reviews"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { callerKey, siteLimits, siteRefused, TrustProxy } from "../RateLimits.ts"

const changeRequestOf = (c: OrganizationConversation) => c.messages.findLast((m) => m.changeRequest !== undefined)?.changeRequest

const conversationOf = (c: OrganizationConversation) => ({
  object: "agent-conversation" as const,
  id: c.id,
  ...(c.title === undefined ? {} : { title: c.title }),
  // A member's own: never shared (GitBook's organization conversations are private to their creator).
  shared: false,
  // GitBook's: the change request the conversation edits in (its latest).
  ...(changeRequestOf(c) === undefined ? {} : { changeRequest: changeRequestOf(c)!.changeRequestId }),
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString()
})

const messageOf = (m: OrganizationAgentMessage) => ({
  role: m.role,
  text: m.text,
  createdAt: m.at,
  ...(m.byModel === undefined ? {} : { byModel: m.byModel }),
  ...(m.sources === undefined ? {} : { sources: m.sources.map((s) => ({ space: s.spaceId, page: s.pageId, title: s.title, path: s.path })) }),
  ...(m.changeRequest === undefined ? {} : {
    changeRequest: { space: m.changeRequest.spaceId, id: m.changeRequest.changeRequestId, number: m.changeRequest.number, subject: m.changeRequest.subject, path: changeRequestPath(m.changeRequest) }
  })
})

const withMessages = (c: OrganizationConversation) => ({ ...conversationOf(c), messages: c.messages.map(messageOf) })

export const layer = HttpApiBuilder.group(Api, "organizationAgentConversations", Effect.fn(function*(handlers) {
  const agent = yield* OrganizationAgent
  const limits = yield* siteLimits
  const trustProxy = yield* Effect.orDie(TrustProxy)
  return handlers
    .handle("listOrganizationAgentConversations", ({ params, query }) =>
      Effect.gen(function*() {
        const all = yield* agent.list(params.organizationId).pipe(DomainErrors.api)
        // A member's few conversations: a page is a slice of the list.
        const limit = Pagination.limitOf(query)
        const offset = query.page === undefined ? 0 : Number((yield* Pagination.decodeCursor(query.page).pipe(DomainErrors.api))[0] ?? 0)
        const items = all.slice(offset, offset + limit)
        const next = offset + limit < all.length ? yield* Pagination.encodeCursor([offset + limit]) : undefined
        return Presenters.list({ items, ...(next === undefined ? {} : { next }) }, conversationOf)
      }))
    .handle("provisionOrganizationAgentConversation", ({ params }) =>
      agent.provision(params.organizationId, params.conversationId).pipe(DomainErrors.api, Effect.as("provisioned" as const)))
    .handle("getOrganizationAgentConversation", ({ params }) =>
      agent.get(params.organizationId, params.conversationId).pipe(DomainErrors.api, Effect.map(withMessages)))
    .handle("sendOrganizationAgentConversationMessage", ({ params, payload }) =>
      Effect.gen(function*() {
        // A message is a question to the organization's Ask: it spends the same budget.
        const refusal = yield* limits.spend("ask", `org:${params.organizationId}`, callerKey(yield* HttpServerRequest.HttpServerRequest, trustProxy))
        if (refusal !== undefined) return siteRefused({ ...refusal, message: refusal.message.replace("on this site", "in this organization") })
        const sent = yield* agent.send(params.organizationId, params.conversationId, payload.message).pipe(
          Effect.catch((failure: OrganizationAskFailure | Errors.NotFound | Errors.InvalidInput): Effect.Effect<never, ApiErrors.NotFound | ApiErrors.BadRequest | ModelFailed | BudgetSpent> =>
            !("kind" in failure) ? DomainErrors.api(Effect.fail(failure))
              : Effect.fail(failure.kind === "BadQuestion" ? ApiErrors.BadRequest.of(failure.message, "message") : modelFailure(failure.message))
          )
        )
        return { conversation: withMessages(sent.conversation), reply: messageOf(sent.reply) }
      }))
    .handle("updateOrganizationAgentConversation", ({ params, payload }) =>
      agent.rename(params.organizationId, params.conversationId, payload.title).pipe(DomainErrors.api, Effect.map(conversationOf)))
    .handle("deleteOrganizationAgentConversation", ({ params }) =>
      Effect.gen(function*() {
        const removed = yield* agent.remove(params.organizationId, params.conversationId).pipe(DomainErrors.api)
        if (!removed) return yield* DomainErrors.api(Effect.fail(new Errors.NotFound({ resource: "Conversation", id: params.conversationId })))
        return "deleted" as const
      }))
}))
