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
    }),
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
    }),
    /** Changes the title or the icon (null removes it). */
    HttpApiEndpoint.patch("updateSiteSectionGroupById", "/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId", {
      params: groupParams,
      payload: Schema.Struct({
        title: Schema.optionalKey(SectionGroupTitle),
        icon: Schema.optionalKey(Schema.NullOr(Icon))
      }),
      success: SiteSectionGroup,
      error: ApiErrors.Common
    }),
    /** Deletes the group; its sections stay, outside any group, and the rest keep their order. 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteSiteSectionGroupById", "/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId", {
      params: groupParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    /** Puts a section at the end of the group (out of any other group). GitBook's spec names no operation: the name is Quire's. */
    HttpApiEndpoint.post("addSectionToSiteSectionGroup", "/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections", {
      params: groupParams,
      payload: Schema.Struct({ sectionId: EntityId }),
      success: SiteSectionGroup.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    }),
    /** Takes a section out of the group; 204 also when it was not in it. The name is Quire's. */
    HttpApiEndpoint.delete(
      "removeSectionFromSiteSectionGroup",
      "/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId",
      {
        params: { ...groupParams, siteSectionId: EntityId },
        success: HttpApiSchema.NoContent,
        error: ApiErrors.Common
      }
    ),
    /** Moves the group beside a section or another group (deprecated by GitBook for `sortSiteStructure`). */
    HttpApiEndpoint.post("moveSiteSectionGroup", "/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move", {
      params: groupParams,
      payload: Schema.Struct({ position: Schema.optionalKey(SiteSectionGroupMovePosition) }),
      success: SiteSectionGroup,
      error: ApiErrors.Common
    }).annotate(OpenApi.Deprecated, true)
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
