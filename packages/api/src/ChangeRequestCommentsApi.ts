/**
 * Comments on a change request and their replies (GitBook's "Change request comments"). The
 * change request is named by its id or its number; bodies, payloads and rules are those of space
 * comments, with page targets taken from the change request's current revision.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { changeRequestParams } from "./ChangeRequestsApi.ts"
import {
  Comment,
  CommentListQuery,
  CommentReply,
  PostCommentPayload,
  PostReplyPayload,
  UpdateCommentPayload,
  UpdateReplyPayload
} from "./CommentsApi.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, Format as FormatLiterals, ListOf, PageQuery } from "./Schemas.ts"

/** `format` of comment reads: bodies are always answered as markdown. */
const Format = Schema.optional(FormatLiterals)

const prefix = "/spaces/:spaceId/change-requests/:changeRequestId/comments"
const commentParams = { ...changeRequestParams, commentId: EntityId }
const replyParams = { ...commentParams, commentReplyId: EntityId }

export class ChangeRequestCommentsApi extends HttpApiGroup.make("changeRequestComments")
  .add(
    /** The change request's comments, newest first unless `order=asc`. */
    HttpApiEndpoint.get("listCommentsInChangeRequest", prefix, {
      params: changeRequestParams,
      query: CommentListQuery,
      success: ListOf(Comment),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a change request's comments",
        description: "Lists the comments on a change request, paginated. Needs view permission."
      })),
    /** Posts a comment on the change request, optionally on one of its pages. Needs the `comment` permission. */
    HttpApiEndpoint.post("postCommentInChangeRequest", prefix, {
      params: changeRequestParams,
      payload: PostCommentPayload,
      success: Comment,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Comment on a change request",
        description: "Posts a markdown comment on a change request or one of its pages. Needs the comment permission.",
        transform: requestExample({ body: { markdown: "The new section reads well; one typo in the second paragraph." } })
      })),
    HttpApiEndpoint.get("getCommentInChangeRequest", `${prefix}/:commentId`, {
      params: commentParams,
      query: { format: Format },
      success: Comment,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a change request comment",
        description: "Answers one comment of a change request. Needs view permission."
      })),
    /** Edits the body (author only), resolves or reopens, adds or removes the caller's reactions. */
    HttpApiEndpoint.put("updateCommentInChangeRequest", `${prefix}/:commentId`, {
      params: commentParams,
      payload: UpdateCommentPayload,
      success: Comment,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a change request comment",
        description: "Edits a comment's body (its author only), resolves or reopens it, or toggles a reaction. Needs the comment permission.",
        transform: requestExample({ body: { markdown: "The new section reads well." } })
      })),
    /** Deletes the comment and its replies (author or space admin); 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteCommentInChangeRequest", `${prefix}/:commentId`, {
      params: commentParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a change request comment",
        description: "Deletes a comment with its replies. Its author or a space admin may call it."
      })),
    /** The comment's replies, oldest first. */
    HttpApiEndpoint.get("listCommentRepliesInChangeRequest", `${prefix}/:commentId/replies`, {
      params: commentParams,
      query: { ...PageQuery, format: Format },
      success: ListOf(CommentReply),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List replies in a change request",
        description: "Lists the replies to a change request comment, paginated. Needs view permission."
      })),
    HttpApiEndpoint.post("postCommentReplyInChangeRequest", `${prefix}/:commentId/replies`, {
      params: commentParams,
      query: { format: Format },
      payload: PostReplyPayload,
      success: CommentReply,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Reply in a change request",
        description: "Posts a markdown reply to a change request comment. Needs the comment permission.",
        transform: requestExample({ body: { markdown: "Fixed, thanks." } })
      })),
    HttpApiEndpoint.get("getCommentReplyInChangeRequest", `${prefix}/:commentId/replies/:commentReplyId`, {
      params: replyParams,
      query: { format: Format },
      success: CommentReply,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a reply in a change request",
        description: "Answers one reply to a change request comment. Needs view permission."
      })),
    /** Edits the reply's body (author only) or the caller's reactions. */
    HttpApiEndpoint.put("updateCommentReplyInChangeRequest", `${prefix}/:commentId/replies/:commentReplyId`, {
      params: replyParams,
      payload: UpdateReplyPayload,
      success: CommentReply,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a reply in a change request",
        description: "Edits a reply's body (its author only) or toggles a reaction. Needs the comment permission."
      })),
    /** Deletes the reply (author or space admin); 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteCommentReplyInChangeRequest", `${prefix}/:commentId/replies/:commentReplyId`, {
      params: replyParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a reply in a change request",
        description: "Deletes a reply. Its author or a space admin may call it."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
