/**
 * Documents of a space read by id, content computed from a source without being stored (GitBook's
 * `getComputedDocument` and `getComputedRevision`: pages drawn from an OpenAPI spec of the
 * organization), and a page's meta links in main or a change request.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { changeRequestParams } from "./ChangeRequestsApi.ts"
import { requestExample } from "./RequestExample.ts"
import { RevisionPageMetaLinks } from "./RevisionsApi.ts"
import { EntityId, Text } from "./Schemas.ts"
import { JsonDocument, RevisionFile, RevisionPage } from "./SpaceContentApi.ts"

const Slug = Text.check(Schema.isMinLength(1), Schema.isMaxLength(100))

/** GitBook's `ContentRefOpenAPI`: an OpenAPI spec of the organization by slug. */
const OpenAPIRef = Schema.Struct({ kind: Schema.Literal("openapi"), spec: Slug })

/** GitBook's dependency on a spec: its reference, with (ignored) the value the caller resolved. */
const OpenAPIDependencies = Schema.Struct({
  spec: Schema.Struct({ ref: OpenAPIRef, value: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))) })
})

/** GitBook's `ComputedContentSourceDocumentOpenAPI` props: which document of the spec to draw. */
const OpenAPIDocumentProps = Schema.Union([
  Schema.Struct({ doc: Schema.Literal("models") }),
  Schema.Struct({ doc: Schema.Literals(["operations", "info", "tag"]), page: Slug }),
  Schema.Struct({
    doc: Schema.Literal("operation"),
    page: Text.check(Schema.isMinLength(1), Schema.isMaxLength(2048)),
    method: Schema.Literals(["get", "post", "put", "delete", "patch", "options", "head", "trace", "hook"]),
    deprecated: Schema.optionalKey(Schema.Boolean)
  })
])

/** GitBook's sources Quire does not compute (translations and integrations), named so a 400 says so. */
const OtherSource = Schema.Struct({
  type: Text.check(Schema.isPattern(/^(builtin:translation|integration:[^:]+:[^:]+)$/)),
  props: Schema.Record(Schema.String, Schema.Unknown),
  dependencies: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})

/** GitBook's `ComputedContentSourceDocument`. */
export const ComputedSourceDocument = Schema.Union([
  Schema.Struct({ type: Schema.Literal("builtin:openapi"), dependencies: OpenAPIDependencies, props: OpenAPIDocumentProps }),
  OtherSource
])
export type ComputedSourceDocument = typeof ComputedSourceDocument.Type

/** GitBook's `ComputedContentSourceRevision`. */
export const ComputedSourceRevision = Schema.Union([
  Schema.Struct({
    type: Schema.Literal("builtin:openapi"),
    dependencies: OpenAPIDependencies,
    props: Schema.Struct({
      models: Schema.Boolean,
      downloadLink: Schema.optionalKey(Schema.Boolean),
      grouping: Schema.optionalKey(Schema.Literals(["by-tag", "by-operation"]))
    })
  }),
  OtherSource
])
export type ComputedSourceRevision = typeof ComputedSourceRevision.Type

const Seed = Text.check(Schema.isMinLength(1), Schema.isMaxLength(200))
const spaceParams = { spaceId: EntityId } as const
const DocumentSchemaQuery = { schema: Schema.optional(Schema.Literals(["current", "next"])) } as const

export class SpaceDocumentsApi extends HttpApiGroup.make("spaceDocuments")
  .add(
    /** A document drawn from a source (an OpenAPI spec of the organization), not stored. */
    HttpApiEndpoint.post("getComputedDocument", "/spaces/:spaceId/content/computed/document", {
      params: spaceParams,
      query: DocumentSchemaQuery,
      payload: Schema.Struct({ source: ComputedSourceDocument, seed: Seed }),
      success: JsonDocument,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Compute a document from a source",
        description: "Draws a JSON document from a `builtin:openapi` source (`dependencies.spec.ref.spec`: the slug of an OpenAPI spec of the space's organization; its latest version) without storing it: `models` (every schema), `operations` or `tag` (the operations of the tag named by `page`), `operation` (the operation at path `page` with `method`), `info` (the spec's title and description). The same `seed` draws the same block keys. Translation and integration sources answer 400 (Quire computes none). Needs view permission on the space.",
        transform: requestExample({
          seed: "api-reference",
          source: { type: "builtin:openapi", dependencies: { spec: { ref: { kind: "openapi", spec: "petstore" } } }, props: { doc: "operations", page: "pets" } }
        })
      })),
    /** Pages drawn from a source (an OpenAPI spec of the organization), not stored. */
    HttpApiEndpoint.post("getComputedRevision", "/spaces/:spaceId/content/computed/revision", {
      params: spaceParams,
      payload: Schema.Struct({ source: ComputedSourceRevision, seed: Seed }),
      success: Schema.Struct({
        pages: Schema.Array(RevisionPage),
        files: Schema.Array(RevisionFile),
        reusableContents: Schema.Array(Schema.Struct({ id: Schema.String, title: Schema.String, document: Schema.optionalKey(Schema.String) }))
      }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Compute pages from a source",
        description: "Draws the pages an OpenAPI spec of the space's organization (its latest version) would give, without storing them: one page per tag (`grouping: by-tag`, the default) or per operation (`by-operation`), each holding its operations' blocks, and a `Models` page of its schemas when `models`. Each page carries its `document`. The same `seed` draws the same ids. Translation and integration sources answer 400. Needs view permission on the space.",
        transform: requestExample({
          seed: "api-reference",
          source: { type: "builtin:openapi", dependencies: { spec: { ref: { kind: "openapi", spec: "petstore" } } }, props: { models: true } }
        })
      })),
    /** A document of the space's current content by id: a page's or a reusable content's. */
    HttpApiEndpoint.get("getDocumentById", "/spaces/:spaceId/documents/:documentId", {
      params: { spaceId: EntityId, documentId: Text.check(Schema.isMinLength(1), Schema.isMaxLength(100), Schema.isPattern(/^[a-zA-Z0-9_-]+$/)) },
      query: DocumentSchemaQuery,
      success: JsonDocument,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a document by id",
        description: "Answers a document of the space's current content as a JSON document: the `document` a reusable content names, a page's document, or the document of the page with that id. 404 when no page or reusable content of the space's current content has it. Needs view permission."
      })),
    /** A page's meta links (canonical, alternates) in the space's current content. */
    HttpApiEndpoint.get("listSpacePageMetaLinks", "/spaces/:spaceId/content/page/:pageId/meta-links", {
      params: { spaceId: EntityId, pageId: EntityId },
      success: RevisionPageMetaLinks,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a page's meta links",
        description: "Answers a page's canonical link and its alternates in the space's current content. Quire keeps no per-page canonical or alternate links, so a page answers none (`alternates` empty), as `listRevisionPageMetaLinks` does. 404 when the page is not in the current content. Needs view permission."
      })),
    /** A page's meta links in a change request. */
    HttpApiEndpoint.get("listChangeRequestPageMetaLinks", "/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/meta-links", {
      params: { ...changeRequestParams, pageId: EntityId },
      success: RevisionPageMetaLinks,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a page's meta links in a change request",
        description: "As `listSpacePageMetaLinks`, for a page at the change request's head. 404 when the change request has no such page. Needs view permission."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
