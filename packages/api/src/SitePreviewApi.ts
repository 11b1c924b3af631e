/**
 * Previews of a site before its changes are published: GitBook's `getSitePublishingPreviewById`,
 * and Quire's preview of a change request (the site as it would be with the change request merged,
 * at `<site url>~/changes/<changeRequestId>/`) with share links that open that preview only.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId } from "./Schemas.ts"
import { siteParams } from "./SiteSchemas.ts"
import { ShareLink } from "./SiteShareLinksApi.ts"

/** GitBook's answer: the URL of the preview. */
export const SitePublishingPreview = Schema.Struct({ url: Schema.String }).annotate({ identifier: "SitePublishingPreview" })

const previewShareLinkParams = { ...siteParams, changeRequestId: EntityId } as const

export class SitePreviewApi extends HttpApiGroup.make("sitePreview")
  .add(
    /** Where the site's preview is read: of a change request with `changeRequest`, else the site as published. */
    HttpApiEndpoint.get("getSitePublishingPreviewById", "/orgs/:organizationId/sites/:siteId/publishing/preview", {
      params: siteParams,
      query: {
        siteSpace: Schema.optionalKey(Schema.String),
        claims: Schema.optionalKey(Schema.String),
        draft: Schema.optionalKey(Schema.String),
        target: Schema.optionalKey(Schema.String),
        /** Quire's extension: the id of a change request of one of the site's spaces. */
        changeRequest: Schema.optionalKey(EntityId)
      },
      success: SitePublishingPreview,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site's preview URL",
        description:
          "Answers the URL of the site's preview. With `changeRequest`, the site as it would be with that change request merged, read by those who may read the change request (or with a preview share link)."
      })),
    /** The preview share links of a change request on the site. */
    HttpApiEndpoint.get("listSitePreviewShareLinks", "/orgs/:organizationId/sites/:siteId/publishing/preview/:changeRequestId/share-links", {
      params: previewShareLinkParams,
      success: Schema.Struct({ items: Schema.Array(ShareLink) }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a change request's preview links",
        description: "Lists the links that open the site's preview of a change request to anyone holding them."
      })),
    /** A new link that opens the change request's preview (and nothing else) to whoever holds it. */
    HttpApiEndpoint.post("createSitePreviewShareLink", "/orgs/:organizationId/sites/:siteId/publishing/preview/:changeRequestId/share-links", {
      params: previewShareLinkParams,
      success: ShareLink.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a preview link",
        description: "Creates a secret link to the site's preview of a change request. Needs read access to the change request."
      })),
    /** Revokes a preview link at once; 204 also when it does not exist. */
    HttpApiEndpoint.delete(
      "deleteSitePreviewShareLink",
      "/orgs/:organizationId/sites/:siteId/publishing/preview/:changeRequestId/share-links/:shareLinkId",
      {
        params: { ...previewShareLinkParams, shareLinkId: EntityId },
        success: HttpApiSchema.NoContent,
        error: ApiErrors.Common
      }
    )
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a preview link",
        description: "Revokes a link to a change request's preview; whoever holds it loses access at once."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
