/**
 * The collaboration server's limits on what a connection sends, counted by when each message
 * reached the server (Hocuspocus handles a connection's messages one after another, each after the
 * last one's store, so a flood sent at once is refused at once however slowly the server stores):
 * awareness messages by size and rate here; updates by size and rate when stored (Persistence).
 */
import type { Extension } from "@hocuspocus/server"
import { type AwarenessLimits, checkAwareness } from "../CollabPresence.ts"
import type { LiveContext } from "./Hooks.ts"

/** When each message reached the server (the server's socket records it). */
export type Arrivals = WeakMap<Uint8Array, number>

export const limits = (options: AwarenessLimits, arrivals: Arrivals): Extension<LiveContext> => ({
  beforeHandleMessage: async (data) => {
    const arrived = arrivals.get(data.update) ?? Date.now()
    if (data.context.collab !== undefined) data.context.collab.arrived = arrived
    const window = data.context.awareness
    const refused = window === undefined ? undefined : checkAwareness(data.update, window, options, arrived)
    if (refused !== undefined) throw refused
  }
})
