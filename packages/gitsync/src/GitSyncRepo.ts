/** Port: each space's Git sync record (repository, secrets sealed, last import and export), and the instance's key. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { SyncRun } from "./domain/GitSyncInfo.ts"

/** What Git sync keeps about a space. */
export interface SyncRecord {
  readonly spaceId: string
  /** The repository URL without credentials, as shown. */
  readonly url: string
  /** The URL as given (credentials included), sealed by the SecretBox. */
  readonly urlSealed: string
  readonly ref: string
  readonly projectDirectory: string
  /** Edits of main are exported and push webhooks imported. */
  readonly connected: boolean
  /** The user automatic imports and exports act as (who connected the space). */
  readonly actorId: string | null
  /** The webhook secret, sealed; null until an admin asks for it. */
  readonly webhookSecret: string | null
  readonly lastImport: SyncRun | null
  readonly lastExport: SyncRun | null
  /** The `timestamp` of the newest event applied (import or export): older ones are skipped. */
  readonly lastEventAt: Date | null
  /** The commit of our last push, so that its webhook is not imported back. */
  readonly exportedCommit: string | null
  readonly updatedAt: Date
}

/** A run's new state, with what a successful run moves. */
export interface RunUpdate {
  readonly kind: "import" | "export"
  readonly run: SyncRun
  /** Moves `lastEventAt` to this instant unless it is already later. */
  readonly eventAt?: Date | undefined
  readonly exportedCommit?: string | undefined
}

export interface GitSyncRepoShape {
  readonly find: (spaceId: string) => Effect.Effect<Option.Option<SyncRecord>>
  /** Inserts or replaces the space's record. */
  readonly save: (record: SyncRecord) => Effect.Effect<void>
  /** Sets the last import or export of the space's record (only those columns: concurrent runs lose nothing); nothing without a record. */
  readonly updateRun: (spaceId: string, update: RunUpdate) => Effect.Effect<void>
  /** Removes the space's record and the webhook deliveries it received. */
  readonly remove: (spaceId: string) => Effect.Effect<void>
  /**
   * Records a verified webhook delivery of the space by its keys (its delivery id, its body's
   * digest), forgetting deliveries received before `keepSince`. Answers false when one of the keys
   * was recorded before: a replay, to ignore.
   */
  readonly recordDelivery: (spaceId: string, keys: ReadonlyArray<string>, at: Date, keepSince: Date) => Effect.Effect<boolean>
  /**
   * The key stored in the database (`gitsync_instance_key`), used only by a process that has no
   * instance secret: `candidate` is stored and answered the first time, the stored one after.
   */
  readonly instanceKey: (candidate: string) => Effect.Effect<string>
  /** The key stored in the database by an older Quire, if any. */
  readonly legacyKey: Effect.Effect<Option.Option<string>>
  /**
   * In one transaction: every record's sealed URL and webhook secret that `reseal` answers for is
   * replaced by its answer, then the stored key `legacy` is deleted. Answers how many records changed.
   */
  readonly resealAll: (legacy: string, reseal: (sealed: string) => Option.Option<string>) => Effect.Effect<number>
}

export class GitSyncRepo extends Context.Service<GitSyncRepo, GitSyncRepoShape>()("@quire/gitsync/GitSyncRepo") {
  static readonly layerMemory = Layer.sync(GitSyncRepo, () => {
    const records = new MemoryStore.TxMap<string, SyncRecord>()
    /** Deliveries by `<space>\0<key>`: when they arrived. */
    const deliveries = new MemoryStore.TxMap<string, Date>()
    const key = new MemoryStore.TxRef<string | undefined>(undefined)
    return GitSyncRepo.of({
      find: (spaceId) => Effect.sync(() => Option.fromNullishOr(records.get(spaceId))),
      save: (record) => Effect.sync(() => void records.set(record.spaceId, record)),
      updateRun: (spaceId, update) =>
        Effect.sync(() => {
          const record = records.get(spaceId)
          if (record === undefined) return
          const last = record.lastEventAt
          records.set(spaceId, {
            ...record,
            ...(update.kind === "import" ? { lastImport: update.run } : { lastExport: update.run }),
            ...(update.eventAt === undefined || (last !== null && last >= update.eventAt) ? {} : { lastEventAt: update.eventAt }),
            ...(update.exportedCommit === undefined ? {} : { exportedCommit: update.exportedCommit }),
            updatedAt: update.run.at
          })
        }),
      remove: (spaceId) =>
        Effect.sync(() => {
          records.delete(spaceId)
          for (const id of deliveries.keys()) if (id.startsWith(`${spaceId}\0`)) deliveries.delete(id)
        }),
      recordDelivery: (spaceId, keys, at, keepSince) =>
        Effect.sync(() => {
          for (const [id, received] of deliveries) if (received < keepSince) deliveries.delete(id)
          const ids = keys.map((k) => `${spaceId}\0${k}`)
          const fresh = ids.every((id) => !deliveries.has(id))
          for (const id of ids) if (!deliveries.has(id)) deliveries.set(id, at)
          return fresh
        }),
      instanceKey: (candidate) =>
        Effect.sync(() => {
          const stored = key.get()
          if (stored !== undefined) return stored
          key.set(candidate)
          return candidate
        }),
      legacyKey: Effect.sync(() => Option.fromNullishOr(key.get())),
      resealAll: (legacy, reseal) =>
        Effect.sync(() => {
          if (key.get() !== legacy) return 0
          let changed = 0
          for (const record of Array.from(records.values())) {
            const url = reseal(record.urlSealed)
            const webhook = record.webhookSecret === null ? Option.none<string>() : reseal(record.webhookSecret)
            if (Option.isNone(url) && Option.isNone(webhook)) continue
            records.set(record.spaceId, {
              ...record,
              urlSealed: Option.getOrElse(url, () => record.urlSealed),
              webhookSecret: Option.getOrElse(webhook, () => record.webhookSecret)
            })
            changed++
          }
          key.set(undefined)
          return changed
        })
    })
  })
}
