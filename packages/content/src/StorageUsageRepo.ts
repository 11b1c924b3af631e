/**
 * Bytes of file content each organization has stored (uploads, files by URL, templates), counted
 * when they are stored, so that a per-organization quota can refuse what would exceed it.
 */
import { Context, Effect, Layer } from "effect"
import { MemoryStore } from "@quire/kernel"

export interface StorageUsageRepoShape {
  /**
   * Adds `bytes` to the organization's count if the total stays at most `limit`: true when added,
   * false (and nothing changed) when it would exceed it. Atomic: concurrent reservations never
   * together pass the limit.
   */
  readonly reserve: (organizationId: string, bytes: number, limit: number) => Effect.Effect<boolean>
  /** Takes `bytes` off the organization's count (never below 0): what a write that did not land had reserved. */
  readonly release: (organizationId: string, bytes: number) => Effect.Effect<void>
  /** The bytes the organization has stored (0 when none). */
  readonly used: (organizationId: string) => Effect.Effect<number>
}

/** The port of the per-organization count of stored bytes (table `content_organization_storage`). */
export class StorageUsageRepo extends Context.Service<StorageUsageRepo, StorageUsageRepoShape>()("@quire/content/StorageUsageRepo") {
  static readonly layerMemory = Layer.sync(StorageUsageRepo, () => {
    const bytes = new MemoryStore.TxMap<string, number>()
    return StorageUsageRepo.of({
      reserve: (organizationId, added, limit) =>
        Effect.sync(() => {
          const total = (bytes.get(organizationId) ?? 0) + added
          if (total > limit) return false
          bytes.set(organizationId, total)
          return true
        }),
      release: (organizationId, released) =>
        Effect.sync(() => {
          const current = bytes.get(organizationId)
          if (current !== undefined) bytes.set(organizationId, Math.max(0, current - released))
        }),
      used: (organizationId) => Effect.sync(() => bytes.get(organizationId) ?? 0)
    })
  })
}
