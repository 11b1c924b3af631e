/** Change requests: branches of a space's content that people edit, review and merge. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, PageQuery, Timestamp, User } from "./Schemas.ts"

export const ChangeRequestStatus = Schema.Literals(["draft", "open", "archived", "merged"])

export const ChangeRequestSubject = Schema.String.check(Schema.isMaxLength(100))

export const ChangeRequest = Schema.Struct({
  object: Schema.Literal("change-request"),
  id: Schema.String,
  /** Incremental in the space; the `{changeRequestId}` path segment accepts it too. */
  number: Schema.Number,
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
  comments: Schema.Number,
  outdated: Schema.Boolean,
  urls: Schema.Struct({ app: Schema.String, location: Schema.String })
}).annotate({ identifier: "ChangeRequest" })
export type ChangeRequest = typeof ChangeRequest.Type

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
        agentTaskId: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)))
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
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
