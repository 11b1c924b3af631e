/**
 * Handlers of the agent's conversations in a change request (reviews' ChangeRequestAgent): sent
 * and answered whole, or the answer streamed as server-sent events; and the text "Write with AI"
 * and "Improve" ask it for.
 */
import { type Cause, Effect, Queue, Stream } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { type AgentAnswerEvent, Api, modelFailure, NotConfigured } from "@quire/api"
import { Errors, Pagination } from "@quire/kernel"
import { type AgentConversation, type AgentMessage, type AgentProgress, AgentTasks, ChangeRequestAgent } from "@quire/reviews"
import * as ChangeRequestPresenters from "../ChangeRequestPresenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"

const conversationOf = (c: AgentConversation) => ({
  object: "agent-conversation" as const,
  id: c.id,
  ...(c.title === undefined ? {} : { title: c.title }),
  shared: c.shared,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString()
})

const messageOf = (m: AgentMessage) => ({
  role: m.role,
  text: m.text,
  user: m.userId,
  createdAt: m.at,
  ...(m.edits === undefined ? {} : { edits: m.edits.map((e) => ({ kind: e.kind, page: e.pageId, title: e.title })) })
})

type Event = AgentAnswerEvent

/** The status a failure of a streamed answer would have had as an answer. */
const failedCode = { AgentFailed: 502, AgentNotConfigured: 501, Forbidden: 403, NotFound: 404, InvalidInput: 400 } as const

const withMessages = (c: AgentConversation) => ({ ...conversationOf(c), messages: c.messages.map(messageOf) })

export const layer = HttpApiBuilder.group(Api, "changeRequestConversations", Effect.fn(function*(handlers) {
  const agent = yield* ChangeRequestAgent
  const tasks = yield* AgentTasks
  const urls = yield* PublicUrl
  return handlers
    .handle("listChangeRequestConversations", ({ params, query }) =>
      Effect.gen(function*() {
        const all = yield* agent.list(params.spaceId, params.changeRequestId).pipe(DomainErrors.api)
        // Their number is small (a person's few conversations): a page is a slice of the list.
        const limit = Pagination.limitOf(query)
        const offset = query.page === undefined ? 0 : Number((yield* Pagination.decodeCursor(query.page).pipe(DomainErrors.api))[0] ?? 0)
        const items = all.slice(offset, offset + limit)
        const next = offset + limit < all.length ? yield* Pagination.encodeCursor([offset + limit]) : undefined
        return Presenters.list({ items, ...(next === undefined ? {} : { next }) }, conversationOf)
      }))
    .handle("getChangeRequestConversation", ({ params }) =>
      Effect.gen(function*() {
        const all = yield* agent.list(params.spaceId, params.changeRequestId).pipe(DomainErrors.api)
        const found = all.find((c) => c.id === params.conversationId)
        if (found === undefined) return yield* DomainErrors.api(Effect.fail(new Errors.NotFound({ resource: "Conversation", id: params.conversationId })))
        return withMessages(found)
      }))
    .handle("sendChangeRequestConversationMessage", ({ params, payload }) =>
      agent.send(params.spaceId, params.changeRequestId, params.conversationId, payload.message).pipe(
        Effect.catchTags({
          AgentNotConfigured: (e) => Effect.fail(NotConfigured.of(e.message)),
          AgentFailed: (e) => Effect.fail(modelFailure(e.message)),
          NotFound: (e) => DomainErrors.api(Effect.fail(e)),
          Forbidden: (e) => DomainErrors.api(Effect.fail(e)),
          InvalidInput: (e) => DomainErrors.api(Effect.fail(e))
        }),
        Effect.map((sent) => ({ conversation: withMessages(sent.conversation), reply: messageOf(sent.reply) }))
      ))
    .handle("streamChangeRequestConversationMessage", ({ params, payload }) =>
      Effect.gen(function*() {
        // Refused before the model is asked: an answer, not an event.
        yield* agent.check(params.spaceId, params.changeRequestId, params.conversationId, payload.message).pipe(
          Effect.catchTags({
            AgentNotConfigured: (e) => Effect.fail(NotConfigured.of(e.message)),
            NotFound: (e) => DomainErrors.api(Effect.fail(e)),
            Forbidden: (e) => DomainErrors.api(Effect.fail(e)),
            InvalidInput: (e) => DomainErrors.api(Effect.fail(e))
          })
        )
        const events = yield* Queue.unbounded<Event, Cause.Done>()
        const progress = (p: AgentProgress) => Effect.asVoid(Queue.offer(events, p))
        // The answer runs to its end (and is stored) even when the reader goes away.
        yield* agent.send(params.spaceId, params.changeRequestId, params.conversationId, payload.message, progress).pipe(
          Effect.map((sent): Event => ({ type: "done", conversation: withMessages(sent.conversation), reply: messageOf(sent.reply) })),
          Effect.catch((e): Effect.Effect<Event> => Effect.succeed({ type: "error", code: failedCode[e._tag], message: e.message })),
          Effect.flatMap((last) => Queue.offer(events, last)),
          Effect.andThen(Queue.end(events)),
          Effect.forkDetach
        )
        return Stream.fromQueue(events)
      }))
    .handle("composeInChangeRequest", ({ params, payload }) =>
      agent.compose(params.spaceId, params.changeRequestId, { instruction: payload.prompt, selection: payload.selection, page: payload.page }).pipe(
        Effect.catchTags({
          AgentNotConfigured: (e) => Effect.fail(NotConfigured.of(e.message)),
          AgentFailed: (e) => Effect.fail(modelFailure(e.message)),
          NotFound: (e) => DomainErrors.api(Effect.fail(e)),
          Forbidden: (e) => DomainErrors.api(Effect.fail(e)),
          InvalidInput: (e) => DomainErrors.api(Effect.fail(e))
        }),
        Effect.map((markdown) => ({ markdown }))
      ))
    .handle("updateChangeRequestConversation", ({ params, payload }) =>
      agent.rename(params.spaceId, params.changeRequestId, params.conversationId, payload.title).pipe(DomainErrors.api, Effect.map(conversationOf)))
    .handle("deleteChangeRequestConversation", ({ params }) =>
      agent.remove(params.spaceId, params.changeRequestId, params.conversationId).pipe(DomainErrors.api, Effect.as("deleted" as const)))
    .handle("writeChangeRequestDetailsWithAgent", ({ params }) =>
      Effect.gen(function*() {
        const view = yield* tasks.describe(params.spaceId, params.changeRequestId).pipe(
          Effect.catchTags({
            AgentNotConfigured: (e) => Effect.fail(NotConfigured.of(e.message)),
            AgentFailed: (e) => Effect.fail(modelFailure(e.message)),
            NotFound: (e) => DomainErrors.api(Effect.fail(e)),
            Forbidden: (e) => DomainErrors.api(Effect.fail(e)),
            InvalidInput: (e) => DomainErrors.api(Effect.fail(e)),
            Conflict: (e) => DomainErrors.api(Effect.fail(e))
          })
        )
        const presenter = yield* ChangeRequestPresenters.presenter
        return yield* presenter(urls, view.changeRequest, view.outdated)
      }))
    .handle("reviewChangeRequestWithAgent", ({ params }) =>
      tasks.review(params.spaceId, params.changeRequestId).pipe(
        Effect.catchTags({
          AgentNotConfigured: (e) => Effect.fail(NotConfigured.of(e.message)),
          AgentFailed: (e) => Effect.fail(modelFailure(e.message)),
          NotFound: (e) => DomainErrors.api(Effect.fail(e)),
          Forbidden: (e) => DomainErrors.api(Effect.fail(e))
        }),
        Effect.map((result) => ({ comments: result.comments.map((c) => ({ id: c.id, page: c.pageId, quote: c.quote })), summary: result.summary }))
      ))
}))
