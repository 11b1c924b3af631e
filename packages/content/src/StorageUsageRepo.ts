/**
 * Bytes of file content each organization stores, for its quota: each blob (content-addressed
 * bytes) counts once per organization while any of its spaces holds it, so a duplicated space
 * costs nothing and a purge gives back what only the purged space held. An upload kept for an
 * import holds its bytes the same way, under a holder id of its own (`importUploadHolder`).
 */
import { Config, Context, Effect, Layer } from "effect"
import { MemoryStore } from "@quire/kernel"

/** `QUIRE_ORG_STORAGE_BYTES`: the bytes of files each organization may store. */
export const OrganizationStorageBytes = Config.Number("QUIRE_ORG_STORAGE_BYTES").pipe(Config.withDefault(10 * 1024 ** 3))

/** A blob a space's revisions point to, with its size in bytes. */
export interface HeldBlob {
  readonly blob: string
  readonly size: number
}

export interface StorageUsageRepoShape {
  /**
   * Records that `spaceId`, of `organizationId`, holds `blobs`, and counts the bytes of those no
   * space of the organization held yet, if the organization's total stays at most `limit`: false
   * (and nothing changed) when it would pass it. Atomic: concurrent holds never together pass the
   * limit. Run inside the write's transaction, so that a write that does not land counts nothing.
   */
  readonly hold: (organizationId: string, spaceId: string, blobs: ReadonlyArray<HeldBlob>, limit: number) => Effect.Effect<boolean>
  /** Forgets what the space holds (a purge): the bytes of blobs no other space of its organization holds are given back. */
  readonly releaseSpace: (spaceId: string) => Effect.Effect<void>
  /**
   * A space transferred to `organizationId`: its blobs count against the new organization (past its
   * limit if need be: a transfer is not refused) and leave the old one's count unless another of
   * its spaces holds them.
   */
  readonly moveSpace: (spaceId: string, organizationId: string) => Effect.Effect<void>
  /** The bytes the organization stores (0 when none). */
  readonly used: (organizationId: string) => Effect.Effect<number>
}

const key = (organizationId: string, blob: string) => `${organizationId}\u0000${blob}`

interface SpaceHolding {
  readonly organizationId: string
  readonly blobs: ReadonlyMap<string, number>
}

/** The port of the per-organization count of stored bytes (tables `content_space_blobs`, `content_organization_blobs`, `content_organization_storage`). */
export class StorageUsageRepo extends Context.Service<StorageUsageRepo, StorageUsageRepoShape>()("@quire/content/StorageUsageRepo") {
  static readonly layerMemory = Layer.sync(StorageUsageRepo, () => {
    const bytes = new MemoryStore.TxMap<string, number>()
    const spaces = new MemoryStore.TxMap<string, SpaceHolding>()
    /** Keyed by organization and blob: how many spaces of the organization hold the blob. */
    const holders = new MemoryStore.TxMap<string, { readonly size: number; readonly spaces: number }>()
    const hold = (organizationId: string, spaceId: string, blobs: ReadonlyArray<HeldBlob>, limit: number) =>
      Effect.sync(() => {
        const holding = spaces.get(spaceId)?.blobs ?? new Map<string, number>()
        const added = new Map<string, number>()
        for (const { blob, size } of blobs) if (!holding.has(blob)) added.set(blob, size)
        if (added.size === 0) return true
        let grown = 0
        for (const [blob, size] of added) if (holders.get(key(organizationId, blob)) === undefined) grown += size
        const total = (bytes.get(organizationId) ?? 0) + grown
        if (grown > 0 && total > limit) return false
        for (const [blob, size] of added) {
          const held = holders.get(key(organizationId, blob))
          holders.set(key(organizationId, blob), { size: held?.size ?? size, spaces: (held?.spaces ?? 0) + 1 })
        }
        spaces.set(spaceId, { organizationId, blobs: new Map([...holding, ...added]) })
        if (grown > 0) bytes.set(organizationId, total)
        return true
      })
    const releaseSpace = (spaceId: string) =>
      Effect.sync(() => {
        const holding = spaces.get(spaceId)
        if (holding === undefined) return
        spaces.delete(spaceId)
        let freed = 0
        for (const blob of holding.blobs.keys()) {
          const held = holders.get(key(holding.organizationId, blob))
          if (held === undefined) continue
          if (held.spaces > 1) {
            holders.set(key(holding.organizationId, blob), { ...held, spaces: held.spaces - 1 })
          } else {
            holders.delete(key(holding.organizationId, blob))
            freed += held.size
          }
        }
        const current = bytes.get(holding.organizationId)
        if (current !== undefined && freed > 0) bytes.set(holding.organizationId, Math.max(0, current - freed))
      })
    return StorageUsageRepo.of({
      hold,
      releaseSpace,
      moveSpace: (spaceId, organizationId) =>
        Effect.suspend(() => {
          const holding = spaces.get(spaceId)
          if (holding === undefined || holding.organizationId === organizationId) return Effect.void
          const blobs = Array.from(holding.blobs, ([blob, size]) => ({ blob, size }))
          return Effect.asVoid(Effect.andThen(releaseSpace(spaceId), hold(organizationId, spaceId, blobs, Number.MAX_SAFE_INTEGER)))
        }),
      used: (organizationId) => Effect.sync(() => bytes.get(organizationId) ?? 0)
    })
  })
}
