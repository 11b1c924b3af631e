/**
 * A space's reusable contents (GitBook's `RevisionReusableContent`, `.gitbook/includes/` in Git):
 * one by id in the main content, in a revision or in a change request, and its body as a JSON
 * document. GitBook's spec has no listing: a revision's `reusableContents` lists them.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId } from "./Schemas.ts"
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
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
