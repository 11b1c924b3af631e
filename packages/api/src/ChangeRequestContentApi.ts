/** A change request's content: batches of edits, and reads of its head revision. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { ChangeRequest, changeRequestParams } from "./ChangeRequestsApi.ts"
import { ContentLinkList, ContentReference, LinkStatus } from "./LinksApi.ts"
import { requestExample } from "./RequestExample.ts"
import { ListOf, MediaType, PageQuery, Text, Url } from "./Schemas.ts"
import { ContentQuery, PagePath, PageReadQuery, Revision, RevisionFile, RevisionPage } from "./SpaceContentApi.ts"
import { EntityId } from "./Schemas.ts"
import { PageType } from "@quire/content/domain/Revision"

/** The longest markdown of one page (characters), and of all the pages of one batch. */
export const maxPageMarkdown = 5_000_000
export const maxBatchMarkdown = 10_000_000
/** The longest `base64` of one file: 1 MiB of bytes. */
const maxFileBase64 = Math.ceil((1 << 20) / 3) * 4

/** A page id or a ref of the batch. */
const PageRef = Text.check(Schema.isMinLength(1), Schema.isMaxLength(100))

/** A page's document: markdown, or GitBook's JSON `document` (stored as the GitBook markdown Git sync writes for it), or nothing for an empty page. */
const Document = Schema.Struct({
  markdown: Schema.optionalKey(Text.check(Schema.isMaxLength(maxPageMarkdown))),
  document: Schema.optionalKey(Schema.Unknown)
})

const PageMetadata = {
  title: Schema.optionalKey(Text.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  slug: Schema.optionalKey(Text.check(Schema.isMinLength(1), Schema.isMaxLength(100))),
  emoji: Schema.optionalKey(Text.check(Schema.isMaxLength(50))),
  /** GitBook's icon name (`gear`, `book-open`); empty removes it. A markdown document's frontmatter may set `icon`, `cover`, `layout` too. */
  icon: Schema.optionalKey(Text.check(Schema.isMaxLength(50))),
  description: Schema.optionalKey(Text.check(Schema.isMaxLength(1000))),
  hidden: Schema.optionalKey(Schema.Boolean),
  /** The navigation's label instead of the title (GitBook's page input `linkTitle`, at most 100 characters); empty removes it. */
  linkTitle: Schema.optionalKey(Text.check(Schema.isMaxLength(100)))
} as const

const Index = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

export const ChangeRequestContentChange = Schema.Union([
  Schema.Struct({
    operation: Schema.Literal("insert_page"),
    /**
     * Quire's extension: the kind of page, as listPages answers it: `document` (the default), `group`
     * (a heading of the table of contents, at the top level, no document: send `document: {}`) or
     * `link` (no document; `href` says where it points).
     */
    type: Schema.optionalKey(PageType),
    /** Link pages: an absolute URL, or a page (its id or the ref of a page inserted earlier in the batch). */
    href: Schema.optionalKey(Text.check(Schema.isMinLength(1), Schema.isMaxLength(2048))),
    ...PageMetadata,
    document: Document,
    into: Schema.optionalKey(PageRef),
    at: Schema.optionalKey(Index),
    ref: Schema.optionalKey(Text.check(Schema.isMinLength(1), Schema.isMaxLength(100)))
  }),
  Schema.Struct({
    operation: Schema.Literal("update_page"),
    page: PageRef,
    ...PageMetadata,
    document: Schema.optionalKey(Document),
    into: Schema.optionalKey(Schema.NullOr(PageRef)),
    at: Schema.optionalKey(Index)
  }),
  Schema.Struct({ operation: Schema.Literal("delete_page"), page: PageRef }),
  Schema.Struct({
    operation: Schema.Literal("insert_files"),
    files: Schema.Array(Schema.Struct({
      name: Text.check(Schema.isMinLength(1), Schema.isMaxLength(256)),
      contentType: Schema.optionalKey(MediaType),
      /** The bytes, base64-encoded (at most 1 MB decoded). */
      base64: Schema.optionalKey(Text.check(Schema.isMaxLength(maxFileBase64))),
      /** A public http(s) URL Quire fetches the file from (at most 1 MB); private and reserved addresses are refused. */
      url: Schema.optionalKey(Url),
      ref: Schema.optionalKey(PageRef)
    })).check(Schema.isMinLength(1), Schema.isMaxLength(20))
  })
])
export type ChangeRequestContentChange = typeof ChangeRequestContentChange.Type

const markdownOf = (change: ChangeRequestContentChange): number =>
  (change.operation === "insert_page" || change.operation === "update_page") ? change.document?.markdown?.length ?? 0 : 0

/** 1 to 50 changes, whose pages' markdown totals at most `maxBatchMarkdown` characters. */
const Changes = Schema.Array(ChangeRequestContentChange).check(
  Schema.isMinLength(1),
  Schema.isMaxLength(50),
  Schema.makeFilter((changes: ReadonlyArray<ChangeRequestContentChange>) => {
    const total = changes.reduce((sum, change) => sum + markdownOf(change), 0)
    return total <= maxBatchMarkdown
      ? undefined
      : `the pages' markdown totals ${total} characters; a batch holds at most ${maxBatchMarkdown}`
  })
)

const LinksQuery = { ...PageQuery, status: Schema.optional(LinkStatus) } as const

const prefix = "/spaces/:spaceId/change-requests/:changeRequestId/content"

export class ChangeRequestContentApi extends HttpApiGroup.make("changeRequestContent")
  .add(
    /** Applies 1 to 50 changes atomically as one new revision of the change request; a bad change rejects the batch (400 naming it). */
    HttpApiEndpoint.post("updateChangeRequestContent", prefix, {
      params: changeRequestParams,
      payload: Schema.Struct({
        changes: Changes,
        /**
         * Quire's extension: the revision the changes were written against. A page updated since
         * is merged three-way with it, or the batch is refused with 409 showing the conflict.
         */
        baseRevision: Schema.optionalKey(Schema.String)
      }),
      /** The change request, plus `files`: the files the batch's `insert_files` stored (ids and download URLs), when it has some. */
      success: Schema.Struct({
        ...ChangeRequest.fields,
        files: Schema.optionalKey(Schema.Array(RevisionFile))
      }).annotate({ identifier: "ChangeRequestContentUpdate" }),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Edit a change request's content",
        description: "Applies a batch of page and file edits, in order, as one revision of the change request; the first edit that cannot apply refuses the whole batch with a 400. Needs edit permission. `insert_page` makes a document, or with `type` (Quire's extension) a `group` (top level only, no document) or a `link` page to `href` (a URL, or a page's id or batch ref). Moving or renaming a page rewrites the links to it in the change request's other pages. With `baseRevision` (Quire's extension: the revision, of this space, that the edits were written against), an `update_page` of a page changed in the change request since then is merged three-way (markdown by lines; title and description kept where only one side changed them) instead of overwriting it, and a change that overlaps refuses the batch with a 409 whose message shows the conflicting lines. The answer is the change request, plus `files` (the files the batch's `insert_files` stored, with their ids and download URLs) when it inserted some.",
        transform: requestExample({
          changes: [
            { operation: "insert_page", type: "group", ref: "guides", title: "Guides", document: {} },
            { operation: "insert_page", ref: "install", title: "Installation", document: { markdown: "Run `npm install`.\n" } },
            { operation: "insert_page", type: "link", title: "Changelog", href: "https://example.com/changelog", document: {} },
            { operation: "update_page", page: "pg_0123456789abcdef", document: { markdown: "See [Installation](./install.md).\n" } }
          ]
        })
      })),
    /** The change request's current revision. */
    HttpApiEndpoint.get("getRevisionOfChangeRequestById", prefix, {
      params: changeRequestParams,
      query: ContentQuery,
      success: Revision,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a change request's revision",
        description: "Answers the head revision of a change request with its page tree and files. Needs view permission."
      })),
    HttpApiEndpoint.get("listPagesInChangeRequest", `${prefix}/pages`, {
      params: changeRequestParams,
      query: ContentQuery,
      success: Schema.Struct({ pages: Schema.Array(RevisionPage) }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a change request's pages",
        description: "Answers the page tree at the change request's head, without bodies. Needs view permission."
      })),
    HttpApiEndpoint.get("getPageInChangeRequestById", `${prefix}/page/:pageId`, {
      params: { ...changeRequestParams, pageId: EntityId },
      query: PageReadQuery,
      success: RevisionPage,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a page in a change request",
        description: "Answers a page at the change request's head, as a JSON document or markdown. With `format=html` (Quire's extension) it answers the body rendered as the published site renders it, in `html`. Needs view permission."
      })),
    HttpApiEndpoint.get("getPageInChangeRequestByPath", `${prefix}/path/:pagePath`, {
      params: { ...changeRequestParams, pagePath: PagePath },
      query: PageReadQuery,
      success: RevisionPage,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a page in a change request by path",
        description: "Answers the page at a path (slugs joined by `/`) at the change request's head, as a JSON document or markdown. With `format=html` (Quire's extension) it answers the body rendered as the published site renders it, in `html`. 404 when no page has that path. Needs view permission."
      })),
    HttpApiEndpoint.get("listFilesInChangeRequestById", `${prefix}/files`, {
      params: changeRequestParams,
      query: { ...PageQuery, ...ContentQuery },
      success: ListOf(RevisionFile),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a change request's files",
        description: "Lists the files at the change request's head with signed download URLs. Needs view permission."
      })),
    HttpApiEndpoint.get("getFileInChangeRequestById", `${prefix}/files/:fileId`, {
      params: { ...changeRequestParams, fileId: EntityId },
      query: ContentQuery,
      success: RevisionFile,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a file in a change request",
        description: "Answers one file at the change request's head with a signed download URL. Needs view permission."
      })),
    /** The pages of the change request that link to, embed, or use as cover the file. */
    HttpApiEndpoint.get("listChangeRequestFileBacklinks", `${prefix}/files/:fileId/backlinks`, {
      params: { ...changeRequestParams, fileId: EntityId },
      query: PageQuery,
      success: ListOf(ContentReference),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a file's backlinks in a change request",
        description: "Lists the pages at the change request's head that link to a file. Needs view permission."
      })),
    /** The link targets of a page of the change request, with `stats`. */
    HttpApiEndpoint.get("listChangeRequestPageLinks", `${prefix}/page/:pageId/links`, {
      params: { ...changeRequestParams, pageId: EntityId },
      query: LinksQuery,
      success: ContentLinkList,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a page's links in a change request",
        description: "Lists the links of a page at the change request's head, grouped by target. Needs view permission."
      })),
    /** Imports a website as new pages of the change request. */
    HttpApiEndpoint.post("importContentInChangeRequest", `${prefix}/import`, {
      params: changeRequestParams,
      payload: Schema.Struct({ url: Url, source: Schema.Literal("website") }),
      success: Schema.Struct({
        revision: Schema.String,
        importedResources: Schema.Finite,
        totalResources: Schema.Finite
      }).pipe(HttpApiSchema.status(201)),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Import a web page into a change request",
        description: "Fetches a web page and adds it as a new page of the change request. Needs edit permission."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
