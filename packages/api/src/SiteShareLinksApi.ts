/** Share links of a share-link site: named secrets that open it, revocable one by one. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ShareLinkName as ShareLinkNameRule } from "@quire/sites/domain/ShareLink"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, PageQuery, Timestamp } from "./Schemas.ts"
import { noNul, PublishedUrls, siteParams } from "./SiteSchemas.ts"

/** GitBook's `ShareLinkName`: at most 50 characters. */
export const ShareLinkName = ShareLinkNameRule.check(noNul)

/** GitBook's `ShareLink`: `urls.published` is the site's published URL with `?share=<secret>`. */
export const ShareLink = Schema.Struct({
  object: Schema.Literal("share-link"),
  id: Schema.String,
  createdAt: Timestamp,
  name: Schema.optionalKey(Schema.String),
  active: Schema.Boolean,
  urls: PublishedUrls
}).annotate({ identifier: "ShareLink" })
export type ShareLink = typeof ShareLink.Type

const shareLinkParams = { ...siteParams, shareLinkId: EntityId } as const

export class SiteShareLinksApi extends HttpApiGroup.make("siteShareLinks")
  .add(
    /** The site's share links, oldest first (admins: they carry the secrets). */
    HttpApiEndpoint.get("listSiteShareLinks", "/orgs/:organizationId/sites/:siteId/share-links", {
      params: siteParams,
      query: PageQuery,
      success: ListOf(ShareLink),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List share links",
        description: "Lists the links that open a share-link site. Needs the admin role."
      })),
    /** A new active link with a random secret. */
    HttpApiEndpoint.post("createSiteShareLink", "/orgs/:organizationId/sites/:siteId/share-links", {
      params: siteParams,
      payload: Schema.Struct({ name: ShareLinkName }),
      success: ShareLink.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a share link",
        description: "Creates a secret link to a share-link site. Needs the admin role."
      })),
    /** Renames the link or (de)activates it: an inactive secret opens nothing, at once. */
    HttpApiEndpoint.patch("updateSiteShareLinkById", "/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId", {
      params: shareLinkParams,
      payload: Schema.Struct({
        active: Schema.optionalKey(Schema.Boolean),
        name: Schema.optionalKey(ShareLinkName)
      }).check(Schema.makeFilter((body) => Object.keys(body).length > 0 || "expected at least one of active, name")),
      success: ShareLink,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a share link",
        description: "Renames a share link or turns it on or off. Needs the admin role."
      })),
    /** Revokes the link for good; 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteSiteShareLinkById", "/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId", {
      params: shareLinkParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a share link",
        description: "Deletes a share link; readers holding it lose access. Needs the admin role."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
