/** Port: members' conversations with the organization's agent, each one member's own. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { OrganizationConversation } from "./OrganizationConversation.ts"

export interface OrganizationConversationsRepoShape {
  readonly get: (organizationId: string, userId: string, id: string) => Effect.Effect<Option.Option<OrganizationConversation>>
  /** The member's conversations in the organization, most recently updated first (ties by id). */
  readonly list: (organizationId: string, userId: string) => Effect.Effect<ReadonlyArray<OrganizationConversation>>
  /** Stores the conversation (again: it replaces the one stored). */
  readonly put: (conversation: OrganizationConversation) => Effect.Effect<void>
  /** Removes it: false when there was none. */
  readonly remove: (organizationId: string, userId: string, id: string) => Effect.Effect<boolean>
  /** Removes every conversation of a member in the organization (they left it). */
  readonly removeMember: (organizationId: string, userId: string) => Effect.Effect<void>
}

const keyOf = (organizationId: string, userId: string, id: string) => JSON.stringify([organizationId, userId, id])

const byRecency = (a: OrganizationConversation, b: OrganizationConversation) =>
  b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export class OrganizationConversationsRepo extends Context.Service<OrganizationConversationsRepo, OrganizationConversationsRepoShape>()("@quire/reviews/OrganizationConversationsRepo") {
  static readonly layerMemory = Layer.sync(OrganizationConversationsRepo, () => {
    const stored = new MemoryStore.TxMap<string, OrganizationConversation>()
    return OrganizationConversationsRepo.of({
      get: (organizationId, userId, id) => Effect.sync(() => Option.fromNullishOr(stored.get(keyOf(organizationId, userId, id)))),
      list: (organizationId, userId) =>
        Effect.sync(() => Array.from(stored.values()).filter((c) => c.organizationId === organizationId && c.userId === userId).toSorted(byRecency)),
      put: (c) => Effect.sync(() => void stored.set(keyOf(c.organizationId, c.userId, c.id), c)),
      remove: (organizationId, userId, id) => Effect.sync(() => stored.delete(keyOf(organizationId, userId, id))),
      removeMember: (organizationId, userId) =>
        Effect.sync(() => {
          for (const [key, c] of Array.from(stored)) if (c.organizationId === organizationId && c.userId === userId) stored.delete(key)
        })
    })
  })
}
