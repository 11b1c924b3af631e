/** Site spaces: spaces placed in a site, in a section or at the root; the variants readers switch between. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, ListOf, PageQuery } from "./Schemas.ts"
import { Condition, ShareKeyQuery, siteParams, SitePath, SiteSpace } from "./SiteSchemas.ts"

export { SiteSpace }

const siteSpaceParams = { ...siteParams, siteSpaceId: EntityId } as const

/** GitBook's `SiteSpacePointer`. */
export const SiteSpacePointer = Schema.Struct({ type: Schema.Literal("site-space"), siteSpace: EntityId })

/** Just before or just after a sibling site space (one of the two); absent: at the end. */
export const SiteSpaceMovePosition = Schema.Struct({
  before: Schema.optionalKey(SiteSpacePointer),
  after: Schema.optionalKey(SiteSpacePointer)
})

export class SiteSpacesApi extends HttpApiGroup.make("siteSpaces")
  .add(
    /** The site's site spaces, section by section, in their order; `default` keeps only the default ones (true) or the others (false). */
    HttpApiEndpoint.get("listSiteSpaces", "/orgs/:organizationId/sites/:siteId/site-spaces", {
      params: siteParams,
      query: { ...ShareKeyQuery, ...PageQuery, default: Schema.optional(Schema.Boolean) },
      success: ListOf(SiteSpace),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List site spaces",
        description: "Lists the spaces a site publishes, with their paths."
      })),
    /** Adds a space at the end of `sectionId`, else of the default section, else of the site's root. */
    HttpApiEndpoint.post("addSpaceToSite", "/orgs/:organizationId/sites/:siteId/site-spaces", {
      params: siteParams,
      payload: Schema.Struct({
        spaceId: EntityId,
        sectionId: Schema.optionalKey(EntityId)
      }),
      success: SiteSpace.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Publish a space on a site",
        description: "Adds a space to a site (or a section of it) under a path. Needs the admin role.",
        transform: requestExample({ spaceId: "spc_0123456789abcdef" })
      })),
    /** Changes the path, the condition (null removes it) or the space it shows. */
    HttpApiEndpoint.patch("updateSiteSpaceById", "/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId", {
      params: siteSpaceParams,
      payload: Schema.Struct({
        path: Schema.optionalKey(SitePath),
        condition: Schema.optionalKey(Schema.NullOr(Condition)),
        spaceId: Schema.optionalKey(EntityId)
      }),
      success: SiteSpace,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a site space",
        description: "Changes a site space's path or the space it shows. Needs the admin role."
      })),
    /** Takes the space out of the site (the space stays); the others keep their order. 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteSiteSpaceById", "/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId", {
      params: siteSpaceParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Remove a space from a site",
        description: "Stops publishing a space on a site; the space itself is kept. Needs the admin role."
      })),
    /** Moves the site space beside a sibling of its section (deprecated by GitBook for `sortSiteStructure`). */
    HttpApiEndpoint.post("moveSiteSpace", "/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/move", {
      params: siteSpaceParams,
      payload: Schema.Struct({ position: Schema.optionalKey(SiteSpaceMovePosition) }),
      success: SiteSpace,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Move a site space",
        description: "Moves a site space before or after another one. Needs the admin role.",
        deprecated: true
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
