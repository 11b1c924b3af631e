/** Port: the redirects of sites (live and draft, one of each per source). */
import { Context, Effect, Layer, Option } from "effect"
import { compareCodePoints, MemoryStore, Pagination } from "@quire/kernel"
import { type RedirectOrder, RedirectTaken, type SiteRedirect, wildcardPrefix } from "./domain/Redirect.ts"

export type RedirectPatch = Partial<Pick<SiteRedirect, "source" | "draft" | "captureWildcard" | "permanent" | "destination" | "updatedAt">>

/** Which of a site's redirects a listing shows, and in which order. */
export interface RedirectFilter {
  readonly draft: boolean
  /** Part of the source, any case. */
  readonly search?: string | undefined
  readonly orderBy: RedirectOrder
}

export interface RedirectsRepoShape {
  /** Fails with the id of the redirect holding the same site, source and draft flag. */
  readonly insert: (redirect: SiteRedirect) => Effect.Effect<void, RedirectTaken>
  readonly find: (redirectId: string) => Effect.Effect<Option.Option<SiteRedirect>>
  readonly findBySource: (siteId: string, source: string, draft: boolean) => Effect.Effect<Option.Option<SiteRedirect>>
  /** The site's redirects of `filter`, keyed by `redirectKey(filter.orderBy)`. */
  readonly list: (siteId: string, filter: RedirectFilter, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<SiteRedirect>>
  /** The live redirects whose source is `path` (or `path` without its trailing `/`) or a wildcard prefix of it. */
  readonly candidates: (siteId: string, path: string) => Effect.Effect<ReadonlyArray<SiteRedirect>>
  readonly update: (redirectId: string, patch: RedirectPatch) => Effect.Effect<Option.Option<SiteRedirect>, RedirectTaken>
  readonly remove: (redirectId: string) => Effect.Effect<void>
  readonly removeSite: (siteId: string) => Effect.Effect<void>
}


/** Sort key of a listing: newest first by creation or update (ties by id), or by source. */
export const redirectKey = (orderBy: RedirectOrder) => (r: SiteRedirect): Pagination.CursorKey =>
  orderBy === "source" ? [r.source, r.id] : [(orderBy === "updatedAt" ? (r.updatedAt ?? r.createdAt) : r.createdAt).toISOString(), r.id]

export const redirectKeyShape = (orderBy: RedirectOrder): Pagination.KeyShape => orderBy === "source" ? ["string", "string"] : ["timestamp", "string"]

export const redirectOrder = (orderBy: RedirectOrder): Pagination.Order => orderBy === "source" ? "asc" : "desc"

const sameSlot = (a: SiteRedirect, b: Pick<SiteRedirect, "siteId" | "source" | "draft">) =>
  a.siteId === b.siteId && a.source === b.source && a.draft === b.draft

export class RedirectsRepo extends Context.Service<RedirectsRepo, RedirectsRepoShape>()("@quire/sites/RedirectsRepo") {
  static readonly layerMemory = Layer.sync(RedirectsRepo, () => {
    const redirects = new MemoryStore.TxMap<string, SiteRedirect>()
    const taken = (r: SiteRedirect) => Array.from(redirects.values()).some((o) => o.id !== r.id && sameSlot(o, r))
    return RedirectsRepo.of({
      insert: (r) =>
        Effect.suspend(() => {
          if (taken(r)) return Effect.fail(new RedirectTaken({ source: r.source, draft: r.draft }))
          redirects.set(r.id, r)
          return Effect.void
        }),
      find: (id) => Effect.sync(() => Option.fromNullishOr(redirects.get(id))),
      findBySource: (siteId, source, draft) =>
        Effect.sync(() => Option.fromNullishOr(Array.from(redirects.values()).find((r) => sameSlot(r, { siteId, source, draft })))),
      list: (siteId, filter, after, limit) =>
        Effect.suspend(() => {
          const search = filter.search?.toLowerCase()
          const all = Array.from(redirects.values()).filter((r) =>
            r.siteId === siteId && r.draft === filter.draft && (search === undefined || r.source.toLowerCase().includes(search)))
          return Pagination.paginateArray(all, redirectKey(filter.orderBy), { order: redirectOrder(filter.orderBy), after, limit })
        }),
      candidates: (siteId, path) =>
        Effect.sync(() => {
          const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
          return Array.from(redirects.values())
            .filter((r) => {
              if (r.siteId !== siteId || r.draft) return false
              const prefix = wildcardPrefix(r.source)
              return r.source === path || r.source === trimmed || (prefix !== undefined && path.startsWith(prefix))
            })
            .toSorted((a, b) => compareCodePoints(a.id, b.id))
        }),
      update: (id, patch) =>
        Effect.suspend(() => {
          const found = redirects.get(id)
          if (found === undefined) return Effect.succeed(Option.none())
          const next: SiteRedirect = { ...found, ...patch }
          if (taken(next)) return Effect.fail(new RedirectTaken({ source: next.source, draft: next.draft }))
          redirects.set(id, next)
          return Effect.succeed(Option.some(next))
        }),
      remove: (id) => Effect.sync(() => void redirects.delete(id)),
      removeSite: (siteId) =>
        Effect.sync(() => {
          for (const r of Array.from(redirects.values())) if (r.siteId === siteId) redirects.delete(r.id)
        })
    })
  })
}
