/** Port: the organization's AI log (outbound's AiLogEntry, each with its id), newest first. */
import { Context, Effect, Layer } from "effect"
import type { AiLogEntry } from "@quire/outbound"
import { MemoryStore, Pagination } from "@quire/kernel"

export interface StoredAiCall extends AiLogEntry {
  readonly id: string
}

export interface AiLogQuery {
  readonly organizationId: string
  /** Only this conversation's calls. */
  readonly conversationId?: string | undefined
}

export interface AiLogRepoShape {
  readonly insert: (call: StoredAiCall) => Effect.Effect<void>
  /** The calls, newest first, after the cursor's key. */
  readonly list: (query: AiLogQuery, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<StoredAiCall>>
}

/** Sort key: the call's time, then its id (newest first). */
export const callKey = (call: StoredAiCall): Pagination.CursorKey => [call.at.toISOString(), call.id]
export const callKeyShape: Pagination.KeyShape = ["timestamp", "string"]

export class AiLogRepo extends Context.Service<AiLogRepo, AiLogRepoShape>()("@quire/reviews/AiLogRepo") {
  static readonly layerMemory = Layer.sync(AiLogRepo, () => {
    const calls = new MemoryStore.TxMap<string, StoredAiCall>()
    return AiLogRepo.of({
      insert: (call) => Effect.sync(() => void calls.set(call.id, call)),
      list: (query, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(
            Array.from(calls.values()).filter((c) =>
              c.organizationId === query.organizationId && (query.conversationId === undefined || c.conversationId === query.conversationId)
            ),
            callKey,
            { order: "desc", after, limit }
          )
        )
    })
  })
}
