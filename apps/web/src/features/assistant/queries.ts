/**
 * The organization assistant's queries and writes: the person's own conversations (reactivity key
 * `assistant:<org>`) and one conversation with its messages (`assistant:<org>:<id>`).
 */
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"

export const conversationsKey = (organizationId: string) => `assistant:${organizationId}`
export const conversationKey = (organizationId: string, id: string) => `assistant:${organizationId}:${id}`

export const conversationsAtom = Atom.family((organizationId: string) =>
  QuireApi.query("organizationAgentConversations", "listOrganizationAgentConversations", {
    params: { organizationId },
    query: { limit: 100 },
    reactivityKeys: [conversationsKey(organizationId)]
  }))

/** A conversation, by `<org>\n<id>`. */
export const conversationAtom = Atom.family((key: string) => {
  const [organizationId = "", conversationId = ""] = key.split("\n")
  return QuireApi.query("organizationAgentConversations", "getOrganizationAgentConversation", {
    params: { organizationId, conversationId },
    reactivityKeys: [conversationKey(organizationId, conversationId)]
  })
})

export const sendMessage = QuireApi.mutation("organizationAgentConversations", "sendOrganizationAgentConversationMessage")
export const renameConversation = QuireApi.mutation("organizationAgentConversations", "updateOrganizationAgentConversation")
export const deleteConversation = QuireApi.mutation("organizationAgentConversations", "deleteOrganizationAgentConversation")

/** A new conversation's id, chosen by the client as GitBook's are. */
export const newConversationId = () => `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
