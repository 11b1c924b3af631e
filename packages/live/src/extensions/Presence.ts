/**
 * What a connection publishes of itself (awareness: its caret, its page) is from its own person,
 * as the server knows them; awareness relayed by another server (through Redis) was rewritten there.
 */
import type { Extension } from "@hocuspocus/server"
import { ownEntries } from "../CollabPresence.ts"
import type { LiveContext } from "./Hooks.ts"

export const presence: Extension<LiveContext> = {
  beforeHandleAwareness: async (data) => {
    const person = data.context?.person
    if (person === undefined) return
    const own = data.connection
    ownEntries(data.states, person, (clientId) =>
      data.document.getConnections().some((other) => other !== own && data.document.getClients(other).has(clientId)))
  }
}
