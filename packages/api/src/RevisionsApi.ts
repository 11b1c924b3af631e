/**
 * Revisions of a space by id (main's history and change requests' branches): the revision, its
 * pages by id or path, its files, and what it changed (GitBook's semantic changes, plus a line diff
 * of each edited page's markdown with `diff=true`).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { ChangeRequest } from "./ChangeRequestsApi.ts"
import { EntityId, Limit, ListOf, PageQuery } from "./Schemas.ts"
import { ContentQuery, ContentRef, PageCover, PageLayout, PagePath, PageReadQuery, Revision, RevisionFile, RevisionPage } from "./SpaceContentApi.ts"

const change = <S extends Schema.Top>(value: S) =>
  Schema.Struct({ before: Schema.optionalKey(value), after: Schema.optionalKey(value) })

/** A page as a change names it. */
export const ChangedRevisionPage = Schema.Struct({
  id: Schema.String,
  type: Schema.Literals(["document", "group", "link", "computed"]),
  title: Schema.String,
  path: Schema.optionalKey(Schema.String)
})

export const ChangedRevisionFile = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  contentType: Schema.String,
  downloadURL: Schema.String
})

const Dimensions = Schema.Struct({ width: Schema.Finite, height: Schema.Finite })

/** One semantic change; `page_edited` carries `diff` (ours), the unified diff of the page's markdown, when asked. */
export const RevisionSemanticChange = Schema.Union([
  Schema.Struct({ type: Schema.Literal("page_created"), page: ChangedRevisionPage }),
  Schema.Struct({
    type: Schema.Literal("page_edited"),
    page: ChangedRevisionPage,
    attributes: Schema.Struct({
      title: Schema.optionalKey(change(Schema.String)),
      description: Schema.optionalKey(change(Schema.String)),
      slug: Schema.optionalKey(change(Schema.String)),
      document: Schema.optionalKey(change(Schema.String)),
      cover: Schema.optionalKey(change(PageCover)),
      emoji: Schema.optionalKey(change(Schema.String)),
      layout: Schema.optionalKey(change(PageLayout)),
      variables: Schema.optionalKey(change(Schema.Record(Schema.String, Schema.String))),
      target: Schema.optionalKey(change(ContentRef))
    }),
    diff: Schema.optionalKey(Schema.String)
  }),
  Schema.Struct({ type: Schema.Literal("page_deleted"), page: ChangedRevisionPage }),
  Schema.Struct({
    type: Schema.Literal("page_moved"),
    page: ChangedRevisionPage,
    parent: change(ChangedRevisionPage)
  }),
  Schema.Struct({ type: Schema.Literal("file_created"), file: ChangedRevisionFile }),
  Schema.Struct({
    type: Schema.Literal("file_edited"),
    file: ChangedRevisionFile,
    attributes: Schema.Struct({
      name: Schema.optionalKey(change(Schema.String)),
      downloadURL: Schema.optionalKey(change(Schema.String)),
      size: Schema.optionalKey(change(Schema.Finite)),
      contentType: Schema.optionalKey(change(Schema.String)),
      dimensions: Schema.optionalKey(change(Dimensions))
    })
  }),
  Schema.Struct({ type: Schema.Literal("file_deleted"), file: ChangedRevisionFile }),
  Schema.Struct({
    type: Schema.Literal("variables_edited"),
    variables: Schema.Record(Schema.String, change(Schema.String))
  })
])
export type RevisionSemanticChange = typeof RevisionSemanticChange.Type

/**
 * What a revision or a change request changed; `more` counts the changes past `limit`;
 * `mergedFrom` is the change request a merge revision merged.
 */
export const RevisionSemanticChanges = Schema.Struct({
  mergedFrom: Schema.optionalKey(ChangeRequest),
  changes: Schema.Array(RevisionSemanticChange),
  more: Schema.optionalKey(Schema.Finite)
}).annotate({ identifier: "RevisionSemanticChanges" })
export type RevisionSemanticChanges = typeof RevisionSemanticChanges.Type

/** `limit` (GitBook's default 10, at most 1000) and `diff=true` for a line diff of each edited page. */
export const ChangesQuery = {
  limit: Schema.optional(Limit),
  diff: Schema.optional(Schema.Boolean)
} as const

const prefix = "/spaces/:spaceId/revisions/:revisionId"
const revisionParams = { spaceId: EntityId, revisionId: EntityId } as const

export class RevisionsApi extends HttpApiGroup.make("revisions")
  .add(
    /** A revision of the space, main's or a change request's. */
    HttpApiEndpoint.get("getRevisionById", prefix, {
      params: revisionParams,
      query: ContentQuery,
      success: Revision,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("listPagesInRevisionById", `${prefix}/pages`, {
      params: revisionParams,
      query: ContentQuery,
      success: Schema.Struct({ pages: Schema.Array(RevisionPage) }),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("getPageInRevisionById", `${prefix}/page/:pageId`, {
      params: { ...revisionParams, pageId: EntityId },
      query: PageReadQuery,
      success: RevisionPage,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("getPageInRevisionByPath", `${prefix}/path/:pagePath`, {
      params: { ...revisionParams, pagePath: PagePath },
      query: PageReadQuery,
      success: RevisionPage,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("listFilesInRevisionById", `${prefix}/files`, {
      params: revisionParams,
      query: { ...PageQuery, ...ContentQuery },
      success: ListOf(RevisionFile),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("getFileInRevisionById", `${prefix}/files/:fileId`, {
      params: { ...revisionParams, fileId: EntityId },
      query: ContentQuery,
      success: RevisionFile,
      error: ApiErrors.Common
    }),
    /** What the revision changed since its first parent. */
    HttpApiEndpoint.get("getRevisionSemanticChanges", `${prefix}/changes`, {
      params: revisionParams,
      query: { ...ContentQuery, ...ChangesQuery },
      success: RevisionSemanticChanges,
      error: ApiErrors.Common
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
