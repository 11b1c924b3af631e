/**
 * The reader's side: published sites as the serving routes need them (structure, customization,
 * visibility, visitor key), without a caller. Unpublished sites are absent.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Space, SpacesRepo } from "@quire/content"
import { BoundedCache } from "@quire/kernel"
import { ShareLinksRepo } from "./ShareLinksRepo.ts"
import { checkSecret } from "./ShareLinks.ts"
import { SiteChanges } from "./SiteChanges.ts"
import { SitesRepo } from "./SitesRepo.ts"
import { SiteStructureRepo } from "./SiteStructureRepo.ts"
import * as Model from "./StructureModel.ts"
import * as VisitorKeys from "./VisitorKeys.ts"
import * as VisitorToken from "./VisitorToken.ts"
import type { SiteCustomization } from "./domain/Customization.ts"
import type { Site } from "./domain/Site.ts"
import type { SiteSection, SiteSectionGroup, SiteSpace } from "./domain/Structure.ts"
import type { SiteExternalLink } from "./domain/StructureExtras.ts"

/** A site space with its space (spaces in the trash or of another organization are left out). */
export interface PublishedSiteSpace {
  readonly siteSpace: SiteSpace
  readonly space: Space
  /** The default variant of its section (or of the root). */
  readonly default: boolean
}

export interface PublishedSection {
  readonly section: SiteSection
  readonly default: boolean
  /** In order. */
  readonly siteSpaces: ReadonlyArray<PublishedSiteSpace>
}

export interface PublishedSite {
  readonly site: Site
  /** All sections in order (grouped ones where their group stands). */
  readonly sections: ReadonlyArray<PublishedSection>
  /** Groups in order; sections name their group with `section.groupId`. */
  readonly groups: ReadonlyArray<SiteSectionGroup>
  /** The site spaces of a site without sections, in order (empty when it has sections). */
  readonly rootSiteSpaces: ReadonlyArray<PublishedSiteSpace>
  readonly customization: SiteCustomization
  /** The live (not draft) external links in order; a link names its group with `groupId`. */
  readonly externalLinks?: ReadonlyArray<SiteExternalLink> | undefined
  /** The fields of the customization each site space overrides, by site space id. */
  readonly siteSpaceCustomizations?: ReadonlyMap<string, SiteCustomization> | undefined
  /** The key visitor JWTs must be signed with (HS256). */
  readonly visitorKey: string
  /** Where a visitor-auth site sends readers without a valid token (GitBook's `fallbackURL`). */
  readonly fallbackUrl?: string | undefined
}

export interface PublishedSitesShape {
  readonly byId: (siteId: string) => Effect.Effect<Option.Option<PublishedSite>>
  /** The published site serving a custom hostname. */
  readonly byHostname: (hostname: string) => Effect.Effect<Option.Option<PublishedSite>>
  /** Whether `secret` is an active share link of the site. */
  readonly checkShareSecret: (siteId: string, secret: string) => Effect.Effect<boolean>
}

/**
 * How long a site read here, with its spaces, is kept while this process writes nothing to sites
 * and no space's main moves here (writes of other processes, and a space's trash, rename or
 * transfer, show within it).
 */
export const staleAfterMillis = 2000
const cacheLimit = 1000

/** What is kept of a site: its own records, and the site as built with its spaces under `built.stamp`. */
interface Kept {
  readonly generation: number
  built?: { readonly stamp: string; readonly site: Option.Option<PublishedSite> }
  readonly expires: number
  readonly site: Site
  readonly model: Model.Model
  readonly customization: SiteCustomization
  readonly siteSpaceCustomizations: ReadonlyMap<string, SiteCustomization>
  readonly visitorKey: string
  readonly fallbackUrl: string | undefined
}

export class PublishedSites extends Context.Service<PublishedSites, PublishedSitesShape>()("@quire/sites/PublishedSites") {
  static readonly layer = Layer.effect(
    PublishedSites,
    Effect.gen(function*() {
      const sites = yield* SitesRepo
      const visitorKeys = yield* VisitorKeys.box
      const structure = yield* SiteStructureRepo
      const spaces = yield* SpacesRepo
      const shareLinks = yield* ShareLinksRepo
      const changes = yield* SiteChanges
      // A site's records by host or share link: answered here while this process changed no site
      // since (the generation) and for `staleAfterMillis` at most.
      const kept = yield* BoundedCache.make<string, Kept>({ name: "published_sites", capacity: cacheLimit })

      /** The site's records, from what was kept while this process wrote nothing since, else from the store. */
      const records = Effect.fnUntraced(function*(key: string, find: Effect.Effect<Option.Option<Site>>) {
        const generation = yield* changes.generation
        const now = yield* Clock.currentTimeMillis
        const hit = kept.peek(key)
        const fresh = hit !== undefined && hit.generation === generation && hit.expires > now
        kept.record(fresh)
        if (fresh) return Option.some(hit)
        const found = yield* find
        if (Option.isNone(found) || !found.value.published) {
          kept.delete(key)
          return Option.none<Kept>()
        }
        const site = found.value
        let visitorKey = Option.getOrUndefined(Option.flatMap(yield* sites.visitorKey(site.id), visitorKeys.open))
        if (visitorKey === undefined) {
          visitorKey = VisitorToken.newKey()
          yield* sites.putVisitorKey(site.id, visitorKeys.seal(visitorKey))
        }
        const entry: Kept = {
          generation,
          expires: now + staleAfterMillis,
          site,
          model: yield* Model.load(structure, site.id),
          customization: (yield* sites.customization(site.id)).settings,
          siteSpaceCustomizations: new Map((yield* structure.siteSpaceCustomizations(site.id)).map((c) => [c.siteSpaceId, c.settings])),
          visitorKey,
          fallbackUrl: site.visibility === "visitor-auth" ? Option.getOrUndefined(yield* sites.fallbackUrl(site.id)) : undefined
        }
        kept.set(key, entry)
        return Option.some(entry)
      })

      /** The site with its spaces: as built before while no main moved here since, else read. */
      const build = (found: Option.Option<Kept>): Effect.Effect<Option.Option<PublishedSite>> =>
        Effect.suspend(() => {
          if (Option.isNone(found)) return Effect.succeed(Option.none<PublishedSite>())
          const entry = found.value
          const stamp = changes.stamp()
          if (entry.built !== undefined && entry.built.stamp === stamp) return Effect.succeed(entry.built.site)
          return Effect.tap(read(entry), (site) => Effect.sync(() => void (entry.built = { stamp, site })))
        })

      const read = Effect.fnUntraced(function*(found: Kept) {
        const { customization, fallbackUrl, model, site, siteSpaceCustomizations, visitorKey } = found
        const live = new Map<string, Space>()
        for (const spaceId of new Set(model.siteSpaces.map((s) => s.spaceId))) {
          const space = yield* spaces.find(spaceId)
          // A space in the trash, or transferred to another organization, is not published here.
          if (Option.isSome(space) && space.value.deletedAt === null && space.value.organizationId === site.organizationId) {
            live.set(spaceId, space.value)
          }
        }
        const siteSpacesOf = (sectionId: string | null): ReadonlyArray<PublishedSiteSpace> => {
          const list = Model.siteSpacesOf(model, sectionId).filter((s) => live.has(s.spaceId))
          // A default whose space is gone hands over to the first variant left.
          const preferred = Model.defaultOf(site, model, sectionId)
          const defaultId = list.some((s) => s.id === preferred) ? preferred : list[0]?.id
          return list.map((siteSpace) => ({ siteSpace, space: live.get(siteSpace.spaceId)!, default: siteSpace.id === defaultId }))
        }
        const ordered = Model.readingOrder(model)
        const defaultSection = ordered.some((s) => s.id === site.defaultSectionId) ? site.defaultSectionId : ordered[0]?.id
        return Option.some<PublishedSite>({
          site,
          sections: ordered.map((section) => ({ section, default: section.id === defaultSection, siteSpaces: siteSpacesOf(section.id) })),
          groups: Model.topLevel(model).flatMap((i) => (i.type === "group" ? [i.group] : [])),
          rootSiteSpaces: model.sections.length === 0 ? siteSpacesOf(null) : [],
          customization,
          externalLinks: model.sections.length === 0 ? [] : model.externalLinks.filter((l) => !l.draft),
          siteSpaceCustomizations,
          visitorKey,
          ...(fallbackUrl === undefined ? {} : { fallbackUrl })
        })
      })

      return PublishedSites.of({
        byId: (siteId) => Effect.flatMap(records(`id:${siteId}`, sites.find(siteId)), build),
        byHostname: (hostname) => {
          const host = hostname.toLowerCase()
          return Effect.flatMap(records(`host:${host}`, sites.findByHostname(host)), build)
        },
        checkShareSecret: (siteId, secret) => checkSecret(shareLinks, siteId, secret)
      })
    })
  )
}
