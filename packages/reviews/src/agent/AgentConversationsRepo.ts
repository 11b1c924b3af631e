/** Port: the agent's conversations in change requests. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { AgentConversation } from "./AgentConversation.ts"

export interface AgentConversationsRepoShape {
  readonly get: (changeRequestId: string, id: string) => Effect.Effect<Option.Option<AgentConversation>>
  /** The change request's conversations `viewer` may see (shared ones, and their own), most recently updated first. */
  readonly list: (changeRequestId: string, viewer: string) => Effect.Effect<ReadonlyArray<AgentConversation>>
  /** Stores the conversation (again: it replaces the one stored). */
  readonly put: (conversation: AgentConversation) => Effect.Effect<void>
  /** Removes it: false when there was none. */
  readonly remove: (changeRequestId: string, id: string) => Effect.Effect<boolean>
  readonly removeForSpace: (spaceId: string) => Effect.Effect<void>
}

const keyOf = (changeRequestId: string, id: string) => JSON.stringify([changeRequestId, id])

/** Most recently updated first, ties by id. */
export const byRecency = (a: AgentConversation, b: AgentConversation) =>
  b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export class AgentConversationsRepo extends Context.Service<AgentConversationsRepo, AgentConversationsRepoShape>()("@quire/reviews/AgentConversationsRepo") {
  static readonly layerMemory = Layer.sync(AgentConversationsRepo, () => {
    const stored = new MemoryStore.TxMap<string, AgentConversation>()
    return AgentConversationsRepo.of({
      get: (changeRequestId, id) => Effect.sync(() => Option.fromNullishOr(stored.get(keyOf(changeRequestId, id)))),
      list: (changeRequestId, viewer) =>
        Effect.sync(() =>
          Array.from(stored.values())
            .filter((c) => c.changeRequestId === changeRequestId && (c.shared || c.createdBy === viewer))
            .toSorted(byRecency)
        ),
      put: (conversation) => Effect.sync(() => void stored.set(keyOf(conversation.changeRequestId, conversation.id), conversation)),
      remove: (changeRequestId, id) => Effect.sync(() => stored.delete(keyOf(changeRequestId, id))),
      removeForSpace: (spaceId) =>
        Effect.sync(() => {
          for (const [key, c] of Array.from(stored)) if (c.spaceId === spaceId) stored.delete(key)
        })
    })
  })
}
