/**
 * The first answers to requests sent with an `Idempotency-Key`, per caller and key: a record is
 * claimed when the first request starts (so a concurrent duplicate sees it running), completed
 * with the answer, or abandoned so that the key can be used again.
 */
import { Context, Effect, Layer } from "effect"
import { MemoryStore } from "@quire/kernel"

/** An answer as it is replayed: status, content type and body (base64). */
export interface StoredResponse {
  readonly status: number
  readonly contentType: string
  readonly body: string
}

/** What claiming a key found. */
export type Claim =
  | { readonly _tag: "Started" }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  | { readonly _tag: "Mismatch" }
  | { readonly _tag: "InProgress" }

/** Times that decide whether an existing record still counts (milliseconds since the epoch). */
export interface ClaimTimes {
  readonly now: number
  /** Records created before this are forgotten (24 hours). */
  readonly expiredBefore: number
  /** Records still running created before this are taken to be lost with their process. */
  readonly staleBefore: number
}

const id = (caller: string, key: string) => JSON.stringify([caller, key])

/** Storage of idempotency records. */
export class IdempotencyRepo extends Context.Service<IdempotencyRepo, {
  readonly claim: (caller: string, key: string, fingerprint: string, times: ClaimTimes) => Effect.Effect<Claim>
  readonly complete: (caller: string, key: string, fingerprint: string, response: StoredResponse) => Effect.Effect<void>
  readonly abandon: (caller: string, key: string, fingerprint: string) => Effect.Effect<void>
  /** Deletes the records created before `expiredBefore`; answers how many. */
  readonly purge: (expiredBefore: number) => Effect.Effect<number>
}>()("@quire/gateway/IdempotencyRepo") {
  /** Records in this process. */
  static readonly layerMemory = Layer.sync(IdempotencyRepo, () => {
    interface Entry {
      readonly fingerprint: string
      readonly createdAt: number
      readonly response: StoredResponse | undefined
    }
    const entries = new MemoryStore.TxMap<string, Entry>()
    return IdempotencyRepo.of({
      claim: (caller, key, fingerprint, times) =>
        Effect.sync((): Claim => {
          const existing = entries.get(id(caller, key))
          if (
            existing === undefined || existing.createdAt < times.expiredBefore ||
            (existing.response === undefined && existing.createdAt < times.staleBefore)
          ) {
            entries.set(id(caller, key), { fingerprint, createdAt: times.now, response: undefined })
            return { _tag: "Started" }
          }
          if (existing.fingerprint !== fingerprint) return { _tag: "Mismatch" }
          return existing.response === undefined ? { _tag: "InProgress" } : { _tag: "Replay", response: existing.response }
        }),
      complete: (caller, key, fingerprint, response) =>
        Effect.sync(() => {
          const existing = entries.get(id(caller, key))
          if (existing?.fingerprint === fingerprint && existing.response === undefined) {
            entries.set(id(caller, key), { ...existing, response })
          }
        }),
      abandon: (caller, key, fingerprint) =>
        Effect.sync(() => {
          const existing = entries.get(id(caller, key))
          if (existing?.fingerprint === fingerprint && existing.response === undefined) entries.delete(id(caller, key))
        }),
      purge: (expiredBefore) =>
        Effect.sync(() => {
          let removed = 0
          for (const [entryId, entry] of entries) {
            if (entry.createdAt < expiredBefore) {
              entries.delete(entryId)
              removed++
            }
          }
          return removed
        })
    })
  })
}
