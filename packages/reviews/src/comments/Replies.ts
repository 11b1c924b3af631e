/** Use cases on the replies to a comment: post, list, read, edit, react to and delete them. */
import { Effect } from "effect"
import { Access } from "@quire/content"
import { Pagination } from "@quire/kernel"
import { commentPermissions } from "../CommentRules.ts"
import type { CommentScope, ReplyUpdate } from "./CommentTypes.ts"
import { commentKey, commentKeyShape } from "../CommentsRepo.ts"
import type { CommentReply } from "../domain/Comment.ts"
import type * as Notify from "../notifications/Notify.ts"
import { type Discussion, validMarkdown } from "./Discussion.ts"

export const replies = (discussion: Discussion) => {
  /** The authors of a comment's replies, in the order they first replied. */
  const repliersOf = Effect.fnUntraced(function*(commentId: string, count: number) {
    const authors: Array<string> = []
    let after: Pagination.CursorKey | undefined
    let more = count > 0
    while (more) {
      const page = yield* discussion.repo.listReplies(commentId, after, Pagination.maxLimit)
      for (const reply of page.items) if (!authors.includes(reply.authorId)) authors.push(reply.authorId)
      const last = page.items.at(-1)
      more = page.next !== undefined && last !== undefined
      if (last !== undefined) after = commentKey(last)
    }
    return authors
  })

  const { repo, ids, transactor, now, context, replyView, findComment, findReply, react, notify, mentions } = discussion

  const postReply = Effect.fn("Comments.postReply")(function*(scope: CommentScope, commentId: string, input: string) {
    const ctx = yield* context(scope)
    const comment = yield* findComment(ctx.scope, commentId)
    yield* Access.ensure(commentPermissions(ctx.access.permissions, ctx.userId, comment.authorId).reply, "reply to comments")
    const markdown = yield* validMarkdown(input, "body")
    const reply: CommentReply = {
      id: yield* ids.make,
      commentId,
      spaceId: ctx.scope.spaceId,
      authorId: ctx.userId,
      markdown,
      postedAt: yield* now,
      editedAt: null,
      reactions: []
    }
    const about = { commentId, replyId: reply.id, pageId: comment.target.pageId }
    const mentioned = yield* mentions(ctx, markdown, about)
    // The thread's author and earlier repliers hear of the reply (those it mentions, of the mention).
    const thread = [comment.authorId, ...(yield* repliersOf(commentId, comment.replies))]
    const replied = thread.map((userId): Notify.Draft => ({
      userId,
      kind: "comment_reply",
      spaceId: ctx.scope.spaceId,
      changeRequestId: ctx.scope.changeRequestId,
      ...about
    }))
    yield* transactor.transaction(Effect.andThen(repo.insertReply(reply), notify.record([...mentioned, ...replied])))
    return replyView(ctx, { ...comment, replies: comment.replies + 1 }, reply)
  })

  const listReplies = Effect.fn("Comments.listReplies")(function*(scope: CommentScope, commentId: string, request: Pagination.PageRequest) {
    const ctx = yield* context(scope)
    const comment = yield* findComment(ctx.scope, commentId)
    const after = yield* Pagination.afterOf(request, commentKeyShape)
    const page = yield* repo.listReplies(commentId, after, Pagination.limitOf(request))
    return { ...page, items: page.items.map((reply) => replyView(ctx, comment, reply)) }
  })

  const getReply = Effect.fn("Comments.getReply")(function*(scope: CommentScope, commentId: string, replyId: string) {
    const ctx = yield* context(scope)
    const comment = yield* findComment(ctx.scope, commentId)
    return replyView(ctx, comment, yield* findReply(commentId, replyId))
  })

  const updateReply = Effect.fn("Comments.updateReply")(function*(scope: CommentScope, commentId: string, replyId: string, input: ReplyUpdate) {
    const ctx = yield* context(scope)
    const comment = yield* findComment(ctx.scope, commentId)
    const reply = yield* findReply(commentId, replyId)
    const markdown = input.markdown === undefined ? undefined : yield* validMarkdown(input.markdown, "body")
    if (markdown !== undefined) {
      yield* Access.ensure(commentPermissions(ctx.access.permissions, ctx.userId, reply.authorId).edit, "edit this reply")
    }
    const reactions = yield* react(ctx, replyId, input)
    const at = yield* now
    const edited = markdown !== undefined && markdown !== reply.markdown ? markdown : undefined
    // An edit notifies only the people it newly mentions.
    const mentioned = edited === undefined ? [] : yield* mentions(ctx, edited, { commentId, replyId, pageId: comment.target.pageId }, reply.markdown)
    yield* transactor.transaction(Effect.gen(function*() {
      if (edited !== undefined) {
        yield* repo.updateReplyBody(replyId, edited, at)
        yield* notify.record(mentioned)
      }
      yield* reactions
    }))
    return replyView(ctx, comment, yield* findReply(commentId, replyId))
  })

  const removeReply = Effect.fn("Comments.removeReply")(function*(scope: CommentScope, commentId: string, replyId: string) {
    const ctx = yield* context(scope)
    yield* findComment(ctx.scope, commentId)
    const reply = yield* findReply(commentId, replyId)
    yield* Access.ensure(commentPermissions(ctx.access.permissions, ctx.userId, reply.authorId).delete, "delete this reply")
    yield* transactor.transaction(repo.removeReply(commentId, replyId))
  }, Effect.catchTag("NotFound", () => Effect.void))

  return { postReply, listReplies, getReply, updateReply, removeReply }
}
