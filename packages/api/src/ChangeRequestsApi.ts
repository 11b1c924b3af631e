/** Change requests: branches of a space's content that people edit, review and merge. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { ChangeRequestStatus, maxSubjectLength } from "@quire/reviews/domain/ChangeRequest"
import { ConflictHunk, ConflictKind } from "@quire/reviews/domain/MergeConflict"
import { EntityId, ListOf, PageQuery, Text, Timestamp, Url, User } from "./Schemas.ts"

export { ChangeRequestStatus }

export const ChangeRequestSubject = Text.check(Schema.isMaxLength(maxSubjectLength))

/** A conflict a merge or an update found: what to resolve (resolveChangeRequestConflicts) before merging again. */
export const MergeConflict = Schema.Struct({
  /** `c1`, `c2`, …: what a resolution names. */
  id: Schema.String,
  pageId: Schema.optionalKey(Schema.String),
  fileId: Schema.optionalKey(Schema.String),
  path: Schema.String,
  kind: ConflictKind,
  field: Schema.optionalKey(Schema.String),
  /** Main's value (JSON for metadata; `null` when main deleted it). */
  ours: Schema.optionalKey(Schema.String),
  /** The change request's value (JSON for metadata; `null` when it deleted it). */
  theirs: Schema.optionalKey(Schema.String),
  /** Content conflicts: the overlapping lines of the ancestor, main and the change request (one hunk per conflict). */
  hunks: Schema.optionalKey(Schema.Array(ConflictHunk)),
  /** Content conflicts: the merged lines just before and after the hunk, to show where it is in the page. */
  context: Schema.optionalKey(Schema.Struct({ before: Schema.Array(Schema.String), after: Schema.Array(Schema.String) }))
}).annotate({ identifier: "MergeConflict" })

export const ChangeRequest = Schema.Struct({
  object: Schema.Literal("change-request"),
  id: Schema.String,
  /** Incremental in the space; the `{changeRequestId}` path segment accepts it too. */
  number: Schema.Finite,
  status: ChangeRequestStatus,
  subject: Schema.String,
  createdBy: User,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  space: Schema.String,
  revision: Schema.String,
  revisionInitial: Schema.String,
  revisionMergedAncestor: Schema.optionalKey(Schema.String),
  revisionMerged: Schema.optionalKey(Schema.String),
  comments: Schema.Finite,
  outdated: Schema.Boolean,
  /** The conflicts its last merge or update found; absent when it had none, or since it changed or merged cleanly. */
  conflicts: Schema.optionalKey(Schema.Array(MergeConflict)),
  urls: Schema.Struct({ app: Schema.String, location: Schema.String })
}).annotate({ identifier: "ChangeRequest" })
export type ChangeRequest = typeof ChangeRequest.Type


/** GitBook's answer to merge and update, plus the conflicts when there are some. */
const mergeResult = <R extends string>(result: R) =>
  Schema.Struct({
    /** The new revision; with conflicts, the revision left as it was (main for a merge, the change request's head for an update). */
    revision: Schema.String,
    result: Schema.Literals([result, "conflicts"]),
    conflicts: Schema.optionalKey(Schema.Array(MergeConflict))
  })

/** The `{changeRequestId}` path segment: the change request's id or its number in the space. */
export const changeRequestParams = { spaceId: EntityId, changeRequestId: EntityId } as const

export class ChangeRequestsApi extends HttpApiGroup.make("changeRequests")
  .add(
    /** The change requests of a space, newest first; `status` defaults to `open`, as GitBook's. */
    HttpApiEndpoint.get("listChangeRequestsForSpace", "/spaces/:spaceId/change-requests", {
      params: { spaceId: EntityId },
      query: {
        ...PageQuery,
        status: Schema.optional(ChangeRequestStatus),
        creator: Schema.optional(EntityId),
        contributor: Schema.optional(EntityId)
      },
      success: ListOf(ChangeRequest),
      error: ApiErrors.Common
    }),
    /** Opens a change request (a draft) on the space's current content. */
    HttpApiEndpoint.post("createChangeRequest", "/spaces/:spaceId/change-requests", {
      params: { spaceId: EntityId },
      payload: Schema.Struct({
        subject: Schema.optionalKey(ChangeRequestSubject),
        agentTaskId: Schema.optionalKey(Text.check(Schema.isMaxLength(200)))
      }),
      success: ChangeRequest.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("getChangeRequestById", "/spaces/:spaceId/change-requests/:changeRequestId", {
      params: changeRequestParams,
      success: ChangeRequest,
      error: ApiErrors.Common
    }),
    /** Changes the subject and the status (draft, open, archived; `merged` only comes from a merge). */
    HttpApiEndpoint.patch("updateChangeRequestById", "/spaces/:spaceId/change-requests/:changeRequestId", {
      params: changeRequestParams,
      payload: Schema.Struct({
        subject: Schema.optionalKey(ChangeRequestSubject),
        status: Schema.optionalKey(ChangeRequestStatus)
      }),
      success: ChangeRequest,
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    }),
    /** Merges the change request into the space's content (three-way); conflicts leave everything as it was. */
    HttpApiEndpoint.post("mergeChangeRequest", "/spaces/:spaceId/change-requests/:changeRequestId/merge", {
      params: changeRequestParams,
      success: mergeResult("merge"),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    }),
    /** Brings the space's current content into the change request (three-way); conflicts leave it as it was. */
    HttpApiEndpoint.post("updateChangeRequest", "/spaces/:spaceId/change-requests/:changeRequestId/update", {
      params: changeRequestParams,
      success: mergeResult("update"),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    }),
    /**
     * The change request's content as a PDF: `{url}`, a signed download link of the file. `page`
     * restricts it to that page and its subpages; `only` to that page alone.
     */
    HttpApiEndpoint.get("getChangeRequestPDF", "/spaces/:spaceId/change-requests/:changeRequestId/pdf", {
      params: changeRequestParams,
      query: { page: Schema.optional(EntityId), only: Schema.optional(Schema.Boolean) },
      success: Schema.Struct({ url: Url }),
      error: ApiErrors.Common
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
