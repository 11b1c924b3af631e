/**
 * The organization's agent (GitBook's organization agent conversations): a member's private
 * conversations, each answered by the organization's Ask (content's OrganizationAsk) from the
 * pages the member may read and no others, with what was said before and the organization's
 * instructions for its agent. With a model the model writes the answer; without one the answer is
 * the passages found, with their pages: nothing breaks. A conversation is recorded at its first
 * message (provisioning only checks the member and the id, as GitBook records nothing before).
 * A message that asks for an edit is made in a change request (OrganizationEdits), as the member.
 */
import { aiForConversation } from "@quire/outbound"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { ContentAccess, OrganizationAsk, type OrganizationAskFailure } from "@quire/content"
import { Actor, Errors } from "@quire/kernel"
import { conversationBounds } from "./AgentConversation.ts"
import { AgentInstructions } from "./ChangeRequestAgent.ts"
import type { OrganizationAgentMessage, OrganizationConversation } from "./OrganizationConversation.ts"
import { OrganizationConversationsRepo } from "./OrganizationConversationsRepo.ts"
import { OrganizationEdits } from "./OrganizationEdits.ts"

/** How many earlier messages a question is sent with. */
const historyKept = 10

export interface OrganizationSendResult {
  readonly conversation: OrganizationConversation
  readonly reply: OrganizationAgentMessage
}

export interface OrganizationAgentShape {
  /** The caller's conversations, most recently updated first. */
  readonly list: (organizationId: string) => Effect.Effect<ReadonlyArray<OrganizationConversation>, Errors.NotFound, Actor.Actor>
  /** Checks a conversation can be opened (a member, a valid id); records nothing. */
  readonly provision: (organizationId: string, id: string) => Effect.Effect<void, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, id: string) => Effect.Effect<OrganizationConversation, Errors.NotFound, Actor.Actor>
  readonly rename: (organizationId: string, id: string, title: string) => Effect.Effect<OrganizationConversation, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Removes the caller's conversation: false when there was none. */
  readonly remove: (organizationId: string, id: string) => Effect.Effect<boolean, Errors.NotFound, Actor.Actor>
  readonly send: (organizationId: string, id: string, message: string) => Effect.Effect<OrganizationSendResult, Errors.NotFound | Errors.InvalidInput | OrganizationAskFailure, Actor.Actor>
}

const checkId = (id: string) =>
  id.length === 0 || id.length > conversationBounds.id || !/^[A-Za-z0-9_-]+$/.test(id)
    ? Effect.fail(new Errors.InvalidInput({ field: "conversationId", reason: `is 1 to ${conversationBounds.id} letters, digits, - or _` }))
    : Effect.void

/** The question asked as the conversation's title: GitBook's, from the first message. */
export const titleOf = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text)

export class OrganizationAgent extends Context.Service<OrganizationAgent, OrganizationAgentShape>()("@quire/reviews/OrganizationAgent") {
  static readonly layer = Layer.effect(
    OrganizationAgent,
    Effect.gen(function*() {
      const repo = yield* OrganizationConversationsRepo
      const access = yield* ContentAccess
      const asker = yield* OrganizationAsk
      const guidance = yield* AgentInstructions
      const edits = yield* OrganizationEdits

      /** The caller, a member of the organization (NotFound for anyone else, who learns nothing of it). */
      const member = Effect.fnUntraced(function*(organizationId: string) {
        yield* access.organizationMember(organizationId)
        return yield* Actor.Actor
      })

      const find = Effect.fnUntraced(function*(organizationId: string, id: string) {
        const actor = yield* member(organizationId)
        const found = yield* repo.get(organizationId, actor.userId, id)
        if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Conversation", id })
        return found.value
      })

      const list = Effect.fn("OrganizationAgent.list")(function*(organizationId: string) {
        const actor = yield* member(organizationId)
        return yield* repo.list(organizationId, actor.userId)
      })

      const provision = Effect.fn("OrganizationAgent.provision")(function*(organizationId: string, id: string) {
        yield* member(organizationId)
        yield* checkId(id)
      })

      const get = Effect.fn("OrganizationAgent.get")(find)

      const rename = Effect.fn("OrganizationAgent.rename")(function*(organizationId: string, id: string, title: string) {
        const trimmed = title.trim()
        if (trimmed === "" || trimmed.length > conversationBounds.title) {
          return yield* new Errors.InvalidInput({ field: "title", reason: `is 1 to ${conversationBounds.title} characters` })
        }
        const conversation = yield* find(organizationId, id)
        const renamed = { ...conversation, title: trimmed, updatedAt: new Date(yield* Clock.currentTimeMillis) }
        yield* repo.put(renamed)
        return renamed
      })

      const remove = Effect.fn("OrganizationAgent.remove")(function*(organizationId: string, id: string) {
        const actor = yield* member(organizationId)
        return yield* repo.remove(organizationId, actor.userId, id)
      })

      const send = Effect.fn("OrganizationAgent.send")(function*(organizationId: string, id: string, message: string) {
        yield* checkId(id)
        const text = message.trim()
        if (text === "" || text.length > conversationBounds.message) {
          return yield* new Errors.InvalidInput({ field: "message", reason: `is 1 to ${conversationBounds.message} characters` })
        }
        const actor = yield* member(organizationId)
        const existing = yield* repo.get(organizationId, actor.userId, id)
        if (Option.isSome(existing) && existing.value.messages.length + 2 > conversationBounds.messages) {
          return yield* new Errors.InvalidInput({ field: "message", reason: "this conversation is full: start another one" })
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        const conversation: OrganizationConversation = Option.getOrElse(existing, () => ({
          organizationId, userId: actor.userId, id, title: undefined, createdAt: now, updatedAt: now, messages: []
        }))
        const logId = `${actor.userId}:${id}`
        // A request for an edit is made in a change request, with the member's rights; anything else is a question for Ask.
        const edited = yield* edits.edit(organizationId, logId, text)
        const history = conversation.messages.slice(-historyKept).map((m) => ({ role: m.role === "user" ? "user" as const : "assistant" as const, content: m.text }))
        // The answer reads only what this member may read: the Ask runs as them.
        const answer = Option.isSome(edited)
          ? { answer: edited.value.text, byModel: edited.value.byModel, sources: [], changeRequest: edited.value.changeRequest }
          : yield* asker.ask(organizationId, text, { history, instructions: yield* guidance.forOrganization(organizationId) }).pipe(
            // Logged for the admins under the member's conversation (its id is the member's own).
            aiForConversation(logId, "organization-agent")
          )
        const at = new Date(yield* Clock.currentTimeMillis)
        const reply: OrganizationAgentMessage = {
          role: "agent",
          text: answer.answer.slice(0, conversationBounds.message),
          at: at.toISOString(),
          byModel: answer.byModel,
          sources: answer.sources.map((s) => ({ spaceId: s.spaceId, pageId: s.pageId, title: s.title, path: s.path })),
          ...("changeRequest" in answer && answer.changeRequest !== undefined ? { changeRequest: answer.changeRequest } : {})
        }
        const stored: OrganizationConversation = {
          ...conversation,
          title: conversation.title ?? titleOf(text),
          updatedAt: at,
          messages: [...conversation.messages, { role: "user", text, at: now.toISOString() }, reply]
        }
        yield* repo.put(stored)
        return { conversation: stored, reply }
      })

      return OrganizationAgent.of({ list, provision, get, rename, remove, send })
    })
  )
}
