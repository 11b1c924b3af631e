/**
 * Revisions of a space by id (main's history and change requests' branches): the revision, its
 * pages by id or path, its files, and what it changed (GitBook's semantic changes, plus a line diff
 * of each edited page's markdown with `diff=true`).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { ChangeRequest, ChangeRequestSubject } from "./ChangeRequestsApi.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, Limit, ListOf, PageQuery, Timestamp } from "./Schemas.ts"
import { ContentQuery, ContentRef, JsonDocument, PageCover, PageLayout, PagePath, PageReadQuery, Revision, RevisionFile, RevisionPage, RevisionType } from "./SpaceContentApi.ts"

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

/** A reusable content as a change names it. */
export const ChangedRevisionReusableContent = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  document: Schema.optionalKey(Schema.String)
})

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
  Schema.Struct({ type: Schema.Literal("reusable_content_created"), reusableContent: ChangedRevisionReusableContent }),
  Schema.Struct({
    type: Schema.Literal("reusable_content_edited"),
    reusableContent: ChangedRevisionReusableContent,
    attributes: Schema.Struct({
      title: Schema.optionalKey(change(Schema.String)),
      document: Schema.optionalKey(change(Schema.String))
    })
  }),
  Schema.Struct({ type: Schema.Literal("reusable_content_deleted"), reusableContent: ChangedRevisionReusableContent }),
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

/** A revision of main's history as `listRevisionsInSpace` lists it: GitBook's Revision without its tree, files and variables. */
export const RevisionSummary = Schema.Struct({
  object: Schema.Literal("revision"),
  id: Schema.String,
  parents: Schema.Array(Schema.String),
  type: RevisionType,
  createdAt: Timestamp,
  git: Revision.fields.git,
  urls: Schema.Struct({ app: Schema.String })
}).annotate({ identifier: "RevisionSummary" })
export type RevisionSummary = typeof RevisionSummary.Type

/**
 * GitBook's `evaluated` and `dereferenced` of a document read: expressions are not evaluated by
 * Quire (its documents hold none to evaluate); `dereferenced=true` or `reusable-contents` replaces
 * each include by the reusable content's blocks.
 */
export const DocumentQuery = {
  evaluated: Schema.optional(Schema.Union([Schema.Boolean, Schema.Literal("deterministic-only")])),
  dereferenced: Schema.optional(Schema.Union([Schema.Boolean, Schema.Literal("reusable-contents")]))
} as const

/** GitBook's `RevisionPageMetaLinkTarget`: a page (of this space unless `space`) or a URL. */
export const RevisionPageMetaLinkTarget = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("page"), page: Schema.String, space: Schema.optionalKey(Schema.String) }),
  Schema.Struct({ kind: Schema.Literal("url"), url: Schema.String })
])

/** GitBook's `RevisionPageMetaLinks`: the page's canonical link and its alternates. */
export const RevisionPageMetaLinks = Schema.Struct({
  canonical: Schema.optionalKey(RevisionPageMetaLinkTarget),
  alternates: Schema.optionalKey(Schema.Array(RevisionPageMetaLinkTarget))
}).annotate({ identifier: "RevisionPageMetaLinks" })

const prefix = "/spaces/:spaceId/revisions/:revisionId"
const revisionParams = { spaceId: EntityId, revisionId: EntityId } as const

/** A page read of a revision: GitBook's `format` and the rest, and its `dereferenced` (see DocumentQuery). */
const RevisionPageQuery = { ...PageReadQuery, dereferenced: DocumentQuery.dereferenced } as const

export class RevisionsApi extends HttpApiGroup.make("revisions")
  .add(
    /** Quire's extension: main's history, newest first (GitBook lists no revisions). */
    HttpApiEndpoint.get("listRevisionsInSpace", "/spaces/:spaceId/revisions", {
      params: { spaceId: EntityId },
      query: PageQuery,
      success: ListOf(RevisionSummary),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List the revisions of the main content",
        description: "Quire's extension (GitBook has no such operation): the history of the space's main content, newest first: its current revision, then each one's first parent, without page trees (read one with `getRevisionById`, what it changed with `getRevisionSemanticChanges`). Needs view permission."
      })),
    /** A revision of the space, main's or a change request's. */
    HttpApiEndpoint.get("getRevisionById", prefix, {
      params: revisionParams,
      query: ContentQuery,
      success: Revision,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a revision",
        description: "Answers any revision of the space: a past state of the main content or a revision of one of its change requests, with its page tree and files. 404 for a revision of another space. Needs view permission."
      })),
    HttpApiEndpoint.get("listPagesInRevisionById", `${prefix}/pages`, {
      params: revisionParams,
      query: ContentQuery,
      success: Schema.Struct({ pages: Schema.Array(RevisionPage) }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a revision's pages",
        description: "Answers the page tree of a revision of the space, without page bodies. Needs view permission."
      })),
    HttpApiEndpoint.get("getPageInRevisionById", `${prefix}/page/:pageId`, {
      params: { ...revisionParams, pageId: EntityId },
      query: RevisionPageQuery,
      success: RevisionPage,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a page in a revision",
        description: "Answers a page as it was in a revision of the space, as a JSON document or, with `format=markdown`, as markdown. With `format=html` (Quire's extension) it answers the body rendered as the published site renders it, in `html`. `dereferenced=reusable-contents` (or `true`) replaces each include of a reusable content of the revision by that content: its blocks in the document, its markdown in the markdown. Read with a published site's reader token, the markdown is always the site's own `<page>.md` body (the reusable contents it includes in place, its `{% if %}` blocks evaluated for the visitor); a member's otherwise keeps its `{% include %}` tags as written. Needs view permission."
      })),
    /** A page's body in a revision as GitBook's JSON document. */
    HttpApiEndpoint.get("getPageDocumentInRevisionById", `${prefix}/page/:pageId/document`, {
      params: { ...revisionParams, pageId: EntityId },
      query: DocumentQuery,
      success: JsonDocument,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a page's document in a revision",
        description: "Answers the body of a page of a revision of the space as a JSON document (empty for a group or a link). With `dereferenced=reusable-contents` (or `true`), each include of a reusable content of the revision is replaced by that content's blocks. `evaluated` is accepted; Quire's documents hold no expressions to evaluate. Needs view permission."
      })),
    /** A page's meta links (canonical, alternates) in a revision. */
    HttpApiEndpoint.get("listRevisionPageMetaLinks", `${prefix}/page/:pageId/meta-links`, {
      params: { ...revisionParams, pageId: EntityId },
      success: RevisionPageMetaLinks,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a page's meta links in a revision",
        description: "Answers a page's canonical link and its alternates. Quire keeps no per-page canonical or alternate links, so a page answers none (`alternates` empty), as GitBook answers for a page without them. 404 when the revision has no such page. Needs view permission."
      })),
    HttpApiEndpoint.get("getPageInRevisionByPath", `${prefix}/path/:pagePath`, {
      params: { ...revisionParams, pagePath: PagePath },
      query: RevisionPageQuery,
      success: RevisionPage,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a page in a revision by path",
        description: "Answers the page at a path (slugs joined by `/`) in a revision of the space. A path no page has that the `redirects:` of the space's `.gitbook.yaml` (at its last Git import) name answers the page the redirect leads to, as the published site follows it. 404 when neither a page nor such a redirect has that path there. Needs view permission."
      })),
    HttpApiEndpoint.get("listFilesInRevisionById", `${prefix}/files`, {
      params: revisionParams,
      query: { ...PageQuery, ...ContentQuery },
      success: ListOf(RevisionFile),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a revision's files",
        description: "Lists the files of a revision of the space with signed download URLs. Needs view permission."
      })),
    HttpApiEndpoint.get("getFileInRevisionById", `${prefix}/files/:fileId`, {
      params: { ...revisionParams, fileId: EntityId },
      query: ContentQuery,
      success: RevisionFile,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a file in a revision",
        description: "Answers one file of a revision of the space with a signed download URL. Needs view permission."
      })),
    /** What the revision changed since its first parent. */
    HttpApiEndpoint.get("getRevisionSemanticChanges", `${prefix}/changes`, {
      params: revisionParams,
      query: { ...ContentQuery, ...ChangesQuery },
      success: RevisionSemanticChanges,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List what a revision changed",
        description: "Compares a revision with its first parent and answers the pages created, edited (with the attributes that changed), moved and deleted, the files created, edited and deleted, the reusable contents created, edited and deleted, and the variables edited; `limit` (default 10) bounds the list and `more` counts the rest. With `diff=true` (Quire's extension), each page whose markdown changed carries `diff`, a unified line diff. A merge revision names the change request it merged (`mergedFrom`). Needs view permission."
      })),
    /** Quire's extension: a past revision restored through a change request, in one transaction. */
    HttpApiEndpoint.post("restoreRevisionInChangeRequest", `${prefix}/restore`, {
      params: revisionParams,
      payload: Schema.Struct({ subject: Schema.optionalKey(ChangeRequestSubject) }),
      success: ChangeRequest.pipe(HttpApiSchema.status(201)),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Restore a revision through a change request",
        description: "Quire's extension (GitBook has no such operation): opens a draft change request on the current main content whose content is that revision's, entire: its pages with their groups, links, descriptions and options, its files, variables and reusable contents. Its review shows what the restore changes; merging it makes the main content read as the revision did. One transaction: nothing is left behind when it fails. Needs edit permission; 404 for a revision of another space.",
        transform: requestExample({ subject: "Restore the handbook as of 3 March" })
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
