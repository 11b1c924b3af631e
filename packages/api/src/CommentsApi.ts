/** Comments on a space's content and their replies (GitBook's "Space comments"). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { CommentStatus, CommentStatusFilter, TableCell } from "@quire/reviews/domain/Comment"
import { EntityId, Format as FormatLiterals, ListOf, Order, PageQuery, Text, Timestamp, User } from "./Schemas.ts"

/** A body as written: markdown, stored and returned exactly, never interpreted as HTML. */
export const CommentBody = Schema.Struct({ markdown: Text })

/** The longest comment or reply body a request may write (characters of markdown). */
export const maxCommentMarkdown = 100_000

/** A body in a request: at most `maxCommentMarkdown` characters (answers keep `CommentBody`). */
const CommentBodyInput = Schema.Struct({ markdown: Text.check(Schema.isMaxLength(maxCommentMarkdown)) })

export const TableCellTarget = TableCell

export const EmojiReaction = Schema.Struct({
  emoji: Schema.String,
  count: Schema.Finite,
  users: Schema.Array(Schema.Struct({ user: User, reactedAt: Timestamp }))
})

export const CommentPermissions = Schema.Struct({
  view: Schema.Boolean,
  edit: Schema.Boolean,
  reply: Schema.Boolean,
  delete: Schema.Boolean
})

export const CommentTargetPage = Schema.Struct({
  id: Schema.String,
  title: Schema.optionalKey(Schema.String),
  emoji: Schema.optionalKey(Schema.String),
  icon: Schema.optionalKey(Schema.String),
  createdAt: Schema.optionalKey(Timestamp),
  updatedAt: Schema.optionalKey(Timestamp),
  path: Schema.optionalKey(Schema.String),
  /** The page is no longer in the space's current revision. */
  outdated: Schema.Boolean
})

export const Comment = Schema.Struct({
  object: Schema.Literal("comment"),
  id: Schema.String,
  postedBy: User,
  postedAt: Timestamp,
  editedAt: Schema.optionalKey(Timestamp),
  reactions: Schema.Array(EmojiReaction),
  replies: Schema.Finite,
  /** GitBook's `UserContributor`s: who replied, each once, how many times and when last. */
  repliers: Schema.Array(Schema.Struct({ user: User, count: Schema.Int, updatedAt: Timestamp })),
  body: CommentBody,
  target: Schema.Struct({
    node: Schema.optionalKey(Schema.Struct({ id: Schema.String })),
    tableCell: Schema.optionalKey(TableCellTarget),
    changeRequest: Schema.optionalKey(Schema.String),
    page: Schema.optionalKey(CommentTargetPage),
    space: Schema.String,
    revision: Schema.String
  }),
  urls: Schema.Struct({ location: Schema.String }),
  permissions: CommentPermissions,
  status: CommentStatus,
  resolvedAt: Schema.optionalKey(Timestamp),
  resolvedBy: Schema.optionalKey(User)
}).annotate({ identifier: "Comment" })
export type Comment = typeof Comment.Type

export const CommentReply = Schema.Struct({
  object: Schema.Literal("comment-reply"),
  id: Schema.String,
  postedBy: User,
  postedAt: Timestamp,
  editedAt: Schema.optionalKey(Timestamp),
  reactions: Schema.Array(EmojiReaction),
  body: CommentBody,
  urls: Schema.Struct({ location: Schema.String }),
  permissions: CommentPermissions
}).annotate({ identifier: "CommentReply" })
export type CommentReply = typeof CommentReply.Type

/** `format` of comment reads: bodies are always answered as markdown. */
const Format = Schema.optional(FormatLiterals)

const Emojis = Schema.Array(Text.check(Schema.isMaxLength(50))).check(Schema.isMaxLength(20))

const Reactions = {
  addedReactions: Schema.optionalKey(Emojis),
  removedReactions: Schema.optionalKey(Emojis)
}

/** Payload of posting a comment: a body and, optionally, the page (node, table cell) it is about. */
export const PostCommentPayload = Schema.Struct({
  body: CommentBodyInput,
  page: Schema.optionalKey(EntityId),
  node: Schema.optionalKey(Text.check(Schema.isMaxLength(200))),
  tableCell: Schema.optionalKey(TableCellTarget)
})

export const UpdateCommentPayload = Schema.Struct({
  body: Schema.optionalKey(CommentBodyInput),
  resolved: Schema.optionalKey(Schema.Boolean),
  ...Reactions
})

export const PostReplyPayload = Schema.Struct({ body: CommentBodyInput })

export const UpdateReplyPayload = Schema.Struct({ body: Schema.optionalKey(CommentBodyInput), ...Reactions })

/** Query of comment listings (`authors` may be repeated). */
export const CommentListQuery = {
  ...PageQuery,
  order: Schema.optional(Order),
  status: Schema.optional(CommentStatusFilter),
  format: Format,
  targetPage: Schema.optional(Text),
  authors: Schema.optional(Schema.Union([Text, Schema.Array(Text)]))
} as const

const commentParams = { spaceId: EntityId, commentId: EntityId }
const replyParams = { ...commentParams, commentReplyId: EntityId }

export class CommentsApi extends HttpApiGroup.make("comments")
  .add(
    /** The space's comments (not those of change requests), newest first unless `order=asc`. */
    HttpApiEndpoint.get("listCommentsInSpace", "/spaces/:spaceId/comments", {
      params: { spaceId: EntityId },
      query: CommentListQuery,
      success: ListOf(Comment),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List comments",
        description: "Lists the comments on a space's main content, paginated. Needs view permission."
      })),
    /** Posts a comment on the space, optionally on one of its pages. Needs the `comment` permission. */
    HttpApiEndpoint.post("postCommentInSpace", "/spaces/:spaceId/comments", {
      params: { spaceId: EntityId },
      payload: PostCommentPayload,
      success: Comment,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Post a comment",
        description: "Posts a markdown comment on the space or one of its pages. Needs the comment permission.",
        transform: requestExample({ body: { markdown: "Should this page mention the **CLI**?" }, page: "pg_0123456789abcdef" })
      })),
    HttpApiEndpoint.get("getCommentInSpace", "/spaces/:spaceId/comments/:commentId", {
      params: commentParams,
      query: { format: Format },
      success: Comment,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a comment",
        description: "Answers one comment with its reactions and the caller's permissions on it. Needs view permission."
      })),
    /** Edits the body (author only), resolves or reopens, adds or removes the caller's reactions. */
    HttpApiEndpoint.put("updateCommentInSpace", "/spaces/:spaceId/comments/:commentId", {
      params: commentParams,
      payload: UpdateCommentPayload,
      success: Comment,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a comment",
        description: "Edits a comment's body (its author only), resolves or reopens it, or toggles a reaction. Needs the comment permission.",
        transform: requestExample({ resolved: true })
      })),
    /** Deletes the comment and its replies (author or space admin); 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteCommentInSpace", "/spaces/:spaceId/comments/:commentId", {
      params: commentParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a comment",
        description: "Deletes a comment with its replies. Its author or a space admin may call it; a comment already gone answers 204."
      })),
    /** The comment's replies, oldest first. */
    HttpApiEndpoint.get("listCommentRepliesInSpace", "/spaces/:spaceId/comments/:commentId/replies", {
      params: commentParams,
      query: { ...PageQuery, format: Format },
      success: ListOf(CommentReply),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List replies",
        description: "Lists the replies to a comment, oldest first, paginated. Needs view permission."
      })),
    HttpApiEndpoint.post("postCommentReplyInSpace", "/spaces/:spaceId/comments/:commentId/replies", {
      params: commentParams,
      payload: PostReplyPayload,
      success: CommentReply,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Reply to a comment",
        description: "Posts a markdown reply to a comment. Needs the comment permission.",
        transform: requestExample({ body: { markdown: "Yes, a short section at the end." } })
      })),
    HttpApiEndpoint.get("getCommentReplyInSpace", "/spaces/:spaceId/comments/:commentId/replies/:commentReplyId", {
      params: replyParams,
      query: { format: Format },
      success: CommentReply,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a reply",
        description: "Answers one reply to a comment. Needs view permission."
      })),
    /** Edits the reply's body (author only) or the caller's reactions. */
    HttpApiEndpoint.put("updateCommentReplyInSpace", "/spaces/:spaceId/comments/:commentId/replies/:commentReplyId", {
      params: replyParams,
      payload: UpdateReplyPayload,
      success: CommentReply,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a reply",
        description: "Edits a reply's body (its author only) or toggles a reaction. Needs the comment permission.",
        transform: requestExample({ body: { markdown: "Yes, a short section at the end, with an example." } })
      })),
    /** Deletes the reply (author or space admin); 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteCommentReplyInSpace", "/spaces/:spaceId/comments/:commentId/replies/:commentReplyId", {
      params: replyParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a reply",
        description: "Deletes a reply. Its author or a space admin may call it; a reply already gone answers 204."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
