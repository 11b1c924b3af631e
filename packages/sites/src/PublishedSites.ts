/**
 * The reader's side: published sites as the serving routes need them (structure, customization,
 * visibility, visitor key), without a caller. Unpublished sites are absent.
 */
import { Context, type Effect, type Option } from "effect"
import type { Space } from "@quire/content"
import type { SiteCustomization } from "./domain/Customization.ts"
import type { Site } from "./domain/Site.ts"
import type { SiteSection, SiteSectionGroup, SiteSpace } from "./domain/Structure.ts"

/** A site space with its space (spaces in the trash are left out). */
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
  /** The key visitor JWTs must be signed with (HS256). */
  readonly visitorKey: string
}

export interface PublishedSitesShape {
  readonly byId: (siteId: string) => Effect.Effect<Option.Option<PublishedSite>>
  /** The published site serving a custom hostname. */
  readonly byHostname: (hostname: string) => Effect.Effect<Option.Option<PublishedSite>>
  /** Whether `secret` is an active share link of the site. */
  readonly checkShareSecret: (siteId: string, secret: string) => Effect.Effect<boolean>
}

export class PublishedSites extends Context.Service<PublishedSites, PublishedSitesShape>()("@quire/sites/PublishedSites") {}
