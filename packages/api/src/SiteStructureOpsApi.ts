/**
 * A site's structure beyond sections and site spaces (GitBook's issue-61 operations): external
 * links, sorting any item of the structure, a variant's own look, duplicating a variant, the site
 * template, search warm-up, and the site's channels.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, PageQuery, Text, Timestamp } from "./Schemas.ts"
import { Condition, Icon, JsonObject, SectionDescription, SectionTitle, siteParams, SiteExternalLink, SiteSection, SiteSectionGroup, SiteSpace } from "./SiteSchemas.ts"
import { SiteCustomization } from "./SitesApi.ts"

export { SiteExternalLink }

const linkParams = { ...siteParams, siteExternalLinkId: EntityId } as const
const siteSpaceParams = { ...siteParams, siteSpaceId: EntityId } as const
const channelParams = { ...siteParams, siteChannelId: EntityId } as const

/** GitBook's `URL` of an external link: at most 2048 characters (the sites package checks it is absolute http or https). */
const LinkUrl = Text.check(Schema.isMaxLength(2048))

/** GitBook's `SiteStructureItemPointer`. */
export const SiteStructureItemPointer = Schema.Struct({
  type: Schema.Literals(["site-space", "site-section", "site-section-group", "site-external-link"]),
  id: EntityId
})

/** GitBook's `SiteStructureItem`: whichever record a sort moved. */
export const SiteStructureItem = Schema.Union([SiteSpace, SiteSection, SiteSectionGroup, SiteExternalLink])

/** DELETE answers: 205 when the record was there, 204 when it was not (GitBook's). */
export const Removed = Schema.Literal("removed").pipe(HttpApiSchema.asNoContent({ decode: () => "removed" as const }), HttpApiSchema.status(205))
export const Absent = Schema.Literal("absent").pipe(HttpApiSchema.asNoContent({ decode: () => "absent" as const }), HttpApiSchema.status(204))

const ChannelType = Schema.Literals(["builtin:slack", "builtin:linear", "builtin:github", "builtin:discord"])
const ChannelRole = Schema.Literals(["collaborator", "support"])
/** `allowedChannels`, `allowedTeams` or `allowedRepositories`, as the type names it (checked by the sites package). */
const SetupSettings = Schema.Record(Schema.String, Schema.Array(Text.check(Schema.isMaxLength(256))).check(Schema.isMaxLength(100)))

/** GitBook's `SiteChannel`. */
export const SiteChannel = Schema.Struct({
  object: Schema.Literal("site-channel"),
  id: Schema.String,
  type: ChannelType,
  setupSettings: SetupSettings,
  /** `pending` until the channel's integration is connected (Quire connects none yet). */
  status: Schema.Literals(["active", "pending"]),
  role: ChannelRole,
  answers: Schema.Int,
  createdAt: Timestamp,
  urls: Schema.Struct({ location: Schema.String })
}).annotate({ identifier: "SiteChannel" })

const externalLinkFields = {
  title: SectionTitle,
  description: Schema.optionalKey(Schema.NullOr(SectionDescription)),
  icon: Schema.optionalKey(Schema.NullOr(Icon)),
  url: LinkUrl,
  draft: Schema.optionalKey(Schema.Boolean),
  condition: Schema.optionalKey(Schema.NullOr(Condition.check(Schema.isMinLength(0))))
}

const linkEndpoints = [
  /** Adds an external link at the end of the top level, or of a section group (`parent`). */
  HttpApiEndpoint.post("addExternalLinkToSite", "/orgs/:organizationId/sites/:siteId/external-links", {
    params: siteParams,
    payload: Schema.Struct({ ...externalLinkFields, parent: Schema.optionalKey(EntityId) }),
    success: SiteExternalLink.pipe(HttpApiSchema.status(201)),
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Add an external link to a site",
    description: "Adds a link to a URL among the site's sections (or in a section group), shown as a tab of the published site. The site must have sections. Needs the edit role on the site."
  })),
  /** Changes the link; `parent` null moves it to the top level. */
  HttpApiEndpoint.patch("updateSiteExternalLinkById", "/orgs/:organizationId/sites/:siteId/external-links/:siteExternalLinkId", {
    params: linkParams,
    payload: Schema.Struct({
      title: Schema.optionalKey(SectionTitle),
      description: externalLinkFields.description,
      icon: externalLinkFields.icon,
      url: Schema.optionalKey(LinkUrl),
      parent: Schema.optionalKey(Schema.NullOr(EntityId)),
      draft: externalLinkFields.draft,
      condition: externalLinkFields.condition
    }),
    success: SiteExternalLink,
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Update an external link",
    description: "Changes an external link's title, URL, icon, group, draft state or condition. Needs the edit role on the site."
  })),
  HttpApiEndpoint.delete("deleteSiteExternalLinkById", "/orgs/:organizationId/sites/:siteId/external-links/:siteExternalLinkId", {
    params: linkParams,
    success: [Removed, Absent],
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Remove an external link",
    description: "Removes an external link from a site: 205 when it was there, 204 when it was not. Needs the edit role on the site."
  })),
  /** Moves any item beside a sibling; the item joins the level (top or a group) of the sibling. */
  HttpApiEndpoint.patch("sortSiteStructure", "/orgs/:organizationId/sites/:siteId/structure/sort", {
    params: siteParams,
    payload: Schema.Struct({
      item: SiteStructureItemPointer,
      position: Schema.Struct({ before: Schema.optionalKey(SiteStructureItemPointer), after: Schema.optionalKey(SiteStructureItemPointer) })
    }),
    success: SiteStructureItem,
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Move an item of a site's structure",
    description: "Moves a site space, section, section group or external link before or after a sibling (to the end when neither is given). Needs the edit role on the site."
  }))
] as const

const lookEndpoints = [
  /** The site's customization with the variant's override over it. */
  HttpApiEndpoint.get("getSiteSpaceCustomizationById", "/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization", {
    params: siteSpaceParams,
    query: { unmasked: Schema.optional(Schema.Boolean) },
    success: SiteCustomization,
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Get a variant's customization",
    description: "Answers the look a site space is published with: the site's customization with the site space's own settings over it."
  })),
  /** Merges settings into the variant's override; null removes an overridden field. */
  HttpApiEndpoint.patch("overrideSiteSpaceCustomizationById", "/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization", {
    params: siteSpaceParams,
    payload: JsonObject,
    success: SiteCustomization,
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Override a variant's customization",
    description: "Sets settings (title, styling, header, footer...) that a site space shows instead of the site's; null resets a field to the site's. A value GitBook's schema refuses is a 400 naming the field. Needs the edit role on the site."
  })),
  HttpApiEndpoint.delete("deleteSiteSpaceCustomizationById", "/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization", {
    params: siteSpaceParams,
    success: [Removed, Absent],
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Reset a variant's customization",
    description: "Removes a site space's own settings, so it shows the site's: 205 when it had some, 204 when not. Needs the edit role on the site."
  })),
  /** A copy of the variant's space, added to the same section. */
  HttpApiEndpoint.post("duplicateSiteSpace", "/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/duplicate", {
    params: siteSpaceParams,
    payload: Schema.Struct({ draft: Schema.optionalKey(Schema.Boolean) }),
    success: SiteSpace.pipe(HttpApiSchema.status(201)),
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Duplicate a site space",
    description: "Copies a site space's space and adds the copy as a new variant of the same section, with the same look. Needs the edit role on the site."
  })),
  HttpApiEndpoint.post("applyTemplateToSite", "/orgs/:organizationId/sites/:siteId/template", {
    params: siteParams,
    success: HttpApiSchema.Empty(200),
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Apply the template to a site",
    description: "Fills every customization setting the site leaves unset with a new site's value (what it set stays). Needs the edit role on the site."
  })),
  HttpApiEndpoint.post("prewarmSiteSearch", "/orgs/:organizationId/sites/:siteId/search/prewarm", {
    params: siteParams,
    success: HttpApiSchema.NoContent,
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Warm up a site's search",
    description: "Loads the published site and its spaces so that the first search of a reader finds them ready."
  }))
] as const

const channelSetup = { type: ChannelType, setupSettings: SetupSettings }

const channelEndpoints = [
  HttpApiEndpoint.get("listSiteChannels", "/orgs/:organizationId/sites/:siteId/channels", {
    params: siteParams,
    query: PageQuery,
    success: ListOf(SiteChannel),
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({ summary: "List a site's channels", description: "Lists the channels where a site's assistant answers, oldest first." })),
  HttpApiEndpoint.post("createSiteChannel", "/orgs/:organizationId/sites/:siteId/channels", {
    params: siteParams,
    payload: Schema.Struct({ ...channelSetup, role: Schema.optionalKey(ChannelRole) }),
    success: SiteChannel.pipe(HttpApiSchema.status(201)),
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Add a channel to a site",
    description: "Adds a Slack, Linear, GitHub or Discord channel with the names it is allowed in and its role (support by default). Needs the edit role on the site."
  })),
  HttpApiEndpoint.get("getSiteChannelById", "/orgs/:organizationId/sites/:siteId/channels/:siteChannelId", {
    params: channelParams,
    success: SiteChannel,
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({ summary: "Get a site channel", description: "Answers one channel of a site." })),
  HttpApiEndpoint.patch("updateSiteChannelById", "/orgs/:organizationId/sites/:siteId/channels/:siteChannelId", {
    params: channelParams,
    payload: Schema.Struct({
      type: Schema.optionalKey(ChannelType),
      setupSettings: Schema.optionalKey(SetupSettings),
      role: Schema.optionalKey(ChannelRole)
    }),
    success: SiteChannel,
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Update a site channel",
    description: "Changes a channel's allowed names, type or role. Needs the edit role on the site."
  })),
  HttpApiEndpoint.delete("deleteSiteChannelById", "/orgs/:organizationId/sites/:siteId/channels/:siteChannelId", {
    params: channelParams,
    success: [Removed, Absent],
    error: ApiErrors.Common
  }).annotateMerge(OpenApi.annotations({
    summary: "Remove a site channel",
    description: "Removes a channel from a site: 205 when it was there, 204 when it was not. Needs the edit role on the site."
  }))
] as const

export class SiteStructureOpsApi extends HttpApiGroup.make("siteStructureOps")
  .add(...linkEndpoints, ...lookEndpoints, ...channelEndpoints)
  .middleware(Authentication)
  .prefix("/v1")
{}
