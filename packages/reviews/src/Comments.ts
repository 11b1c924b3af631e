/**
 * Use cases on comments and their replies on a space or a change request: post, list, read, edit,
 * resolve, react to and delete them.
 */
import { Context, Effect, Layer } from "effect"
import type { PageNode, SpaceAccess } from "@quire/content"
import type { Actor, Errors, Pagination } from "@quire/kernel"
import * as Discussion from "./comments/Discussion.ts"
import { replies } from "./comments/Replies.ts"
import { threads } from "./comments/Threads.ts"
import type { Comment, CommentPermissions, CommentReply, CommentStatusFilter } from "./domain/Comment.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** Where comments live: a space's own content, or one of its change requests. */
export interface CommentScope {
  readonly spaceId: string
  /** A change request of the space, by id or by number; null: the space's own content. */
  readonly changeRequestId: string | null
}

export interface PostCommentInput {
  readonly markdown: string
  /** A page of the current revision of the space (of the change request, in a change request's scope). */
  readonly page?: string | undefined
  readonly node?: string | undefined
  readonly tableCell?: { readonly record: string; readonly definition: string } | undefined
}

export interface CommentUpdate {
  readonly markdown?: string | undefined
  readonly resolved?: boolean | undefined
  readonly addedReactions?: ReadonlyArray<string> | undefined
  readonly removedReactions?: ReadonlyArray<string> | undefined
}

export interface ReplyUpdate {
  readonly markdown?: string | undefined
  readonly addedReactions?: ReadonlyArray<string> | undefined
  readonly removedReactions?: ReadonlyArray<string> | undefined
}

export interface CommentListRequest extends Pagination.PageRequest {
  readonly order?: Pagination.Order | undefined
  readonly status?: CommentStatusFilter | undefined
  readonly targetPage?: string | undefined
  readonly authors?: ReadonlyArray<string> | undefined
}

/** The page a comment targets, as it is in the current revision (`outdated` when it is gone). */
export interface TargetPage {
  readonly id: string
  readonly page: PageNode | null
  readonly path: string | null
  readonly outdated: boolean
}

export interface CommentView {
  readonly comment: Comment
  readonly page: TargetPage | null
  readonly permissions: CommentPermissions
  readonly access: SpaceAccess
}

export interface ReplyView {
  readonly reply: CommentReply
  readonly comment: Comment
  readonly permissions: CommentPermissions
  readonly access: SpaceAccess
}

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
