/**
 * The scopes, inputs and views of comments that the Comments service and the modules of its jobs
 * (`comments/*`) share, so that those modules need not import the service.
 */
import type { PageNode, SpaceAccess } from "@quire/content"
import type { Pagination } from "@quire/kernel"
import type { Comment, CommentPermissions, CommentReply, CommentStatusFilter } from "../domain/Comment.ts"

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
