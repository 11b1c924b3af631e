/** Port: share links of sites. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { ShareLink } from "./domain/ShareLink.ts"

export type ShareLinkPatch = Partial<Pick<ShareLink, "name" | "active">>

export interface ShareLinksRepoShape {
  readonly insert: (link: ShareLink) => Effect.Effect<void>
  readonly find: (shareLinkId: string) => Effect.Effect<Option.Option<ShareLink>>
  /** The site's link with this secret, active or not. */
  readonly findBySecret: (siteId: string, secret: string) => Effect.Effect<Option.Option<ShareLink>>
  /** The site's links ordered by (createdAt, id). */
  readonly list: (siteId: string, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<ShareLink>>
  readonly update: (shareLinkId: string, patch: ShareLinkPatch) => Effect.Effect<Option.Option<ShareLink>>
  readonly remove: (shareLinkId: string) => Effect.Effect<void>
  readonly removeSite: (siteId: string) => Effect.Effect<void>
  /** Links stored with their secret in clear (`sealedSecret` null): each gets `seal(secret)`'s, in one transaction; answers how many. */
  readonly sealLegacy: (seal: (secret: string) => { readonly secret: string; readonly sealedSecret: string }) => Effect.Effect<number>
}

export const shareLinkKey = (link: ShareLink): Pagination.CursorKey => [link.createdAt.toISOString(), link.id]
export const shareLinkKeyShape: Pagination.KeyShape = ["timestamp", "string"]

export class ShareLinksRepo extends Context.Service<ShareLinksRepo, ShareLinksRepoShape>()("@quire/sites/ShareLinksRepo") {
  static readonly layerMemory = Layer.sync(ShareLinksRepo, () => {
    const links = new MemoryStore.TxMap<string, ShareLink>()
    return ShareLinksRepo.of({
      insert: (link) => Effect.sync(() => void links.set(link.id, link)),
      find: (id) => Effect.sync(() => Option.fromNullishOr(links.get(id))),
      findBySecret: (siteId, secret) =>
        Effect.sync(() => Option.fromNullishOr(Array.from(links.values()).find((l) => l.siteId === siteId && l.secret === secret))),
      list: (siteId, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(Array.from(links.values()).filter((l) => l.siteId === siteId), shareLinkKey, { order: "asc", after, limit })
        ),
      update: (id, patch) =>
        Effect.sync(() => {
          const found = links.get(id)
          if (found === undefined) return Option.none()
          const next = { ...found, ...patch }
          links.set(id, next)
          return Option.some(next)
        }),
      remove: (id) => Effect.sync(() => void links.delete(id)),
      removeSite: (siteId) =>
        Effect.sync(() => {
          // The site's own links and its change requests' preview links (ShareLinks.previewKey).
          for (const link of Array.from(links.values())) if (link.siteId === siteId || link.siteId.startsWith(`${siteId}~changes~`)) links.delete(link.id)
        }),
      sealLegacy: (seal) =>
        Effect.sync(() => {
          let sealed = 0
          for (const link of Array.from(links.values())) {
            if (link.sealedSecret !== null) continue
            links.set(link.id, { ...link, ...seal(link.secret) })
            sealed++
          }
          return sealed
        })
    })
  })
}
