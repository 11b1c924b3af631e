/**
 * Use cases on comments and their replies on a space or a change request: post, list, read, edit,
 * resolve, react to and delete them.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Access, flattenPages, type PageNode, type Revision, type SpaceAccess, SpaceContent } from "@quire/content"
import { Actor, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import { ChangeRequests } from "./ChangeRequests.ts"
import { ChangeRequestsRepo } from "./ChangeRequestsRepo.ts"
import { canDiscuss, commentPermissions } from "./CommentRules.ts"
import { commentKeyShape, CommentsRepo } from "./CommentsRepo.ts"
import { SpaceCountersRepo } from "./SpaceCountersRepo.ts"
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

/** Longest accepted body, in characters. */
const maxMarkdown = 100_000

const validMarkdown = (markdown: string, field: string): Effect.Effect<string, Errors.InvalidInput> => {
  if (markdown.trim() === "") return Effect.fail(new Errors.InvalidInput({ field, reason: "must not be empty" }))
  if (markdown.length > maxMarkdown) {
    return Effect.fail(new Errors.InvalidInput({ field, reason: `must be at most ${maxMarkdown} characters` }))
  }
  return Effect.succeed(markdown)
}

const validEmojis = (emojis: ReadonlyArray<string> | undefined, field: string): Effect.Effect<ReadonlyArray<string>, Errors.InvalidInput> => {
  const list = emojis ?? []
  return list.every((emoji) => emoji !== "" && emoji.length <= 50)
    ? Effect.succeed(Array.from(new Set(list)))
    : Effect.fail(new Errors.InvalidInput({ field, reason: "each reaction must be an emoji of 1 to 50 characters" }))
}

/** The pages of a revision by id, with their paths. */
const pagesById = (revision: Revision) => new Map(flattenPages(revision.pages).map((entry) => [entry.page.id, entry]))

const ensure = Access.ensure

const inScope = (scope: CommentScope) => (comment: Comment): boolean =>
  comment.spaceId === scope.spaceId && comment.changeRequestId === scope.changeRequestId

export class Comments extends Context.Service<Comments, CommentsShape>()("@quire/reviews/Comments") {
  static readonly layer = Layer.effect(
    Comments,
    Effect.gen(function*() {
      const repo = yield* CommentsRepo
      const counters = yield* SpaceCountersRepo
      const content = yield* SpaceContent
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const changeRequests = yield* ChangeRequests
      const changeRequestsRepo = yield* ChangeRequestsRepo
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const actorId = Effect.map(Effect.service(Actor.Actor), (actor) => actor.userId)

      /** Adds `delta` open comments to the counter of the comment's change request, or of its space. */
      const countOpen = (comment: Comment, delta: number) =>
        comment.changeRequestId === null
          ? counters.add(comment.spaceId, { comments: delta })
          : changeRequestsRepo.addToComments(comment.changeRequestId, delta)

      /**
       * The space as the caller sees it, the scope with its change request (if any) resolved to its
       * id, and the pages of the current revision of the space or of the change request, by id.
       */
      const context = Effect.fnUntraced(function*(requested: CommentScope) {
        const userId = yield* actorId
        if (requested.changeRequestId === null) {
          const current = yield* content.revision(requested.spaceId)
          return { scope: requested, access: current.access, revision: current.revision, userId, pages: pagesById(current.revision) }
        }
        const found = yield* changeRequests.content(requested.spaceId, requested.changeRequestId)
        return {
          scope: { spaceId: requested.spaceId, changeRequestId: found.changeRequest.id },
          access: found.access,
          revision: found.revision,
          userId,
          pages: pagesById(found.revision)
        }
      })
      type Ctx = Effect.Success<ReturnType<typeof context>>

      const view = (ctx: Ctx, comment: Comment): CommentView => {
        const pageId = comment.target.pageId
        const found = pageId === null ? undefined : ctx.pages.get(pageId)
        return {
          comment,
          page: pageId === null
            ? null
            : { id: pageId, page: found?.page ?? null, path: found?.path ?? null, outdated: found === undefined },
          permissions: commentPermissions(ctx.access.permissions, ctx.userId, comment.authorId),
          access: ctx.access
        }
      }

      const replyView = (ctx: Ctx, comment: Comment, reply: CommentReply): ReplyView => ({
        reply,
        comment,
        permissions: commentPermissions(ctx.access.permissions, ctx.userId, reply.authorId),
        access: ctx.access
      })

      const findComment = Effect.fnUntraced(function*(scope: CommentScope, commentId: string) {
        const found = Option.filter(yield* repo.find(commentId), inScope(scope))
        if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Comment", id: commentId })
        return found.value
      })

      const findReply = Effect.fnUntraced(function*(commentId: string, replyId: string) {
        const found = yield* repo.findReply(commentId, replyId)
        if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Comment reply", id: replyId })
        return found.value
      })

      const react = Effect.fnUntraced(function*(
        ctx: Ctx,
        targetId: string,
        input: { readonly addedReactions?: ReadonlyArray<string> | undefined; readonly removedReactions?: ReadonlyArray<string> | undefined }
      ) {
        const added = yield* validEmojis(input.addedReactions, "addedReactions")
        const removed = yield* validEmojis(input.removedReactions, "removedReactions")
        if (added.length === 0 && removed.length === 0) return Effect.void
        yield* ensure(canDiscuss(ctx.access.permissions), "react to comments")
        const at = yield* now
        return Effect.gen(function*() {
          for (const emoji of added) yield* repo.react(targetId, { emoji, userId: ctx.userId, reactedAt: at })
          for (const emoji of removed) yield* repo.unreact(targetId, emoji, ctx.userId)
        })
      })

      const post = Effect.fn("Comments.post")(function*(scope: CommentScope, input: PostCommentInput) {
        const ctx = yield* context(scope)
        yield* ensure(canDiscuss(ctx.access.permissions), "comment on this space")
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
          reactions: []
        }
        yield* transactor.transaction(Effect.andThen(repo.insert(comment), countOpen(comment, 1)))
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
        if (markdown !== undefined) yield* ensure(permissions.edit, "edit this comment")
        if (input.resolved !== undefined) {
          yield* ensure(canDiscuss(ctx.access.permissions), input.resolved ? "resolve comments" : "reopen comments")
        }
        const reactions = yield* react(ctx, commentId, input)
        const at = yield* now
        yield* transactor.transaction(Effect.gen(function*() {
          if (markdown !== undefined && markdown !== comment.markdown) yield* repo.updateBody(commentId, markdown, at)
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
        yield* ensure(commentPermissions(ctx.access.permissions, ctx.userId, comment.authorId).delete, "delete this comment")
        yield* transactor.transaction(Effect.gen(function*() {
          const removed = yield* repo.remove(commentId)
          if (Option.isSome(removed) && removed.value.status === "open") yield* countOpen(removed.value, -1)
        }))
      }, Effect.catchTag("NotFound", () => Effect.void))

      const postReply = Effect.fn("Comments.postReply")(function*(scope: CommentScope, commentId: string, input: string) {
        const ctx = yield* context(scope)
        const comment = yield* findComment(ctx.scope, commentId)
        yield* ensure(commentPermissions(ctx.access.permissions, ctx.userId, comment.authorId).reply, "reply to comments")
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
        yield* transactor.transaction(repo.insertReply(reply))
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
          yield* ensure(commentPermissions(ctx.access.permissions, ctx.userId, reply.authorId).edit, "edit this reply")
        }
        const reactions = yield* react(ctx, replyId, input)
        const at = yield* now
        yield* transactor.transaction(Effect.gen(function*() {
          if (markdown !== undefined && markdown !== reply.markdown) yield* repo.updateReplyBody(replyId, markdown, at)
          yield* reactions
        }))
        return replyView(ctx, comment, yield* findReply(commentId, replyId))
      })

      const removeReply = Effect.fn("Comments.removeReply")(function*(scope: CommentScope, commentId: string, replyId: string) {
        const ctx = yield* context(scope)
        yield* findComment(ctx.scope, commentId)
        const reply = yield* findReply(commentId, replyId)
        yield* ensure(commentPermissions(ctx.access.permissions, ctx.userId, reply.authorId).delete, "delete this reply")
        yield* transactor.transaction(repo.removeReply(commentId, replyId))
      }, Effect.catchTag("NotFound", () => Effect.void))

      return Comments.of({ post, list, get, update, remove, postReply, listReplies, getReply, updateReply, removeReply })
    })
  )
}

