/**
 * Handlers of the change request comments group: the Comments use cases in the scope of the
 * change request named by the path (its id or its number; Comments resolves it).
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type CommentScope, type CommentView, Comments, type ReplyView } from "@quire/reviews"
import * as CommentPresenters from "../CommentPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

const scope = (params: { readonly spaceId: string; readonly changeRequestId: string }): CommentScope => ({
  spaceId: params.spaceId,
  changeRequestId: params.changeRequestId
})

export const layer = HttpApiBuilder.group(Api, "changeRequestComments", Effect.fn(function*(handlers) {
  const comments = yield* Comments
  const urls = yield* PublicUrl
  const lookup = yield* CommentPresenters.userLookup

  const presentComment = (view: CommentView) =>
    Effect.map(lookup([view]), (users) => CommentPresenters.comment(urls, view, users))
  const presentReply = (view: ReplyView) => Effect.map(lookup([view]), (users) => CommentPresenters.reply(urls, view, users))

  return handlers
    .handle("listCommentsInChangeRequest", ({ params, query }) =>
      comments.list(scope(params), { ...query, authors: CommentPresenters.authorsOf(query.authors) }).pipe(
        DomainErrors.api,
        Effect.flatMap((page) =>
          Effect.map(lookup(page.items), (users) => Presenters.list(page, (view) => CommentPresenters.comment(urls, view, users)))
        )
      ))
    .handle("postCommentInChangeRequest", ({ params, payload }) =>
      comments.post(scope(params), {
        markdown: payload.body.markdown,
        page: payload.page,
        node: payload.node,
        tableCell: payload.tableCell
      }).pipe(DomainErrors.api, Effect.flatMap(presentComment)))
    .handle("getCommentInChangeRequest", ({ params }) =>
      comments.get(scope(params), params.commentId).pipe(DomainErrors.api, Effect.flatMap(presentComment)))
    .handle("updateCommentInChangeRequest", ({ params, payload }) =>
      comments.update(scope(params), params.commentId, {
        markdown: payload.body?.markdown,
        resolved: payload.resolved,
        addedReactions: payload.addedReactions,
        removedReactions: payload.removedReactions
      }).pipe(DomainErrors.api, Effect.flatMap(presentComment)))
    .handle("deleteCommentInChangeRequest", ({ params }) =>
      comments.remove(scope(params), params.commentId).pipe(DomainErrors.api))
    .handle("listCommentRepliesInChangeRequest", ({ params, query }) =>
      comments.listReplies(scope(params), params.commentId, query).pipe(
        DomainErrors.api,
        Effect.flatMap((page) =>
          Effect.map(lookup(page.items), (users) => Presenters.list(page, (view) => CommentPresenters.reply(urls, view, users)))
        )
      ))
    .handle("postCommentReplyInChangeRequest", ({ params, payload }) =>
      comments.postReply(scope(params), params.commentId, payload.body.markdown).pipe(
        DomainErrors.api,
        Effect.flatMap(presentReply)
      ))
    .handle("getCommentReplyInChangeRequest", ({ params }) =>
      comments.getReply(scope(params), params.commentId, params.commentReplyId).pipe(
        DomainErrors.api,
        Effect.flatMap(presentReply)
      ))
    .handle("updateCommentReplyInChangeRequest", ({ params, payload }) =>
      comments.updateReply(scope(params), params.commentId, params.commentReplyId, {
        markdown: payload.body?.markdown,
        addedReactions: payload.addedReactions,
        removedReactions: payload.removedReactions
      }).pipe(DomainErrors.api, Effect.flatMap(presentReply)))
    .handle("deleteCommentReplyInChangeRequest", ({ params }) =>
      comments.removeReply(scope(params), params.commentId, params.commentReplyId).pipe(DomainErrors.api))
}))
