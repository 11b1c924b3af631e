/**
 * A shared document's storage: loaded from the stored state and updates (or made from the page's
 * markdown), each update checked and in PostgreSQL before it is applied and acknowledged, the
 * document let go when its last connection leaves. A page too large to edit live is open read-only
 * to everyone, and each connection is told why.
 */
import type { Extension } from "@hocuspocus/server"
import { Effect } from "effect"
import { type CollabDocuments, type ConnectionState, Refused } from "../CollabDocuments.ts"
import type { LiveContext, Run } from "./Hooks.ts"

export interface PersistenceOptions<C extends LiveContext, R> {
  readonly documents: CollabDocuments
  readonly run: Run<R>
  /** A connection's access is checked again before every this many of its updates. */
  readonly recheckEveryUpdates: number
  /** Checks the connection's access again: the reason to close it with, or none. */
  readonly recheck: (connection: C) => Effect.Effect<string | undefined, never, R>
}

export const persistence = <C extends LiveContext, R>(options: PersistenceOptions<C, R>): Extension<C> => {
  const { documents, run } = options
  return {
    onLoadDocument: async (data) => {
      // A presence document starts empty each time and stays so.
      if (data.context.presence !== undefined) return
      const collab: ConnectionState = data.context.collab!
      const loaded = await run(documents.load(collab.opened, collab.actor), "unavailable: the server could not open this page for live editing")
      if (loaded.readOnly !== undefined) data.connectionConfig.readOnly = true
      if (loaded.stale) {
        // Edits stored before the server stopped, not yet in the page's markdown.
        setImmediate(() => void run(documents.writeMarkdown(data.documentName, data.document)).catch(() => {}))
      }
      return loaded.state
    },
    // Each connection to a page open read-only to everyone is told why (the editor shows it).
    connected: async (data) => {
      const why = documents.readOnlyReason(data.documentName)
      if (why === undefined) return
      data.connection.readOnly = true
      data.connection.sendStateless(why)
    },
    beforeSync: async (data) => {
      // SyncStep1 carries a state vector; a read-only connection's updates are refused by Hocuspocus.
      if (data.type === 0 || data.connection.readOnly) return
      const update = data.payload
      if (update.length === 2 && update[0] === 0 && update[1] === 0) return
      // Made writable again by a check of access, a connection to a page open read-only still types nothing.
      const readOnly = documents.readOnlyReason(data.documentName)
      if (readOnly !== undefined) throw new Refused(readOnly)
      const connection = data.context
      const collab = connection.collab!
      await run(Effect.gen(function*() {
        if (collab.updates > 0 && collab.updates % options.recheckEveryUpdates === 0) {
          const close = yield* options.recheck(connection)
          if (close !== undefined) return yield* Effect.fail(new Refused(close))
        }
        yield* documents.store(data.documentName, collab, update, data.document)
      }))
    },
    afterUnloadDocument: (data) => run(documents.unload(data.documentName))
  }
}
