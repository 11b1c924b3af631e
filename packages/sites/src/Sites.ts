/**
 * Use cases on docs sites: creation (with spaces, or a new space), settings, publishing, the
 * adaptive schema, the visitor-auth key, customization and the published profile.
 */
import { Context, type Effect } from "effect"
import type { Actor, Errors, Pagination } from "@quire/kernel"
import type { SiteCustomization, SiteCustomizationRecord } from "./domain/Customization.ts"
import type { AgentsContext, SiteAdaptiveSchema, SiteType, SiteVisibility, TemplateCondition } from "./domain/Site.ts"
import type { SiteAccess } from "./SiteAccess.ts"
import type { SiteStructureView } from "./SiteStructure.ts"

type Denied = Errors.NotFound | Errors.Forbidden

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
}

/** GitBook's `published-content-site` profile. */
export interface PublishedProfile {
  readonly site: SiteAccess
  readonly structure: SiteStructureView
  readonly customization: SiteCustomization
  /** Customizations of site spaces, by site-space id (none are overridden yet). */
  readonly siteSpaceCustomizations: Readonly<Record<string, SiteCustomization>>
}

export interface SitesShape {
  /** The organization's sites (members only), oldest first. */
  readonly list: (organizationId: string, filter: SiteListFilter, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SiteAccess>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Creates an unpublished site (admins). */
  readonly create: (organizationId: string, input: CreateSiteInput) => Effect.Effect<SiteAccess, Denied | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, siteId: string) => Effect.Effect<SiteAccess, Errors.NotFound, Actor.Actor>
  readonly update: (organizationId: string, siteId: string, update: SiteUpdate) => Effect.Effect<SiteAccess, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /** Deletes the site and everything under it; nothing happens when it does not exist or the caller cannot see it. */
  readonly remove: (organizationId: string, siteId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  readonly publish: (organizationId: string, siteId: string) => Effect.Effect<SiteAccess, Denied, Actor.Actor>
  readonly unpublish: (organizationId: string, siteId: string) => Effect.Effect<SiteAccess, Denied, Actor.Actor>
  /** NotFound when the site has no adaptive schema. */
  readonly getAdaptiveSchema: (organizationId: string, siteId: string) => Effect.Effect<SiteAdaptiveSchema, Errors.NotFound, Actor.Actor>
  /** Validates (draft-07, an adaptive schema's shape) and stores; InvalidInput on `jsonSchema` naming the problem. */
  readonly putAdaptiveSchema: (organizationId: string, siteId: string, jsonSchema: unknown) => Effect.Effect<SiteAdaptiveSchema, Denied | Errors.InvalidInput, Actor.Actor>
  /** Suggested conditions from the adaptive schema (empty without one). */
  readonly templateConditions: (organizationId: string, siteId: string) => Effect.Effect<ReadonlyArray<TemplateCondition>, Errors.NotFound, Actor.Actor>
  /** The visitor-auth signing key (admins; created on first use). */
  readonly getPublishingAuth: (organizationId: string, siteId: string) => Effect.Effect<SitePublishingAuth, Denied, Actor.Actor>
  /** A new visitor-auth key; tokens signed with the old one stop working at once (admins). */
  readonly regeneratePublishingAuth: (organizationId: string, siteId: string) => Effect.Effect<SitePublishingAuth, Denied, Actor.Actor>
  readonly getCustomization: (organizationId: string, siteId: string) => Effect.Effect<SiteCustomizationRecord, Errors.NotFound, Actor.Actor>
  /** Replaces the customization (admins). */
  readonly putCustomization: (organizationId: string, siteId: string, settings: SiteCustomization) => Effect.Effect<SiteCustomizationRecord, Denied | Errors.InvalidInput, Actor.Actor>
  /** The site with its structure and customizations (members). */
  readonly published: (organizationId: string, siteId: string) => Effect.Effect<PublishedProfile, Errors.NotFound, Actor.Actor>
  /** `getSiteStructure`: sections and groups in order, or the root site spaces. */
  readonly structure: (organizationId: string, siteId: string) => Effect.Effect<SiteStructureView, Errors.NotFound, Actor.Actor>
}

export class Sites extends Context.Service<Sites, SitesShape>()("@quire/sites/Sites") {}
