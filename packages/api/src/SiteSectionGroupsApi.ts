/** Site section groups: named menus of sections in a site's tabs. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, PageQuery } from "./Schemas.ts"
import { Icon, SectionGroupTitle, siteParams, SiteSectionGroup } from "./SiteSchemas.ts"

export { SiteSectionGroup }

const groupParams = { ...siteParams, siteSectionGroupId: EntityId } as const

/** GitBook's `SiteSectionGroupPointer`: a section or a group beside which to move. */
export const SiteSectionGroupPointer = Schema.Struct({
  type: Schema.Literals(["site-section", "site-section-group"]),
  id: EntityId
})

/** Just before or just after a sibling (one of the two); absent: at the end. */
export const SiteSectionGroupMovePosition = Schema.Struct({
  before: Schema.optionalKey(SiteSectionGroupPointer),
  after: Schema.optionalKey(SiteSectionGroupPointer)
})

export class SiteSectionGroupsApi extends HttpApiGroup.make("siteSectionGroups")
  .add(
    /** The site's section groups in their order, each with its sections. */
    HttpApiEndpoint.get("listSiteSectionGroups", "/orgs/:organizationId/sites/:siteId/section-groups", {
      params: siteParams,
      query: PageQuery,
      success: ListOf(SiteSectionGroup),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List section groups",
        description: "Lists the section groups of a site in order."
      })),
    /** Adds a group at the end, holding `sections` in the order given. */
    HttpApiEndpoint.post("addSectionGroupToSite", "/orgs/:organizationId/sites/:siteId/section-groups", {
      params: siteParams,
      payload: Schema.Struct({
        title: SectionGroupTitle,
        icon: Schema.optionalKey(Schema.NullOr(Icon)),
        sections: Schema.optionalKey(Schema.Array(EntityId).check(Schema.isMaxLength(1000)))
      }),
      success: SiteSectionGroup.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Add a section group",
        description: "Adds a group that gathers sections under one heading. Needs the admin role."
      })),
    /** Changes the title or the icon (null removes it). */
    HttpApiEndpoint.patch("updateSiteSectionGroupById", "/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId", {
      params: groupParams,
      payload: Schema.Struct({
        title: Schema.optionalKey(SectionGroupTitle),
        icon: Schema.optionalKey(Schema.NullOr(Icon))
      }),
      success: SiteSectionGroup,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a section group",
        description: "Changes a section group's title or icon. Needs the admin role."
      })),
    /** Deletes the group; its sections stay, outside any group, and the rest keep their order. 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteSiteSectionGroupById", "/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId", {
      params: groupParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Remove a section group",
        description: "Removes a section group; its sections stay on the site. Needs the admin role."
      })),
    /** Puts a section at the end of the group (out of any other group). GitBook's spec names no operation: the name is Quire's. */
    HttpApiEndpoint.post("addSectionToSiteSectionGroup", "/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections", {
      params: groupParams,
      payload: Schema.Struct({ sectionId: EntityId }),
      success: SiteSectionGroup.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Put a section in a group",
        description: "Moves a section into a section group. Needs the admin role."
      })),
    /** Takes a section out of the group; 204 also when it was not in it. The name is Quire's. */
    HttpApiEndpoint.delete(
      "removeSectionFromSiteSectionGroup",
      "/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId",
      {
        params: { ...groupParams, siteSectionId: EntityId },
        success: HttpApiSchema.NoContent,
        error: ApiErrors.Common
      }
    )
      .annotateMerge(OpenApi.annotations({
        summary: "Take a section out of a group",
        description: "Takes a section out of its group; it stays on the site. Needs the admin role."
      })),
    /** Moves the group beside a section or another group (deprecated by GitBook for `sortSiteStructure`). */
    HttpApiEndpoint.post("moveSiteSectionGroup", "/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move", {
      params: groupParams,
      payload: Schema.Struct({ position: Schema.optionalKey(SiteSectionGroupMovePosition) }),
      success: SiteSectionGroup,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Move a section group",
        description: "Moves a section group before or after another one. Needs the admin role.",
        deprecated: true
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
