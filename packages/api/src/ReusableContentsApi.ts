/**
 * A space's reusable contents (GitBook's `RevisionReusableContent`, `.gitbook/includes/` in Git):
 * one by id in the main content, in a revision or in a change request, and its body as a JSON
 * document. GitBook's spec has no listing: a revision's `reusableContents` lists them. GitBook's API
 * writes none; Quire's extensions list, create, update and delete them in a change request.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { maxReusableContentTitle } from "@quire/content/domain/ReusableContent"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { maxPageMarkdown } from "./ChangeRequestContentApi.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, Text } from "./Schemas.ts"
import { ContentQuery, GitSyncBlob, JsonDocument } from "./SpaceContentApi.ts"

/** A reusable content: `document` is the id of its body (absent: empty); `markdown` (ours) with `format=markdown`. */
export const RevisionReusableContent = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  git: Schema.optionalKey(GitSyncBlob),
  document: Schema.optionalKey(Schema.String),
  markdown: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "RevisionReusableContent" })
export type RevisionReusableContent = typeof RevisionReusableContent.Type

/** GitBook's `metadata` and `computed`, and `format=markdown` (ours) for the body as markdown. */
export const ReusableContentQuery = {
  ...ContentQuery,
  format: Schema.optional(Schema.Literal("markdown"))
} as const

const reusableContentId = { reusableContentId: EntityId } as const

const inChangeRequest = { spaceId: EntityId, changeRequestId: EntityId } as const

/** A reusable content's title: 1 to 500 characters. */
const Title = Text.check(Schema.isMinLength(1), Schema.isMaxLength(maxReusableContentTitle))
/** Its body as GitBook markdown (empty: an empty reusable content). */
const Markdown = Text.check(Schema.isMaxLength(maxPageMarkdown))

/** The reusable contents of a change request's content (Quire's extension). */
export const ReusableContentList = Schema.Struct({ items: Schema.Array(RevisionReusableContent) }).annotate({ identifier: "ReusableContentList" })

/** Quire's extension: a reusable content to create in a change request. */
export const CreateReusableContent = Schema.Struct({ title: Title, markdown: Schema.optionalKey(Markdown) }).annotate({ identifier: "CreateReusableContent" })

/** Quire's extension: a reusable content's new title, markdown, or both. */
export const UpdateReusableContent = Schema.Struct({ title: Schema.optionalKey(Title), markdown: Schema.optionalKey(Markdown) }).annotate({
  identifier: "UpdateReusableContent"
})

export class ReusableContentsApi extends HttpApiGroup.make("reusableContents")
  .add(
    /** A reusable content of the space's main content. */
    HttpApiEndpoint.get("getReusableContentById", "/spaces/:spaceId/content/reusable-contents/:reusableContentId", {
      params: { spaceId: EntityId, ...reusableContentId },
      query: ReusableContentQuery,
      success: RevisionReusableContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a reusable content",
        description: "Answers a reusable content of the main content: its title, the Git file it came from and the id of its body's document; `format=markdown` (Quire's extension) adds its markdown. 404 when the space has none with that id. Needs view permission."
      })),
    /** Quire's extension: the reusable contents of the space's main content. */
    HttpApiEndpoint.get("listReusableContents", "/spaces/:spaceId/content/reusable-contents", {
      params: { spaceId: EntityId },
      success: ReusableContentList,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List the reusable contents of a space",
        description: "Quire's extension (GitBook lists them only in a revision's `reusableContents`): every reusable content of the main content, in order, each with its markdown. Needs view permission."
      })),
    /** A reusable content as it was in a revision of the space. */
    HttpApiEndpoint.get("getReusableContentInRevisionById", "/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId", {
      params: { spaceId: EntityId, revisionId: EntityId, ...reusableContentId },
      query: ReusableContentQuery,
      success: RevisionReusableContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a reusable content in a revision",
        description: "Answers a reusable content as it was in a revision of the space (main's history or a change request's). 404 for a revision of another space. Needs view permission."
      })),
    /** The body of a reusable content of a revision, as GitBook's JSON document. */
    HttpApiEndpoint.get("getReusableContentDocumentInRevisionById", "/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId/document", {
      params: { spaceId: EntityId, revisionId: EntityId, ...reusableContentId },
      success: JsonDocument,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a reusable content's document in a revision",
        description: "Answers the body of a reusable content of a revision of the space as a JSON document (empty for an empty one). Needs view permission."
      })),
    /** A reusable content of a change request's head revision. */
    HttpApiEndpoint.get(
      "getReusableContentInChangeRequestById",
      "/spaces/:spaceId/change-requests/:changeRequestId/content/reusable-contents/:reusableContentId",
      {
        params: { spaceId: EntityId, changeRequestId: EntityId, ...reusableContentId },
        query: ReusableContentQuery,
        success: RevisionReusableContent,
        error: ApiErrors.Common
      }
    )
      .annotateMerge(OpenApi.annotations({
        summary: "Get a reusable content in a change request",
        description: "Answers a reusable content as the change request's content holds it. 404 when the change request or the reusable content does not exist. Needs view permission."
      })),
    /** Quire's extension: the reusable contents of a change request's content, with their markdown. */
    HttpApiEndpoint.get("listReusableContentsInChangeRequest", "/spaces/:spaceId/change-requests/:changeRequestId/content/reusable-contents", {
      params: inChangeRequest,
      success: ReusableContentList,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List the reusable contents of a change request",
        description: "Quire's extension (GitBook lists them only in a revision's `reusableContents`): every reusable content of the change request's content, in order, each with its markdown. Needs view permission."
      })),
    /** Quire's extension: creates a reusable content in a change request. */
    HttpApiEndpoint.post("createReusableContentInChangeRequest", "/spaces/:spaceId/change-requests/:changeRequestId/content/reusable-contents", {
      params: inChangeRequest,
      payload: CreateReusableContent,
      success: RevisionReusableContent.pipe(HttpApiSchema.status(201)),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a reusable content in a change request",
        description: "Quire's extension (GitBook's API writes no reusable content): adds a reusable content with `title` and `markdown` to the change request's content, as one new revision of it; pages include it with `{% include \"/reusable-content/<id>\" %}`. Merging the change request brings it to the main content. Answers it with its markdown. Needs edit permission; a merged or archived change request is a 400.",
        transform: requestExample({ title: "Support contact", markdown: "Write to support@example.com.\n" })
      })),
    /** Quire's extension: renames a reusable content of a change request, or replaces its markdown. */
    HttpApiEndpoint.patch(
      "updateReusableContentInChangeRequest",
      "/spaces/:spaceId/change-requests/:changeRequestId/content/reusable-contents/:reusableContentId",
      { params: { ...inChangeRequest, ...reusableContentId }, payload: UpdateReusableContent, success: RevisionReusableContent, error: [...ApiErrors.Common, ApiErrors.Conflict] }
    )
      .annotateMerge(OpenApi.annotations({
        summary: "Update a reusable content in a change request",
        description: "Quire's extension: changes the title, the markdown, or both, of a reusable content of the change request's content, as one new revision of it; every page that includes it shows the new markdown. Answers it with its markdown. 404 when the change request holds none with that id. Needs edit permission.",
        transform: requestExample({ title: "Support and sales contact" })
      })),
    /** Quire's extension: deletes a reusable content of a change request. */
    HttpApiEndpoint.delete(
      "deleteReusableContentInChangeRequest",
      "/spaces/:spaceId/change-requests/:changeRequestId/content/reusable-contents/:reusableContentId",
      { params: { ...inChangeRequest, ...reusableContentId }, success: HttpApiSchema.NoContent, error: [...ApiErrors.Common, ApiErrors.Conflict] }
    )
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a reusable content in a change request",
        description: "Quire's extension: removes a reusable content from the change request's content, as one new revision of it; pages that still include it show nothing in its place. 404 when the change request holds none with that id. Needs edit permission."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
