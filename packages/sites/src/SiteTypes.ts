/**
 * The inputs and views of docs sites that the Sites service and the module of its settings
 * (SiteSettings.ts) share, so that the settings need not import the service.
 */
import type { SiteCustomization } from "./domain/Customization.ts"
import type { AgentsContext, SiteType, SiteVisibility } from "./domain/Site.ts"
import type { SiteAccess } from "./SiteAccess.ts"
import type { SiteStructureView } from "./structure/StructureTypes.ts"

export interface SiteListFilter {
  /** Sites holding this space as a site space. */
  readonly spaceId?: string | undefined
  /** Sites whose title contains this text (case-insensitive). */
  readonly title?: string | undefined
  readonly published?: boolean | undefined
}

export interface CreateSiteInput {
  readonly type?: SiteType | undefined
  readonly title?: string | undefined
  readonly visibility?: SiteVisibility | undefined
  /** Spaces of the organization added as the site's site spaces, in order. */
  readonly spaces?: ReadonlyArray<string> | undefined
  /**
   * Creates a new space (titled after the site) and adds it as a site space. GitBook's spec does
   * not name this field (the seed's gap); ours is `emptySpace`.
   */
  readonly emptySpace?: boolean | undefined
}

export interface SiteUpdate {
  readonly title?: string | undefined
  readonly visibility?: SiteVisibility | undefined
  /** null removes it. */
  readonly basename?: string | null | undefined
  readonly adaptiveContent?: { readonly enabled: boolean } | undefined
  readonly agentsContext?: AgentsContext | undefined
  /** A site space of the root (no sections) or of the default section. */
  readonly defaultSiteSpace?: string | undefined
  readonly defaultSiteSection?: string | undefined
  /** `host/path`; null removes the proxy. */
  readonly proxy?: string | null | undefined
  /** null removes the custom hostname. */
  readonly hostname?: string | null | undefined
}

/** GitBook's `SitePublishingAuth` (custom backend): the key that signs visitors' JWTs. */
export interface SitePublishingAuth {
  readonly privateKey: string
  /** Where readers without a valid token are sent to sign in. */
  readonly fallbackURL?: string | undefined
}

/** GitBook's `SitePublishingAuthUpdate`: `fallbackURL` absent leaves it, `null` removes it. */
export interface SitePublishingAuthUpdate {
  readonly fallbackURL?: string | null | undefined
}

/** GitBook's `published-content-site` profile. */
export interface PublishedProfile {
  readonly site: SiteAccess
  readonly structure: SiteStructureView
  readonly customization: SiteCustomization
  /** Customizations of site spaces, by site-space id (none are overridden yet). */
  readonly siteSpaceCustomizations: Readonly<Record<string, SiteCustomization>>
}
