/** Space content: the current revision, its pages and files, templates and website imports. */
import { ChangeRequest } from "./ChangeRequestsApi.ts"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { CoverSize, PageType, PageWidth, RevisionType } from "@quire/content/domain/Revision"
import { EntityId, JsonDocument, ListOf, PageFormat, PageQuery, Text, Timestamp, Url } from "./Schemas.ts"

export { RevisionType }

/** Where a link page, a cover or a link points. */
export const ContentRef = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("url"), url: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("page"), page: Schema.String, space: Schema.optionalKey(Schema.String) }),
  Schema.Struct({ kind: Schema.Literal("file"), file: Schema.String, space: Schema.optionalKey(Schema.String) }),
  // A heading of a page (a link page to `page.md#anchor`).
  Schema.Struct({ kind: Schema.Literal("anchor"), anchor: Schema.String, page: Schema.optionalKey(Schema.String), space: Schema.optionalKey(Schema.String) })
])
export type ContentRef = typeof ContentRef.Type

export const GitSyncBlob = Schema.Struct({ oid: Schema.String, path: Schema.String })

export const PageLayout = Schema.Struct({
  width: PageWidth,
  cover: Schema.Boolean,
  coverSize: CoverSize,
  title: Schema.Boolean,
  description: Schema.Boolean,
  tableOfContents: Schema.Boolean,
  outline: Schema.Boolean,
  pagination: Schema.Boolean,
  metadata: Schema.Boolean,
  /** GitBook's settings Quire does not store, answered with GitBook's defaults on a page's layout. */
  coverMask: Schema.optionalKey(Schema.Literals(["none", "radial"])),
  tags: Schema.optionalKey(Schema.Boolean),
  actions: Schema.optionalKey(Schema.Boolean),
  anchors: Schema.optionalKey(Schema.Boolean)
})

export const PageCover = Schema.Struct({
  ref: Schema.optionalKey(ContentRef),
  refDark: Schema.optionalKey(ContentRef),
  yPos: Schema.Finite,
  /** The cover's height in pixels (frontmatter `coverHeight`); 240 when absent. */
  height: Schema.optionalKey(Schema.Finite)
})

export { JsonDocument }

/** A page of a revision: a document (`kind` sheet), a group of pages, or a link. */
export interface RevisionPage {
  readonly id: string
  readonly title: string
  /** The title the table of contents shows instead of `title` (GitBook's `linkTitle`). */
  readonly linkTitle?: string
  readonly kind: "sheet" | "group" | "link"
  readonly type: PageType
  readonly emoji?: string
  readonly icon?: string
  readonly createdAt?: string
  readonly updatedAt?: string
  readonly slug: string
  readonly path: string
  readonly description?: string
  readonly hidden: boolean
  readonly layout?: typeof PageLayout.Type
  readonly cover?: typeof PageCover.Type
  readonly variables?: { readonly [name: string]: string }
  readonly git?: typeof GitSyncBlob.Type
  readonly urls?: { readonly app: string }
  readonly target?: ContentRef
  readonly href?: string
  readonly markdown?: string
  readonly document?: typeof JsonDocument.Type
  /** Quire's extension (`format=html`): the body as the published site renders it. */
  readonly html?: string
  /** GitBook's tags of a document page (for update entries): Quire keeps none, so always empty. */
  readonly tags?: ReadonlyArray<{ readonly slug: string; readonly label: string }>
  readonly pages?: ReadonlyArray<RevisionPage>
}

export const RevisionPage: Schema.Codec<RevisionPage> = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  linkTitle: Schema.optionalKey(Schema.String),
  kind: Schema.Literals(["sheet", "group", "link"]),
  type: PageType,
  emoji: Schema.optionalKey(Schema.String),
  icon: Schema.optionalKey(Schema.String),
  createdAt: Schema.optionalKey(Timestamp),
  updatedAt: Schema.optionalKey(Timestamp),
  slug: Schema.String,
  path: Schema.String,
  description: Schema.optionalKey(Schema.String),
  hidden: Schema.Boolean,
  layout: Schema.optionalKey(PageLayout),
  cover: Schema.optionalKey(PageCover),
  variables: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  git: Schema.optionalKey(GitSyncBlob),
  urls: Schema.optionalKey(Schema.Struct({ app: Schema.String })),
  target: Schema.optionalKey(ContentRef),
  href: Schema.optionalKey(Schema.String),
  markdown: Schema.optionalKey(Schema.String),
  document: Schema.optionalKey(JsonDocument),
  html: Schema.optionalKey(Schema.String.annotate({ description: "Quire's extension, with `format=html`: the page body as the published site renders it (sanitized HTML), page links to the app's page URLs, files to signed download URLs." })),
  tags: Schema.optionalKey(Schema.Array(Schema.Struct({ slug: Schema.String, label: Schema.String }))),
  pages: Schema.optionalKey(Schema.Array(Schema.suspend((): Schema.Codec<RevisionPage> => RevisionPage)))
}).annotate({ identifier: "RevisionPage" })

/** A file of a revision; `downloadURL` serves its bytes for a limited time, without a token. */
export const RevisionFile = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  contentType: Schema.String,
  downloadURL: Schema.String,
  size: Schema.Finite,
  dimensions: Schema.optionalKey(Schema.Struct({ width: Schema.Finite, height: Schema.Finite })),
  git: Schema.optionalKey(GitSyncBlob)
})
export type RevisionFile = typeof RevisionFile.Type

export const Revision = Schema.Struct({
  object: Schema.Literal("revision"),
  id: Schema.String,
  parents: Schema.Array(Schema.String),
  type: RevisionType,
  pages: Schema.Array(RevisionPage),
  files: Schema.Array(RevisionFile),
  reusableContents: Schema.Array(Schema.Struct({
    id: Schema.String,
    title: Schema.String,
    git: Schema.optionalKey(GitSyncBlob),
    document: Schema.optionalKey(Schema.String)
  })),
  /** GitBook's tags of the revision (for its update entries): Quire keeps none, so always empty. */
  tags: Schema.Array(Schema.Struct({ slug: Schema.String, label: Schema.String })),
  variables: Schema.Record(Schema.String, Schema.String),
  createdAt: Timestamp,
  git: Schema.optionalKey(Schema.Struct({
    oid: Schema.String,
    message: Schema.String,
    createdByService: Schema.Boolean,
    /** GitBook's name of `createdByService`: the commit was an export of this server's. */
    createdByGitBook: Schema.Boolean,
    url: Schema.optionalKey(Schema.String),
    ref: Schema.optionalKey(Schema.String)
  })),
  urls: Schema.Struct({
    app: Schema.String,
    published: Schema.optionalKey(Schema.String),
    public: Schema.optionalKey(Schema.String)
  }),
  /** A merge revision's change request. */
  mergedFrom: Schema.optionalKey(ChangeRequest)
}).annotate({ identifier: "Revision" })
export type Revision = typeof Revision.Type

/** `metadata=false` leaves out Git metadata; `computed=false` skips computed content (Quire computes none). */
export const ContentQuery = {
  metadata: Schema.optional(Schema.Boolean),
  computed: Schema.optional(Schema.Boolean)
} as const

/** A page's path: slugs from the root joined by `/` (GitBook's client sends the slashes as they are). */
export const PagePath = Text.check(Schema.isMinLength(1), Schema.isMaxLength(2000))

/**
 * The query of single-page reads: `format=markdown` answers the page's `markdown`, `format=html`
 * (Quire's) its rendered `html`, else its JSON `document`.
 */
export const PageReadQuery = {
  format: Schema.optional(PageFormat),
  evaluated: Schema.optional(Schema.Boolean),
  cachedMetadata: Schema.optional(Schema.Boolean),
  ...ContentQuery
} as const

const spaceId = { spaceId: EntityId }

export class SpaceContentApi extends HttpApiGroup.make("spaceContent")
  .add(
    /** The space's current revision: its pages (without their markdown), files and variables. */
    HttpApiEndpoint.get("getCurrentRevision", "/spaces/:spaceId/content", {
      params: spaceId,
      query: ContentQuery,
      success: Revision,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get the current revision",
        description: "Answers the space's main content: its latest revision with the page tree and files. Needs view permission."
      })),
    /** The tree of pages of the current revision (without their markdown). */
    HttpApiEndpoint.get("listPages", "/spaces/:spaceId/content/pages", {
      params: spaceId,
      query: ContentQuery,
      success: Schema.Struct({ pages: Schema.Array(RevisionPage) }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List pages",
        description: "Answers the page tree of the space's main content, without page bodies. Needs view permission."
      })),
    /** A page of the current revision: `format=markdown` answers its `markdown`, `document` (default) its JSON document. */
    HttpApiEndpoint.get("getPageById", "/spaces/:spaceId/content/page/:pageId", {
      params: { spaceId: EntityId, pageId: EntityId },
      query: PageReadQuery,
      success: RevisionPage,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a page",
        description: "Answers a page of the main content, as GitBook's JSON document or, with `format=markdown`, as markdown. With `format=html` (Quire's extension) it answers the body rendered as the published site renders it, in `html`. Needs view permission."
      })),
    /** The page of the current revision at a path (its slugs from the root, joined by `/`). */
    HttpApiEndpoint.get("getPageByPath", "/spaces/:spaceId/content/path/:pagePath", {
      params: { spaceId: EntityId, pagePath: PagePath },
      query: PageReadQuery,
      success: RevisionPage,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a page by path",
        description: "Answers the page of the main content at a path (its slugs from the root, joined by `/`; nested paths may keep their slashes or encode them), as a JSON document or, with `format=markdown`, as markdown. With `format=html` (Quire's extension) it answers the body rendered as the published site renders it, in `html`. 404 when no page has that path. Needs view permission."
      })),
    /** The files of the current revision, by name. */
    HttpApiEndpoint.get("listFiles", "/spaces/:spaceId/content/files", {
      params: spaceId,
      query: { ...PageQuery, ...ContentQuery },
      success: ListOf(RevisionFile),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List files",
        description: "Lists the files of the space's main content with their signed download URLs. Needs view permission."
      })),
    HttpApiEndpoint.get("getFileById", "/spaces/:spaceId/content/files/:fileId", {
      params: { spaceId: EntityId, fileId: EntityId },
      query: ContentQuery,
      success: RevisionFile,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a file",
        description: "Answers one file of the main content with a signed download URL valid for at least an hour. Needs view permission."
      })),
    /** Adds a built-in template's pages and files to the space (docs/TEMPLATES.md lists the ids). */
    HttpApiEndpoint.post("applyTemplateToSpace", "/spaces/:spaceId/content/template", {
      params: spaceId,
      payload: Schema.Struct({
        id: Text.check(Schema.isMinLength(1), Schema.isMaxLength(100)),
        params: Schema.optionalKey(Schema.Struct({
          contentRefs: Schema.optionalKey(
            Schema.Record(Text.check(Schema.isMaxLength(100)), Schema.Json).check(
              Schema.makeFilter((refs: Readonly<Record<string, unknown>>) =>
                Object.keys(refs).length <= 100 ? undefined : "at most 100 content refs"
              )
            )
          )
        })),
        changeRequestId: Schema.optionalKey(EntityId)
      }),
      success: HttpApiSchema.NoContent,
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Apply a template",
        description: "Adds a built-in template's pages after the space's pages as a new revision. Needs edit permission."
      })),
    /** Imports a website (the page at `url` and the same-site pages it links to) as new pages of the space. */
    HttpApiEndpoint.post("importContent", "/spaces/:spaceId/content/import", {
      params: spaceId,
      payload: Schema.Struct({ url: Url, source: Schema.Literal("website") }),
      success: Schema.Struct({
        revision: Schema.String,
        importedResources: Schema.Finite,
        totalResources: Schema.Finite
      }).pipe(HttpApiSchema.status(201)),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Import a web page",
        description: "Fetches a web page and adds it to the space's main content as a new page. Needs edit permission."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
