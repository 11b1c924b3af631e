/** Use cases on the comments themselves (each opens a thread): post, list, read, edit, resolve, react to and delete them. */
import { Effect, Option } from "effect"
import { Access } from "@quire/content"
import { Errors, Pagination } from "@quire/kernel"
import { canDiscuss, commentPermissions } from "../CommentRules.ts"
import type { CommentListRequest, CommentScope, CommentUpdate, PostCommentInput } from "./CommentTypes.ts"
import { commentKeyShape } from "../CommentsRepo.ts"
import type { Comment } from "../domain/Comment.ts"
import { type Discussion, validMarkdown } from "./Discussion.ts"

export const threads = (discussion: Discussion) => {
  const { repo, ids, transactor, now, countOpen, context, view, findComment, react, notify, mentions } = discussion

  const post = Effect.fn("Comments.post")(function*(scope: CommentScope, input: PostCommentInput) {
    const ctx = yield* context(scope)
    yield* Access.ensure(canDiscuss(ctx.access.permissions), "comment on this space")
    const markdown = yield* validMarkdown(input.markdown, "body")
    if (input.page !== undefined && !ctx.pages.has(input.page)) {
      return yield* new Errors.InvalidInput({
        field: "page",
        reason: ctx.scope.changeRequestId === null
          ? "is not a page of the space's current revision"
          : "is not a page of the change request's current revision"
      })
    }
    const postedAt = yield* now
    const comment: Comment = {
      id: yield* ids.make,
      spaceId: ctx.scope.spaceId,
      changeRequestId: ctx.scope.changeRequestId,
      revisionId: ctx.revision.id,
      target: { pageId: input.page ?? null, nodeId: input.node ?? null, tableCell: input.tableCell ?? null },
      authorId: ctx.userId,
      markdown,
      postedAt,
      editedAt: null,
      status: "open",
      resolvedAt: null,
      resolvedBy: null,
      replies: 0,
      repliers: [],
      reactions: []
    }
    const mentioned = yield* mentions(ctx, markdown, { commentId: comment.id, pageId: comment.target.pageId })
    yield* transactor.transaction(Effect.andThen(repo.insert(comment), Effect.andThen(countOpen(comment, 1), notify.record(mentioned))))
    return view(ctx, comment)
  })

  const list = Effect.fn("Comments.list")(function*(scope: CommentScope, request: CommentListRequest) {
    const ctx = yield* context(scope)
    const after = yield* Pagination.afterOf(request, commentKeyShape)
    const page = yield* repo.list({
      spaceId: ctx.scope.spaceId,
      changeRequestId: ctx.scope.changeRequestId,
      status: request.status === "all" ? undefined : request.status,
      pageId: request.targetPage,
      authors: request.authors,
      order: request.order ?? "desc"
    }, after, Pagination.limitOf(request))
    return { ...page, items: page.items.map((comment) => view(ctx, comment)) }
  })

  const get = Effect.fn("Comments.get")(function*(scope: CommentScope, commentId: string) {
    const ctx = yield* context(scope)
    return view(ctx, yield* findComment(ctx.scope, commentId))
  })

  const update = Effect.fn("Comments.update")(function*(scope: CommentScope, commentId: string, input: CommentUpdate) {
    const ctx = yield* context(scope)
    const comment = yield* findComment(ctx.scope, commentId)
    const permissions = commentPermissions(ctx.access.permissions, ctx.userId, comment.authorId)
    const markdown = input.markdown === undefined ? undefined : yield* validMarkdown(input.markdown, "body")
    if (markdown !== undefined) yield* Access.ensure(permissions.edit, "edit this comment")
    if (input.resolved !== undefined) {
      yield* Access.ensure(canDiscuss(ctx.access.permissions), input.resolved ? "resolve comments" : "reopen comments")
    }
    const reactions = yield* react(ctx, commentId, input)
    const at = yield* now
    const edited = markdown !== undefined && markdown !== comment.markdown ? markdown : undefined
    // An edit notifies only the people it newly mentions.
    const mentioned = edited === undefined ? [] : yield* mentions(ctx, edited, { commentId, pageId: comment.target.pageId }, comment.markdown)
    yield* transactor.transaction(Effect.gen(function*() {
      if (edited !== undefined) {
        yield* repo.updateBody(commentId, edited, at)
        yield* notify.record(mentioned)
      }
      if (input.resolved !== undefined) {
        const changed = yield* repo.setStatus(
          commentId,
          input.resolved
            ? { status: "resolved", resolvedAt: at, resolvedBy: ctx.userId }
            : { status: "open", resolvedAt: null, resolvedBy: null }
        )
        if (changed) yield* countOpen(comment, input.resolved ? -1 : 1)
      }
      yield* reactions
    }))
    return view(ctx, yield* findComment(ctx.scope, commentId))
  })

  const remove = Effect.fn("Comments.remove")(function*(scope: CommentScope, commentId: string) {
    const ctx = yield* context(scope)
    const comment = yield* findComment(ctx.scope, commentId)
    yield* Access.ensure(commentPermissions(ctx.access.permissions, ctx.userId, comment.authorId).delete, "delete this comment")
    yield* transactor.transaction(Effect.gen(function*() {
      const removed = yield* repo.remove(commentId)
      if (Option.isSome(removed) && removed.value.status === "open") yield* countOpen(removed.value, -1)
    }))
  }, Effect.catchTag("NotFound", () => Effect.void))

  return { post, list, get, update, remove }
}
