/**
 * What the comment and reply use cases share: a scope as the caller sees it (its space, change
 * request and pages), views, lookups within the scope, reactions and the open-comment counters.
 */
import { Clock, Effect, Option } from "effect"
import { Access, flattenPages, type Revision, SpaceContent } from "@quire/content"
import { Actor, Errors, Ids, Transactor } from "@quire/kernel"
import { describeBreach, markdownLimitBreach } from "@quire/markdown"
import { ChangeRequests } from "../ChangeRequests.ts"
import { ChangeRequestsRepo } from "../ChangeRequestsRepo.ts"
import { canDiscuss, commentPermissions } from "../CommentRules.ts"
import type { CommentScope, CommentView, ReplyView } from "./CommentTypes.ts"
import { CommentsRepo } from "../CommentsRepo.ts"
import { SpaceCountersRepo } from "../SpaceCountersRepo.ts"
import type { Comment, CommentReply } from "../domain/Comment.ts"
import * as Notify from "../notifications/Notify.ts"

/** Longest accepted body, in characters. */
const maxMarkdown = 100_000

export const validMarkdown = (markdown: string, field: string): Effect.Effect<string, Errors.InvalidInput> => {
  if (markdown.trim() === "") return Effect.fail(new Errors.InvalidInput({ field, reason: "must not be empty" }))
  if (markdown.length > maxMarkdown) {
    return Effect.fail(new Errors.InvalidInput({ field, reason: `must be at most ${maxMarkdown} characters` }))
  }
  // Nesting that would make each render of the comment slow (see "Markdown limits" in docs/content.md).
  const breach = markdownLimitBreach(markdown)
  if (breach !== undefined) return Effect.fail(new Errors.InvalidInput({ field, reason: `is over ${describeBreach(breach)}` }))
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

const inScope = (scope: CommentScope) => (comment: Comment): boolean =>
  comment.spaceId === scope.spaceId && comment.changeRequestId === scope.changeRequestId

/** Built once by the Comments layer and handed to the comment and reply use cases. */
export const make = Effect.gen(function*() {
  const repo = yield* CommentsRepo
  const counters = yield* SpaceCountersRepo
  const content = yield* SpaceContent
  const ids = yield* Ids.Ids
  const transactor = yield* Transactor.Transactor
  const changeRequests = yield* ChangeRequests
  const changeRequestsRepo = yield* ChangeRequestsRepo
  const notify = yield* Notify.make
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

  /** Checks the reactions to add and remove; the write to run in the caller's transaction. */
  const react = Effect.fnUntraced(function*(
    ctx: Ctx,
    targetId: string,
    input: { readonly addedReactions?: ReadonlyArray<string> | undefined; readonly removedReactions?: ReadonlyArray<string> | undefined }
  ) {
    const added = yield* validEmojis(input.addedReactions, "addedReactions")
    const removed = yield* validEmojis(input.removedReactions, "removedReactions")
    if (added.length === 0 && removed.length === 0) return Effect.void
    yield* Access.ensure(canDiscuss(ctx.access.permissions), "react to comments")
    const at = yield* now
    return Effect.gen(function*() {
      for (const emoji of added) yield* repo.react(targetId, { emoji, userId: ctx.userId, reactedAt: at })
      for (const emoji of removed) yield* repo.unreact(targetId, emoji, ctx.userId)
    })
  })

  /** Mention notifications of the users a new body (or an edit, against its `before`) mentions, to record in the write's transaction. */
  const mentions = Effect.fnUntraced(function*(
    ctx: Ctx,
    markdown: string,
    about: { readonly commentId: string; readonly replyId?: string; readonly pageId: string | null },
    before?: string
  ) {
    const users = yield* notify.mentioned(ctx.access.space, markdown, before)
    return users.map((userId): Notify.Draft => ({
      userId,
      kind: "mention",
      spaceId: ctx.scope.spaceId,
      changeRequestId: ctx.scope.changeRequestId,
      ...about
    }))
  })

  return { repo, ids, transactor, now, countOpen, context, view, replyView, findComment, findReply, react, notify, mentions }
})

export type Discussion = Effect.Success<typeof make>
