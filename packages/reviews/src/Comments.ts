/**
 * Use cases on comments and their replies on a space or a change request: post, list, read, edit,
 * resolve, react to and delete them.
 */
import { Context, Effect, Layer } from "effect"
import type { Actor, Errors, Pagination } from "@quire/kernel"
import * as Discussion from "./comments/Discussion.ts"
import { replies } from "./comments/Replies.ts"
import { threads } from "./comments/Threads.ts"
import type { CommentListRequest, CommentScope, CommentUpdate, CommentView, PostCommentInput, ReplyUpdate, ReplyView } from "./comments/CommentTypes.ts"

export type * from "./comments/CommentTypes.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface CommentsShape {
  readonly post: (scope: CommentScope, input: PostCommentInput) => Effect.Effect<CommentView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly list: (scope: CommentScope, request: CommentListRequest) => Effect.Effect<Pagination.Page<CommentView>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly get: (scope: CommentScope, commentId: string) => Effect.Effect<CommentView, Errors.NotFound, Actor.Actor>
  readonly update: (scope: CommentScope, commentId: string, update: CommentUpdate) => Effect.Effect<CommentView, Denied | Errors.InvalidInput, Actor.Actor>
  /** Deletes the comment and its replies; nothing happens when it does not exist or the caller cannot see it. */
  readonly remove: (scope: CommentScope, commentId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  readonly postReply: (scope: CommentScope, commentId: string, markdown: string) => Effect.Effect<ReplyView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly listReplies: (scope: CommentScope, commentId: string, request: Pagination.PageRequest) => Effect.Effect<Pagination.Page<ReplyView>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly getReply: (scope: CommentScope, commentId: string, replyId: string) => Effect.Effect<ReplyView, Errors.NotFound, Actor.Actor>
  readonly updateReply: (scope: CommentScope, commentId: string, replyId: string, update: ReplyUpdate) => Effect.Effect<ReplyView, Denied | Errors.InvalidInput, Actor.Actor>
  /** Deletes a reply; nothing happens when it does not exist or the caller cannot see it. */
  readonly removeReply: (scope: CommentScope, commentId: string, replyId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
}

export class Comments extends Context.Service<Comments, CommentsShape>()("@quire/reviews/Comments") {
  static readonly layer = Layer.effect(
    Comments,
    Effect.gen(function*() {
      const discussion = yield* Discussion.make
      return Comments.of({ ...threads(discussion), ...replies(discussion) })
    })
  )
}
