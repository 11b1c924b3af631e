/**
 * Docs sites: creation, settings, publishing, the structure readers navigate, the adaptive schema
 * of visitors' claims, the visitor-auth key and the customization of the published site.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SiteCustomization as CustomizationSettings } from "@quire/sites/domain/Customization"
import { SiteBasename, SiteHostname, SiteProxyOrigin, SiteTitle } from "@quire/sites/domain/Site"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, ListOf, PageQuery, Text, Timestamp } from "./Schemas.ts"
import {
  AgentsContext,
  JsonObject,
  noNul,
  ShareKeyQuery,
  siteParams,
  SiteSection,
  SiteExternalLink,
  SiteSectionGroup,
  SiteSpace,
  SiteType,
  SiteVisibility
} from "./SiteSchemas.ts"

export const SitePermissions = Schema.Struct({
  view: Schema.Boolean,
  access: Schema.Boolean,
  edit: Schema.Boolean,
  create: Schema.Boolean,
  admin: Schema.Boolean,
  installIntegration: Schema.Boolean,
  viewAdaptiveSchema: Schema.Boolean,
  editAdaptiveSchema: Schema.Boolean
})

/** GitBook's `Site`. */
export const Site = Schema.Struct({
  object: Schema.Literal("site"),
  id: Schema.String,
  type: SiteType,
  appliedType: SiteType,
  title: Schema.String,
  hostname: Schema.optionalKey(Schema.String),
  basename: Schema.optionalKey(Schema.String),
  proxy: Schema.optionalKey(Schema.Struct({ origin: Schema.String, target: Schema.String })),
  visibility: SiteVisibility,
  defaultLevel: Schema.Literal("inherit"),
  permissions: SitePermissions,
  published: Schema.Boolean,
  /** How many site spaces the site has. */
  siteSpaces: Schema.Finite,
  createdAt: Timestamp,
  adaptiveContent: Schema.Struct({ enabled: Schema.Boolean }),
  agentsContext: AgentsContext,
  features: Schema.Array(Schema.Struct({ id: Schema.String, plan: SiteType, frozen: Schema.Boolean })),
  urls: Schema.Struct({
    location: Schema.String,
    app: Schema.String,
    /** Where the site shows its current content: its root (Quire shows no drafts, so whether published or not). */
    preview: Schema.String,
    /** Present when the site is published (for a share-link site, only with a valid `shareKey`). */
    published: Schema.optionalKey(Schema.String)
  })
}).annotate({ identifier: "Site" })
export type Site = typeof Site.Type

/** GitBook's `SiteAdaptiveSchema`: the JSON Schema (draft-07) of the claims visitors bring. */
export const SiteAdaptiveSchema = Schema.Struct({
  object: Schema.Literal("site-adaptive-schema"),
  jsonSchema: JsonObject,
  updatedAt: Timestamp
}).annotate({ identifier: "SiteAdaptiveSchema" })

/** GitBook's `SiteAdaptiveTemplateCondition`: a condition suggested from the adaptive schema. */
export const TemplateCondition = Schema.Struct({ description: Schema.String, condition: Schema.String })

/** GitBook's `SiteStructure`: the sections and groups in their order, or the site spaces of a site without sections. */
export const SiteStructure = Schema.Union([
  Schema.Struct({
    type: Schema.Literal("sections"),
    structure: Schema.Array(Schema.Union([SiteSection, SiteSectionGroup, SiteExternalLink]))
  }),
  Schema.Struct({ type: Schema.Literal("siteSpaces"), structure: Schema.Array(SiteSpace) })
])
export type SiteStructure = typeof SiteStructure.Type

/** GitBook's `SiteCustomizationSettings` as the sites package checks them, with `updatedAt` once changed. */
export const SiteCustomization = Schema.Struct({
  ...CustomizationSettings.fields,
  updatedAt: Schema.optionalKey(Timestamp)
}).annotate({ identifier: "SiteCustomizationSettings" })

/**
 * What a customization is replaced with: GitBook's settings, and the `updatedAt` that
 * `getSiteCustomizationById` answers, so that what a read gave can be sent back as it is (the
 * server sets the time of its own change; the one sent is not kept).
 */
export const SiteCustomizationInput = Schema.Struct({
  ...CustomizationSettings.fields,
  updatedAt: Schema.optionalKey(Timestamp)
}).annotate({ identifier: "SiteCustomizationSettingsInput" })

/** GitBook's `PublishedContentSite`: what a published site's renderer needs in one answer. */
export const PublishedContentSite = Schema.Struct({
  object: Schema.Literal("published-content-site"),
  site: Site,
  structure: SiteStructure,
  customizations: Schema.Struct({
    site: SiteCustomization,
    /** Customization of site spaces that override the site's. */
    siteSpaces: Schema.Record(Schema.String, SiteCustomization)
  }),
  scripts: Schema.Array(Schema.Struct({
    script: Schema.String,
    contentSecurityPolicy: Schema.optionalKey(Schema.String),
    cookies: Schema.Boolean
  }))
}).annotate({ identifier: "PublishedContentSite" })

/** GitBook's `SitePublishingAuth` with the custom backend: the key that signs visitors' JWTs. */
export const SitePublishingAuth = Schema.Struct({
  object: Schema.Literal("publishing-auth"),
  backend: Schema.Literal("custom"),
  privateKey: Schema.String,
  fallbackURL: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "SitePublishingAuth" })

/**
 * GitBook's `SitePublishingAuthUpdate` with the custom backend: `fallbackURL`, where readers
 * without a valid token are sent to sign in (an https URL); absent leaves it, `null` removes it.
 */
export const SitePublishingAuthUpdate = Schema.Struct({
  backend: Schema.Literal("custom"),
  fallbackURL: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(2048))))
})

export class SitesApi extends HttpApiGroup.make("sites")
  .add(
    /** The organization's sites, oldest first; filtered by a space they hold, a text in their title and published status. */
    HttpApiEndpoint.get("listSites", "/orgs/:organizationId/sites", {
      params: { organizationId: EntityId },
      query: {
        ...PageQuery,
        space: Schema.optional(EntityId),
        title: Schema.optional(Text.check(Schema.isMaxLength(128))),
        published: Schema.optional(Schema.Boolean)
      },
      success: ListOf(Site),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List sites",
        description: "Lists the organization's docs sites, paginated. Any member may call it."
      })),
    /** Creates an unpublished site (type `basic` unless given); `spaces` become its site spaces, `emptySpace` adds a new one. */
    HttpApiEndpoint.post("createSite", "/orgs/:organizationId/sites", {
      params: { organizationId: EntityId },
      // GitBook's body is optional: an empty body (null) creates an untitled public site.
      payload: [Schema.Struct({
        type: Schema.optionalKey(SiteType),
        title: Schema.optionalKey(SiteTitle.check(noNul)),
        visibility: Schema.optionalKey(SiteVisibility),
        spaces: Schema.optionalKey(Schema.Array(EntityId).check(Schema.isMaxLength(100))),
        /** Quire's name for the seed's flag: a new space, titled after the site, becomes its first site space. */
        emptySpace: Schema.optionalKey(Schema.Boolean)
      }), Schema.Null],
      success: Site.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a site",
        description: "Creates an unpublished docs site in the organization. Needs the admin role.",
        transform: requestExample({ title: "Acme Help Center", visibility: "public" })
      })),
    HttpApiEndpoint.get("getSiteById", "/orgs/:organizationId/sites/:siteId", {
      params: siteParams,
      success: Site,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site",
        description: "Answers a site with its URLs and publishing state. Any member may call it."
      })),
    /**
     * Changes the settings; null removes `basename`, `proxy` and `hostname`. `hostname` is Quire's:
     * GitBook sets it through its custom-hostname operations.
     */
    HttpApiEndpoint.patch("updateSiteById", "/orgs/:organizationId/sites/:siteId", {
      params: siteParams,
      payload: Schema.Struct({
        title: Schema.optionalKey(SiteTitle.check(noNul)),
        visibility: Schema.optionalKey(SiteVisibility),
        basename: Schema.optionalKey(Schema.NullOr(SiteBasename.check(noNul))),
        adaptiveContent: Schema.optionalKey(Schema.Struct({ enabled: Schema.Boolean })),
        agentsContext: Schema.optionalKey(AgentsContext),
        defaultSiteSpace: Schema.optionalKey(EntityId),
        defaultSiteSection: Schema.optionalKey(EntityId),
        proxy: Schema.optionalKey(Schema.NullOr(SiteProxyOrigin)),
        hostname: Schema.optionalKey(Schema.NullOr(SiteHostname))
      }),
      success: Site,
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a site",
        description: "Changes a site's title, visibility, hostname or base path. Needs the admin role.",
        transform: requestExample({ title: "Acme Help Center", visibility: "share-link" })
      })),
    /** Deletes the site with its sections, site spaces and share links (never the spaces); 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteSiteById", "/orgs/:organizationId/sites/:siteId", {
      params: siteParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a site",
        description: "Deletes a site; its spaces are kept. Needs the admin role."
      })),
    /** The JSON Schema of visitors' claims; 404 when the site has none. */
    HttpApiEndpoint.get("getSiteAdaptiveSchema", "/orgs/:organizationId/sites/:siteId/adaptive-schema", {
      params: siteParams,
      success: SiteAdaptiveSchema,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site's adaptive schema",
        description: "Answers the JSON schema of the visitor claims a site's adaptive content may use."
      })),
    /** Sets the JSON Schema (draft-07) of visitors' claims; a schema that does not compile is a 400 naming the problem. */
    HttpApiEndpoint.put("updateSiteAdaptiveSchema", "/orgs/:organizationId/sites/:siteId/adaptive-schema", {
      params: siteParams,
      payload: Schema.Struct({ jsonSchema: JsonObject }),
      success: SiteAdaptiveSchema,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Set a site's adaptive schema",
        description: "Replaces the JSON schema of visitor claims for adaptive content. Needs the admin role."
      })),
    /** Conditions suggested from the claims of the adaptive schema (none without one). */
    HttpApiEndpoint.get("listSiteAdaptiveTemplateConditions", "/orgs/:organizationId/sites/:siteId/adaptive-schema/template-conditions", {
      params: siteParams,
      success: Schema.Struct({ items: Schema.Array(TemplateCondition) }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List adaptive conditions",
        description: "Lists the conditions the site's content uses on visitor claims."
      })),
    /** The site with its structure, customizations and scripts, as its renderer reads it. */
    HttpApiEndpoint.get("getPublishedContentSite", "/orgs/:organizationId/sites/:siteId/published", {
      params: siteParams,
      query: ShareKeyQuery,
      success: PublishedContentSite,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get what a site publishes",
        description: "Answers the published form of a site: its sections, spaces and URLs as readers see them."
      })),
    /** Makes the site reachable by the audience of its visibility. */
    HttpApiEndpoint.post("publishSite", "/orgs/:organizationId/sites/:siteId/publish", {
      params: siteParams,
      success: Site,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Publish a site",
        description: "Makes a site readable at its URL with its current spaces' main content. Needs the admin role."
      })),
    /** Takes the site offline: its URLs answer 404. */
    HttpApiEndpoint.post("unpublishSite", "/orgs/:organizationId/sites/:siteId/unpublish", {
      params: siteParams,
      success: Site,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Unpublish a site",
        description: "Takes a site offline at once on every server. Needs the admin role."
      })),
    /** The sections and groups (or, without sections, the site spaces) in their order. */
    HttpApiEndpoint.get("getSiteStructure", "/orgs/:organizationId/sites/:siteId/structure", {
      params: siteParams,
      query: ShareKeyQuery,
      success: SiteStructure,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site's structure",
        description: "Answers a site's sections, section groups and site spaces as a tree."
      })),
    /** The key that signs visitor-auth JWTs (admins only). */
    HttpApiEndpoint.get("getSitePublishingAuthById", "/orgs/:organizationId/sites/:siteId/publishing/auth", {
      params: siteParams,
      success: SitePublishingAuth,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site's visitor authentication",
        description: "Answers the private key visitors' tokens are signed with, for sites with authenticated access. Needs the admin role."
      })),
    /** Sets or removes the sign-in fallback URL of a site with authenticated access. */
    HttpApiEndpoint.patch("updateSitePublishingAuthById", "/orgs/:organizationId/sites/:siteId/publishing/auth", {
      params: siteParams,
      payload: SitePublishingAuthUpdate,
      success: SitePublishingAuth,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a site's visitor authentication",
        description: "Sets the URL readers without a valid token are redirected to (with the page they asked for as `location`), or removes it with null. Needs the admin role."
      })),
    /** Replaces the visitor-auth key: tokens signed with the former one stop working at once. */
    HttpApiEndpoint.post("regenerateSitePublishingAuthById", "/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate", {
      params: siteParams,
      success: SitePublishingAuth,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Regenerate a site's visitor key",
        description: "Replaces the key for authenticated access; tokens signed with the old one stop working. Needs the admin role."
      })),
    /** GitBook's `SiteCustomizationSettings` of the site. */
    HttpApiEndpoint.get("getSiteCustomizationById", "/orgs/:organizationId/sites/:siteId/customization", {
      params: siteParams,
      query: { unmasked: Schema.optional(Schema.Boolean) },
      success: SiteCustomization,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site's customization",
        description: "Answers a site's look: title, colors, header links and footer."
      })),
    /** Replaces the customization; a value GitBook's schema refuses is a 400 naming the field. */
    HttpApiEndpoint.put("updateSiteCustomizationById", "/orgs/:organizationId/sites/:siteId/customization", {
      params: siteParams,
      payload: SiteCustomizationInput,
      success: SiteCustomization,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Customize a site",
        description: "Replaces a site's customization (title, colors, header, footer). Needs the admin role."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
