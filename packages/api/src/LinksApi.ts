/**
 * Links of a space's content and their backlinks. GitBook lists these operations without
 * operationIds; the names are ours.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { Organization } from "./OrganizationsApi.ts"
import { LinkStatus } from "@quire/markdown/domain/LinkStatus"
import { EntityId, ListOf, PageQuery } from "./Schemas.ts"
import { RevisionFile, RevisionPage } from "./SpaceContentApi.ts"
import { Space } from "./SpacesApi.ts"

/** Which revision a reference is in; `revision` is the revision's id. */
export const VersionContext = Schema.Struct({ type: Schema.Literal("revision"), revision: Schema.String })

/** Where a link points or where it is (GitBook's ContentLocation): a page, a file, or a URL. */
export const ContentReference = Schema.Union([
  Schema.Struct({
    kind: Schema.Literal("page"),
    organization: Organization,
    space: Space,
    page: RevisionPage,
    versionContext: Schema.optionalKey(VersionContext),
    internalLocation: Schema.optionalKey(Schema.Struct({ type: Schema.Literal("anchor"), anchor: Schema.String }))
  }),
  Schema.Struct({
    kind: Schema.Literal("file"),
    organization: Organization,
    space: Space,
    file: RevisionFile,
    versionContext: Schema.optionalKey(VersionContext)
  }),
  Schema.Struct({ kind: Schema.Literal("url"), url: Schema.String })
])
export type ContentReference = typeof ContentReference.Type

/** `ok`: nothing wrong; `broken`: the target is missing from the revision; `in-app`: a URL of the app itself. */
export { LinkStatus }

/** A link target and the pages it is linked from. */
export const ContentLink = Schema.Struct({
  status: LinkStatus,
  relation: Schema.Literal("reference"),
  targetReference: ContentReference,
  locationReferences: Schema.optionalKey(Schema.Array(ContentReference))
})
export type ContentLink = typeof ContentLink.Type

/** The list envelope of links, with totals over every status. */
export const ContentLinkList = Schema.Struct({
  ...ListOf(ContentLink).fields,
  stats: Schema.Struct({
    total: Schema.Finite,
    broken: Schema.Struct({ total: Schema.Finite, changeRequest: Schema.Finite })
  })
})
export type ContentLinkList = typeof ContentLinkList.Type

const LinksQuery = { ...PageQuery, status: Schema.optional(LinkStatus) } as const

export class LinksApi extends HttpApiGroup.make("links")
  .add(
    /** The link targets of the space's current content, with the pages they are linked from. */
    HttpApiEndpoint.get("listSpaceLinks", "/spaces/:spaceId/links", {
      params: { spaceId: EntityId },
      query: LinksQuery,
      success: ContentLinkList,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a space's links",
        description: "Lists every link of the space's main content grouped by target, with broken ones marked. Needs view permission."
      })),
    /** The link targets of one page of the current content. */
    HttpApiEndpoint.get("listPageLinks", "/spaces/:spaceId/content/page/:pageId/links", {
      params: { spaceId: EntityId, pageId: EntityId },
      query: LinksQuery,
      success: ContentLinkList,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a page's links",
        description: "Lists the links that appear on one page of the main content, grouped by target. Needs view permission."
      })),
    /** The pages of the current content that link to the page. */
    HttpApiEndpoint.get("listPageBacklinks", "/spaces/:spaceId/content/page/:pageId/backlinks", {
      params: { spaceId: EntityId, pageId: EntityId },
      query: PageQuery,
      success: ListOf(ContentReference),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a page's backlinks",
        description: "Lists the pages of the main content that link to a page. Needs view permission."
      })),
    /** The pages of the current content that link to, embed, or use as cover the file. */
    HttpApiEndpoint.get("listFileBacklinks", "/spaces/:spaceId/content/files/:fileId/backlinks", {
      params: { spaceId: EntityId, fileId: EntityId },
      query: PageQuery,
      success: ListOf(ContentReference),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a file's backlinks",
        description: "Lists the pages of the main content that link to or embed a file. Needs view permission."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
