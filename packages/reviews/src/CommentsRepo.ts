/**
 * Port: comments on a space's content or on a change request, their replies and reactions.
 * A comment belongs to a space and, optionally, to a change request (`changeRequestId`).
 */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import { type Comment, type CommentReply, type CommentStatus, type Reaction, repliersOf } from "./domain/Comment.ts"

export interface CommentQuery {
  readonly spaceId: string
  /** Comments of this change request; null: comments on the space's own content. */
  readonly changeRequestId: string | null
  readonly status?: CommentStatus | undefined
  readonly pageId?: string | undefined
  /** Only comments posted by one of these users (absent or empty: anyone). */
  readonly authors?: ReadonlyArray<string> | undefined
  readonly order: Pagination.Order
}

/** Someone who posted comments or replies in a scope: how many, and when they last did. */
export interface Commenter {
  readonly userId: string
  readonly count: number
  readonly lastPostedAt: Date
}

export interface CommentsRepoShape {
  readonly insert: (comment: Comment) => Effect.Effect<void>
  readonly find: (commentId: string) => Effect.Effect<Option.Option<Comment>>
  /** Comments ordered by (postedAt, id) in `query.order`, keyset-paginated on that key. */
  readonly list: (query: CommentQuery, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<Comment>>
  readonly updateBody: (commentId: string, markdown: string, editedAt: Date) => Effect.Effect<Option.Option<Comment>>
  /** Sets the status only if it differs: true when it changed. */
  readonly setStatus: (
    commentId: string,
    change: { readonly status: CommentStatus; readonly resolvedAt: Date | null; readonly resolvedBy: string | null }
  ) => Effect.Effect<boolean>
  /** Removes the comment with its replies and reactions; the comment as it was, if it existed. */
  readonly remove: (commentId: string) => Effect.Effect<Option.Option<Comment>>
  /** Adds a reaction to a comment or a reply (`targetId`); nothing happens if the user already reacted with that emoji. */
  readonly react: (targetId: string, reaction: Reaction) => Effect.Effect<void>
  readonly unreact: (targetId: string, emoji: string, userId: string) => Effect.Effect<void>
  /** Stores a reply and counts it on its comment. */
  readonly insertReply: (reply: CommentReply) => Effect.Effect<void>
  readonly findReply: (commentId: string, replyId: string) => Effect.Effect<Option.Option<CommentReply>>
  /** Replies of a comment, oldest first, keyset-paginated on (postedAt, id). */
  readonly listReplies: (commentId: string, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<CommentReply>>
  readonly updateReplyBody: (replyId: string, markdown: string, editedAt: Date) => Effect.Effect<Option.Option<CommentReply>>
  /** Removes a reply and uncounts it: false when it did not exist. */
  readonly removeReply: (commentId: string, replyId: string) => Effect.Effect<boolean>
  /** Who posted the comments of a scope (a change request's, or the space's own with null) and their replies, by user id. */
  readonly commenters: (spaceId: string, changeRequestId: string | null) => Effect.Effect<ReadonlyArray<Commenter>>
  /** Removes every comment of the space (its change requests' too), with their replies and reactions. */
  readonly removeForSpace: (spaceId: string) => Effect.Effect<void>
}

/** Sort key of comments and replies: posting instant, then id. */
export const commentKey = (item: { readonly postedAt: Date; readonly id: string }): Pagination.CursorKey => [
  item.postedAt.toISOString(),
  item.id
]
export const commentKeyShape: Pagination.KeyShape = ["timestamp", "string"]

/** Reactions in a stable order: by instant, then emoji, then user. */
export const sortReactions = (reactions: ReadonlyArray<Reaction>): ReadonlyArray<Reaction> =>
  reactions.toSorted((a, b) =>
    Pagination.compareKeys([a.reactedAt.toISOString(), a.emoji, a.userId], [b.reactedAt.toISOString(), b.emoji, b.userId])
  )

const storedComment = ({ reactions: _reactions, replies: _replies, repliers: _repliers, ...rest }: Comment) => rest
const storedReply = ({ reactions: _reactions, ...rest }: CommentReply) => rest

export class CommentsRepo extends Context.Service<CommentsRepo, CommentsRepoShape>()("@quire/reviews/CommentsRepo") {
  static readonly layerMemory = Layer.sync(CommentsRepo, () => {
    const comments = new MemoryStore.TxMap<string, Omit<Comment, "reactions" | "replies" | "repliers">>()
    const replies = new MemoryStore.TxMap<string, Omit<CommentReply, "reactions">>()
    const reactions = new MemoryStore.TxMap<string, Array<Reaction>>()

    const reactionsOf = (targetId: string) => sortReactions(reactions.get(targetId) ?? [])
    const repliesOf = (commentId: string) => Array.from(replies.values()).filter((r) => r.commentId === commentId)
    const full = (comment: Omit<Comment, "reactions" | "replies" | "repliers">): Comment => ({
      ...comment,
      replies: repliesOf(comment.id).length,
      repliers: repliersOf([...repliesOf(comment.id)].sort((a, b) => a.postedAt.getTime() - b.postedAt.getTime())),
      reactions: reactionsOf(comment.id)
    })
    const fullReply = (reply: Omit<CommentReply, "reactions">): CommentReply => ({ ...reply, reactions: reactionsOf(reply.id) })

    return CommentsRepo.of({
      insert: (comment) => Effect.sync(() => void comments.set(comment.id, storedComment(comment))),
      find: (commentId) => Effect.sync(() => Option.map(Option.fromNullishOr(comments.get(commentId)), full)),
      list: (query, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(
            Array.from(comments.values()).filter((c) =>
              c.spaceId === query.spaceId &&
              c.changeRequestId === query.changeRequestId &&
              (query.status === undefined || c.status === query.status) &&
              (query.pageId === undefined || c.target.pageId === query.pageId) &&
              (query.authors === undefined || query.authors.length === 0 || query.authors.includes(c.authorId))
            ),
            commentKey,
            { order: query.order, after, limit }
          )
        ).pipe(Effect.map((page) => ({ ...page, items: page.items.map(full) }))),
      updateBody: (commentId, markdown, editedAt) =>
        Effect.sync(() => {
          const found = comments.get(commentId)
          if (found === undefined) return Option.none()
          const next = { ...found, markdown, editedAt }
          comments.set(commentId, next)
          return Option.some(full(next))
        }),
      setStatus: (commentId, change) =>
        Effect.sync(() => {
          const found = comments.get(commentId)
          if (found === undefined || found.status === change.status) return false
          comments.set(commentId, { ...found, ...change })
          return true
        }),
      remove: (commentId) =>
        Effect.sync(() => {
          const found = comments.get(commentId)
          if (found === undefined) return Option.none()
          const removed = full(found)
          for (const reply of repliesOf(commentId)) {
            replies.delete(reply.id)
            reactions.delete(reply.id)
          }
          reactions.delete(commentId)
          comments.delete(commentId)
          return Option.some(removed)
        }),
      react: (targetId, reaction) =>
        Effect.sync(() => {
          const existing = reactions.get(targetId) ?? []
          if (existing.some((r) => r.emoji === reaction.emoji && r.userId === reaction.userId)) return
          reactions.set(targetId, [...existing, reaction])
        }),
      unreact: (targetId, emoji, userId) =>
        Effect.sync(() => {
          const existing = reactions.get(targetId)
          if (existing !== undefined) reactions.set(targetId, existing.filter((r) => !(r.emoji === emoji && r.userId === userId)))
        }),
      insertReply: (reply) => Effect.sync(() => void replies.set(reply.id, storedReply(reply))),
      findReply: (commentId, replyId) =>
        Effect.sync(() => {
          const found = replies.get(replyId)
          return found === undefined || found.commentId !== commentId ? Option.none() : Option.some(fullReply(found))
        }),
      listReplies: (commentId, after, limit) =>
        Effect.suspend(() =>
          Effect.map(
            Pagination.paginateArray(repliesOf(commentId), commentKey, { order: "asc", after, limit }),
            (page) => ({ ...page, items: page.items.map(fullReply) })
          )
        ),
      updateReplyBody: (replyId, markdown, editedAt) =>
        Effect.sync(() => {
          const found = replies.get(replyId)
          if (found === undefined) return Option.none()
          const next = { ...found, markdown, editedAt }
          replies.set(replyId, next)
          return Option.some(fullReply(next))
        }),
      removeReply: (commentId, replyId) =>
        Effect.sync(() => {
          const found = replies.get(replyId)
          if (found === undefined || found.commentId !== commentId) return false
          replies.delete(replyId)
          reactions.delete(replyId)
          return true
        }),
      commenters: (spaceId, changeRequestId) =>
        Effect.sync(() => {
          const counted = new Map<string, Commenter>()
          const count = (userId: string, postedAt: Date) => {
            const found = counted.get(userId)
            counted.set(userId, {
              userId,
              count: (found?.count ?? 0) + 1,
              lastPostedAt: found === undefined || found.lastPostedAt < postedAt ? postedAt : found.lastPostedAt
            })
          }
          for (const comment of comments.values()) {
            if (comment.spaceId !== spaceId || comment.changeRequestId !== changeRequestId) continue
            count(comment.authorId, comment.postedAt)
            for (const reply of repliesOf(comment.id)) count(reply.authorId, reply.postedAt)
          }
          return Array.from(counted.values()).toSorted((a, b) => Pagination.compareKeys([a.userId], [b.userId]))
        }),
      removeForSpace: (spaceId) =>
        Effect.sync(() => {
          for (const reply of Array.from(replies.values())) {
            if (reply.spaceId !== spaceId) continue
            replies.delete(reply.id)
            reactions.delete(reply.id)
          }
          for (const comment of Array.from(comments.values())) {
            if (comment.spaceId !== spaceId) continue
            comments.delete(comment.id)
            reactions.delete(comment.id)
          }
        })
    })
  })
}
