/** Site sections: the tabs of a site, each holding site spaces (its variants). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, PageQuery } from "./Schemas.ts"
import {
  Condition,
  Icon,
  SectionDescription,
  SectionTitle,
  ShareKeyQuery,
  siteParams,
  SitePath,
  SiteSection
} from "./SiteSchemas.ts"

export { SiteSection }

const sectionParams = { ...siteParams, siteSectionId: EntityId } as const

/** GitBook's `SiteSectionPointer`. */
export const SiteSectionPointer = Schema.Struct({ type: Schema.Literal("site-section"), siteSection: EntityId })

/** Just before or just after a sibling section (one of the two); absent: at the end. */
export const SiteSectionMovePosition = Schema.Struct({
  before: Schema.optionalKey(SiteSectionPointer),
  after: Schema.optionalKey(SiteSectionPointer)
})

export class SiteSectionsApi extends HttpApiGroup.make("siteSections")
  .add(
    /** The site's sections in their order, each with its site spaces. */
    HttpApiEndpoint.get("listSiteSections", "/orgs/:organizationId/sites/:siteId/sections", {
      params: siteParams,
      query: { ...ShareKeyQuery, ...PageQuery },
      success: ListOf(SiteSection),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a site's sections",
        description: "Lists the sections of a site in order."
      })),
    /**
     * Adds a section at the end holding `spaceId` as its default site space; untitled, it takes the
     * space's title. A site's first section becomes its default.
     */
    HttpApiEndpoint.post("addSectionToSite", "/orgs/:organizationId/sites/:siteId/sections", {
      params: siteParams,
      payload: Schema.Struct({
        spaceId: EntityId,
        title: Schema.optionalKey(Schema.NullOr(SectionTitle)),
        icon: Schema.optionalKey(Schema.NullOr(Icon))
      }),
      success: SiteSection.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Add a section",
        description: "Adds a section to a site, showing a space. Needs the admin role."
      })),
    /** Changes the section; null removes `condition`, `icon` and `description`. */
    HttpApiEndpoint.patch("updateSiteSectionById", "/orgs/:organizationId/sites/:siteId/sections/:siteSectionId", {
      params: sectionParams,
      payload: Schema.Struct({
        title: Schema.optionalKey(SectionTitle),
        path: Schema.optionalKey(SitePath),
        defaultSiteSpace: Schema.optionalKey(EntityId),
        condition: Schema.optionalKey(Schema.NullOr(Condition)),
        icon: Schema.optionalKey(Schema.NullOr(Icon)),
        description: Schema.optionalKey(Schema.NullOr(SectionDescription))
      }),
      success: SiteSection,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a section",
        description: "Changes a section's title, icon or path. Needs the admin role."
      })),
    /** Deletes the section and its site spaces (never the spaces); the others keep their order. 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteSiteSectionById", "/orgs/:organizationId/sites/:siteId/sections/:siteSectionId", {
      params: sectionParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Remove a section",
        description: "Removes a section and its site spaces from a site. Needs the admin role."
      })),
    /** Moves the section beside a sibling (deprecated by GitBook for `sortSiteStructure`). */
    HttpApiEndpoint.post("moveSiteSection", "/orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move", {
      params: sectionParams,
      payload: Schema.Struct({ position: Schema.optionalKey(SiteSectionMovePosition) }),
      success: SiteSection,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Move a section",
        description: "Moves a section before or after another one. Needs the admin role.",
        deprecated: true
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
