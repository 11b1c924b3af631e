/**
 * A shared document written back to its page's markdown: after typing pauses, and at least so
 * often while it goes on (Hocuspocus's debounced store). A write that failed (the database,
 * another server's write to the change request at that moment) is tried again a little later, a
 * few times, as nothing else may store these edits; one refused because the page or the change
 * request moved on checks its connections' access, which closes them in words.
 */
import { isTransactionOrigin, type Extension } from "@hocuspocus/server"
import { Effect, Option } from "effect"
import { presenceOf } from "@quire/reviews"
import type { CollabDocuments } from "../CollabDocuments.ts"
import type { LiveContext, Run, ServerState } from "./Hooks.ts"

/** How many times in a row a failed write of a document's markdown is tried again. */
const writeRetries = 5

export interface WriteBackOptions<R> {
  readonly documents: CollabDocuments
  readonly run: Run<R>
  readonly state: ServerState
  /** Checks again the access of every connection to the change request's documents. */
  readonly recheckChangeRequest: (changeRequestId: string) => Effect.Effect<void, never, R>
}

export const writeBack = <R>(options: WriteBackOptions<R>): Extension<LiveContext> => {
  const { documents, run, state } = options
  /** Documents whose last writes failed, and how many times in a row. */
  const failed = new Map<string, number>()
  return {
    // Hocuspocus stores a document after its own connections' edits only. With Redis, the server
    // holding the store lock may have written before another server's last edits reached it, and
    // that server's own store was skipped for the lock: so an edit relayed here schedules this
    // server's (debounced) store too, and whichever server stores last writes every edit.
    onChange: async (data) => {
      if (state.stopping || !isTransactionOrigin(data.transactionOrigin) || data.transactionOrigin.source !== "redis") return
      void data.instance.storeDocumentHooks(data.document, {
        clientsCount: data.clientsCount,
        document: data.document,
        lastContext: data.context,
        lastTransactionOrigin: data.transactionOrigin,
        documentName: data.documentName,
        instance: data.instance
      }).catch(() => {})
    },
    onStoreDocument: async (data) => {
      if (state.stopping || Option.isSome(presenceOf(data.documentName))) return
      const done = await run(Effect.tap(documents.writeMarkdown(data.documentName, data.document), () => documents.compact(data.documentName)))
        .catch(() => false)
      // A write refused because the page or the change request moved on closes its connections in words.
      if (!done) await run(options.recheckChangeRequest(data.documentName.split("/")[0]!)).catch(() => {})
      const failures = done ? 0 : (failed.get(data.documentName) ?? 0) + 1
      if (failures === 0 || failures > writeRetries) {
        failed.delete(data.documentName)
        return
      }
      failed.set(data.documentName, failures)
      setTimeout(() => {
        if (!state.stopping && data.instance.documents.get(data.documentName) === data.document) {
          void data.instance.storeDocumentHooks(data.document, data).catch(() => {})
        }
      }, 500 * 2 ** failures).unref()
    },
    afterUnloadDocument: async (data) => {
      failed.delete(data.documentName)
    }
  }
}
