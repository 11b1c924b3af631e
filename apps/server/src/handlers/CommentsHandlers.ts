/** Handlers of the space comments group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type CommentScope, type CommentView, Comments, type ReplyView } from "@quire/reviews"
import * as CommentPresenters from "../CommentPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

const spaceScope = (spaceId: string): CommentScope => ({ spaceId, changeRequestId: null })

export const layer = HttpApiBuilder.group(Api, "comments", Effect.fn(function*(handlers) {
  const comments = yield* Comments
  const urls = yield* PublicUrl
  const lookup = yield* CommentPresenters.userLookup

  const presentComment = (view: CommentView) =>
    Effect.map(lookup([view]), (users) => CommentPresenters.comment(urls, view, users))
  const presentReply = (view: ReplyView) => Effect.map(lookup([view]), (users) => CommentPresenters.reply(urls, view, users))

  return handlers
    .handle("listCommentsInSpace", ({ params, query }) =>
      comments.list(spaceScope(params.spaceId), { ...query, authors: CommentPresenters.authorsOf(query.authors) }).pipe(
        DomainErrors.api,
        Effect.flatMap((page) =>
          Effect.map(lookup(page.items), (users) => Presenters.list(page, (view) => CommentPresenters.comment(urls, view, users)))
        )
      ))
    .handle("postCommentInSpace", ({ params, payload }) =>
      comments.post(spaceScope(params.spaceId), {
        markdown: payload.body.markdown,
        page: payload.page,
        node: payload.node,
        tableCell: payload.tableCell
      }).pipe(DomainErrors.api, Effect.flatMap(presentComment)))
    .handle("getCommentInSpace", ({ params }) =>
      comments.get(spaceScope(params.spaceId), params.commentId).pipe(DomainErrors.api, Effect.flatMap(presentComment)))
    .handle("updateCommentInSpace", ({ params, payload }) =>
      comments.update(spaceScope(params.spaceId), params.commentId, {
        markdown: payload.body?.markdown,
        resolved: payload.resolved,
        addedReactions: payload.addedReactions,
        removedReactions: payload.removedReactions
      }).pipe(DomainErrors.api, Effect.flatMap(presentComment)))
    .handle("deleteCommentInSpace", ({ params }) =>
      comments.remove(spaceScope(params.spaceId), params.commentId).pipe(DomainErrors.api))
    .handle("listCommentRepliesInSpace", ({ params, query }) =>
      comments.listReplies(spaceScope(params.spaceId), params.commentId, query).pipe(
        DomainErrors.api,
        Effect.flatMap((page) =>
          Effect.map(lookup(page.items), (users) => Presenters.list(page, (view) => CommentPresenters.reply(urls, view, users)))
        )
      ))
    .handle("postCommentReplyInSpace", ({ params, payload }) =>
      comments.postReply(spaceScope(params.spaceId), params.commentId, payload.body.markdown).pipe(
        DomainErrors.api,
        Effect.flatMap(presentReply)
      ))
    .handle("getCommentReplyInSpace", ({ params }) =>
      comments.getReply(spaceScope(params.spaceId), params.commentId, params.commentReplyId).pipe(
        DomainErrors.api,
        Effect.flatMap(presentReply)
      ))
    .handle("updateCommentReplyInSpace", ({ params, payload }) =>
      comments.updateReply(spaceScope(params.spaceId), params.commentId, params.commentReplyId, {
        markdown: payload.body?.markdown,
        addedReactions: payload.addedReactions,
        removedReactions: payload.removedReactions
      }).pipe(DomainErrors.api, Effect.flatMap(presentReply)))
    .handle("deleteCommentReplyInSpace", ({ params }) =>
      comments.removeReply(spaceScope(params.spaceId), params.commentId, params.commentReplyId).pipe(DomainErrors.api))
}))
