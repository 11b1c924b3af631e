/** Port: sites, with each site's adaptive schema, customization and visitor-auth key. */
import { Context, Effect, Layer, Option } from "effect"
import { Errors, MemoryStore, Pagination } from "@quire/kernel"
import type { SiteCustomizationRecord } from "./domain/Customization.ts"
import type { Site, SiteAdaptiveSchema } from "./domain/Site.ts"

export type SitePatch = Partial<Omit<Site, "id" | "organizationId" | "createdAt">>

export interface SiteQuery {
  readonly organizationId: string
  /** Sites whose title contains this text, ignoring case. */
  readonly title?: string | undefined
  readonly published?: boolean | undefined
  /** Only these sites. */
  readonly siteIds?: ReadonlyArray<string> | undefined
}

export interface SitesRepoShape {
  /** Conflict when another site has its hostname. */
  readonly insert: (site: Site) => Effect.Effect<void, Errors.Conflict>
  readonly find: (siteId: string) => Effect.Effect<Option.Option<Site>>
  readonly findByHostname: (hostname: string) => Effect.Effect<Option.Option<Site>>
  /** Sites ordered by (createdAt, id). */
  readonly list: (query: SiteQuery, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<Site>>
  /** Conflict when another site has the new hostname. */
  readonly update: (siteId: string, patch: SitePatch) => Effect.Effect<Option.Option<Site>, Errors.Conflict>
  /** Holds the site against concurrent structure writes until the transaction ends (a row lock in SQL). */
  readonly lock: (siteId: string) => Effect.Effect<void>
  /** Removes the site with its adaptive schema, customization and key. */
  readonly remove: (siteId: string) => Effect.Effect<void>
  readonly adaptiveSchema: (siteId: string) => Effect.Effect<Option.Option<SiteAdaptiveSchema>>
  readonly putAdaptiveSchema: (schema: SiteAdaptiveSchema) => Effect.Effect<void>
  /** The customization; `{settings: {}, updatedAt: null}` when never set. */
  readonly customization: (siteId: string) => Effect.Effect<SiteCustomizationRecord>
  readonly putCustomization: (siteId: string, customization: SiteCustomizationRecord) => Effect.Effect<void>
  readonly visitorKey: (siteId: string) => Effect.Effect<Option.Option<string>>
  readonly putVisitorKey: (siteId: string, key: string) => Effect.Effect<void>
  /** In one transaction, replaces each stored visitor key `reseal` answers for by its answer; answers how many. */
  readonly sealVisitorKeys: (reseal: (stored: string) => Option.Option<string>) => Effect.Effect<number>
  /** Where a visitor-auth site sends readers without a valid token (GitBook's `fallbackURL`). */
  readonly fallbackUrl: (siteId: string) => Effect.Effect<Option.Option<string>>
  /** `null` removes it. */
  readonly putFallbackUrl: (siteId: string, url: string | null) => Effect.Effect<void>
}

/** Sort key of site listings. */
export const siteKey = (site: Site): Pagination.CursorKey => [site.createdAt.toISOString(), site.id]
export const siteKeyShape: Pagination.KeyShape = ["timestamp", "string"]

export const noCustomization: SiteCustomizationRecord = { settings: {}, updatedAt: null }

const clash = (hostname: string) => new Errors.Conflict({ reason: `hostname ${JSON.stringify(hostname)} is already used by another site` })

export class SitesRepo extends Context.Service<SitesRepo, SitesRepoShape>()("@quire/sites/SitesRepo") {
  static readonly layerMemory = Layer.sync(SitesRepo, () => {
    const sites = new MemoryStore.TxMap<string, Site>()
    const schemas = new MemoryStore.TxMap<string, SiteAdaptiveSchema>()
    const customizations = new MemoryStore.TxMap<string, SiteCustomizationRecord>()
    const keys = new MemoryStore.TxMap<string, string>()
    const fallbacks = new MemoryStore.TxMap<string, string>()

    const hostnameTaken = (hostname: string | null | undefined, siteId: string) =>
      hostname != null && Array.from(sites.values()).some((s) => s.hostname === hostname && s.id !== siteId)

    return SitesRepo.of({
      insert: (site) =>
        Effect.suspend(() => {
          if (hostnameTaken(site.hostname, site.id)) return Effect.fail(clash(site.hostname!))
          sites.set(site.id, site)
          return Effect.void
        }),
      find: (siteId) => Effect.sync(() => Option.fromNullishOr(sites.get(siteId))),
      findByHostname: (hostname) =>
        Effect.sync(() => Option.fromNullishOr(Array.from(sites.values()).find((s) => s.hostname === hostname))),
      list: (query, after, limit) =>
        Effect.suspend(() => {
          const title = query.title?.toLowerCase()
          const ids = query.siteIds === undefined ? undefined : new Set(query.siteIds)
          return Pagination.paginateArray(
            Array.from(sites.values()).filter((s) =>
              s.organizationId === query.organizationId &&
              (title === undefined || s.title.toLowerCase().includes(title)) &&
              (query.published === undefined || s.published === query.published) &&
              (ids === undefined || ids.has(s.id))
            ),
            siteKey,
            { order: "asc", after, limit }
          )
        }),
      update: (siteId, patch) =>
        Effect.suspend(() => {
          const found = sites.get(siteId)
          if (found === undefined) return Effect.succeed(Option.none())
          if (hostnameTaken(patch.hostname, siteId)) return Effect.fail(clash(patch.hostname!))
          const next: Site = { ...found, ...patch }
          sites.set(siteId, next)
          return Effect.succeed(Option.some(next))
        }),
      // Memory transactions already run one at a time.
      lock: () => Effect.void,
      remove: (siteId) =>
        Effect.sync(() => {
          sites.delete(siteId)
          schemas.delete(siteId)
          customizations.delete(siteId)
          keys.delete(siteId)
          fallbacks.delete(siteId)
        }),
      adaptiveSchema: (siteId) => Effect.sync(() => Option.fromNullishOr(schemas.get(siteId))),
      putAdaptiveSchema: (schema) => Effect.sync(() => void schemas.set(schema.siteId, schema)),
      customization: (siteId) => Effect.sync(() => customizations.get(siteId) ?? noCustomization),
      putCustomization: (siteId, customization) => Effect.sync(() => void customizations.set(siteId, customization)),
      visitorKey: (siteId) => Effect.sync(() => Option.fromNullishOr(keys.get(siteId))),
      putVisitorKey: (siteId, key) => Effect.sync(() => void keys.set(siteId, key)),
      sealVisitorKeys: (reseal) =>
        Effect.sync(() => {
          let sealed = 0
          for (const [siteId, stored] of Array.from(keys)) {
            const next = reseal(stored)
            if (Option.isNone(next)) continue
            keys.set(siteId, next.value)
            sealed++
          }
          return sealed
        }),
      fallbackUrl: (siteId) => Effect.sync(() => Option.fromNullishOr(fallbacks.get(siteId))),
      putFallbackUrl: (siteId, url) =>
        Effect.sync(() => {
          // Only a site that exists keeps one, as the SQL row does.
          if (url === null) fallbacks.delete(siteId)
          else if (sites.get(siteId) !== undefined) fallbacks.set(siteId, url)
        })
    })
  })
}
