/** Comments and replies to the API's JSON shapes; bodies go out exactly as they were written. */
import { Effect } from "effect"
import type { Comment as CommentResponse, CommentReply as CommentReplyResponse, Schemas } from "@quire/api"
import { Users } from "@quire/identity"
import type { CommentView, Reaction, ReplyView } from "@quire/reviews"
import * as Presenters from "./Presenters.ts"
import { PublicUrl } from "./PublicUrl.ts"

type Urls = PublicUrl["Service"]

/** The users a presenter shows, by id (resolved beforehand, once per response). */
export type UserLookup = (userId: string) => Schemas.User

/** Every user a comment or reply view shows: authors, resolvers, reacting users. */
export const userIds = (views: ReadonlyArray<CommentView | ReplyView>): ReadonlyArray<string> => {
  const ids = new Set<string>()
  for (const view of views) {
    const item = "reply" in view ? view.reply : view.comment
    ids.add(item.authorId)
    for (const reaction of item.reactions) ids.add(reaction.userId)
    if (!("reply" in view) && view.comment.resolvedBy !== null) ids.add(view.comment.resolvedBy)
    if (!("reply" in view)) for (const replier of view.comment.repliers) ids.add(replier.userId)
  }
  return Array.from(ids)
}

/** `authors` of a listing's query arrives as one string when the parameter is given once. */
export const authorsOf = (authors: string | ReadonlyArray<string> | undefined): ReadonlyArray<string> | undefined =>
  authors === undefined ? undefined : typeof authors === "string" ? [authors] : authors

/** Looks up the users an answer shows, each once; one removed since is shown by id. */
export const usersById = Effect.gen(function*() {
  const users = yield* Users
  const urls = yield* PublicUrl
  return Effect.fnUntraced(function*(ids: Iterable<string>) {
    const found = new Map<string, Schemas.User>()
    yield* Effect.forEach(new Set(ids), (userId) =>
      users.get(userId).pipe(
        Effect.map((user) => found.set(userId, Presenters.user(urls, user))),
        Effect.catchTag("NotFound", () => Effect.void)
      ), { discard: true, concurrency: 4 })
    return (userId: string): Schemas.User =>
      found.get(userId) ?? { object: "user", id: userId, displayName: "Unknown user", urls: { location: urls.api(`/users/${userId}`) } }
  })
})

/** Looks up the users comment and reply views show, as `usersById`. */
export const userLookup = Effect.map(usersById, (lookup) => (views: ReadonlyArray<CommentView | ReplyView>) => lookup(userIds(views)))

/** Reactions grouped by emoji, in the order each emoji was first used. */
export const reactions = (list: ReadonlyArray<Reaction>, users: UserLookup): CommentResponse["reactions"] => {
  const byEmoji = new Map<string, Array<Reaction>>()
  for (const reaction of list) byEmoji.set(reaction.emoji, [...(byEmoji.get(reaction.emoji) ?? []), reaction])
  return Array.from(byEmoji, ([emoji, group]) => ({
    emoji,
    count: group.length,
    users: group.map((r) => ({ user: users(r.userId), reactedAt: r.reactedAt.toISOString() }))
  }))
}

const commentPath = (spaceId: string, changeRequestId: string | null, commentId: string) =>
  changeRequestId === null
    ? `/spaces/${spaceId}/comments/${commentId}`
    : `/spaces/${spaceId}/change-requests/${changeRequestId}/comments/${commentId}`

export const comment = (urls: Urls, view: CommentView, users: UserLookup): CommentResponse => {
  const c = view.comment
  const target = view.page
  const page = target?.page
  return {
    object: "comment",
    id: c.id,
    postedBy: users(c.authorId),
    postedAt: c.postedAt.toISOString(),
    ...(c.editedAt === null ? {} : { editedAt: c.editedAt.toISOString() }),
    reactions: reactions(c.reactions, users),
    replies: c.replies,
    repliers: c.repliers.map((r) => ({ user: users(r.userId), count: r.count, updatedAt: r.lastRepliedAt.toISOString() })),
    body: { markdown: c.markdown },
    target: {
      ...(c.target.nodeId === null ? {} : { node: { id: c.target.nodeId } }),
      ...(c.target.tableCell === null ? {} : { tableCell: c.target.tableCell }),
      ...(c.changeRequestId === null ? {} : { changeRequest: c.changeRequestId }),
      ...(target === null
        ? {}
        : {
          page: {
            id: target.id,
            ...(page == null
              ? {}
              : {
                title: page.title,
                ...(page.emoji === undefined ? {} : { emoji: page.emoji }),
                ...(page.icon === undefined ? {} : { icon: page.icon }),
                createdAt: page.createdAt,
                updatedAt: page.updatedAt
              }),
            ...(target.path === null ? {} : { path: target.path }),
            outdated: target.outdated
          }
        }),
      space: c.spaceId,
      revision: c.revisionId
    },
    urls: { location: urls.api(commentPath(c.spaceId, c.changeRequestId, c.id)) },
    permissions: view.permissions,
    status: c.status,
    ...(c.resolvedAt === null ? {} : { resolvedAt: c.resolvedAt.toISOString() }),
    ...(c.resolvedBy === null ? {} : { resolvedBy: users(c.resolvedBy) })
  }
}

export const reply = (urls: Urls, view: ReplyView, users: UserLookup): CommentReplyResponse => {
  const r = view.reply
  return {
    object: "comment-reply",
    id: r.id,
    postedBy: users(r.authorId),
    postedAt: r.postedAt.toISOString(),
    ...(r.editedAt === null ? {} : { editedAt: r.editedAt.toISOString() }),
    reactions: reactions(r.reactions, users),
    body: { markdown: r.markdown },
    urls: {
      location: urls.api(`${commentPath(view.comment.spaceId, view.comment.changeRequestId, view.comment.id)}/replies/${r.id}`)
    },
    permissions: view.permissions
  }
}
