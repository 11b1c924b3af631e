/**
 * The notifications feature's reads and writes (Quire's extension of `/v1`): the unread count the
 * shell's bell polls, the newest notifications with the titles of their spaces, and marking read.
 * Every write names `notificationsKey`, so the bell and the list read again.
 */
import { Effect } from "effect"
import { Atom } from "effect/reactivity"
import type { Notification } from "@quire/api"
import { QuireApi } from "../../api/client.ts"

export const notificationsKey = "notifications"

/** How many notifications one page of the screen shows. */
export const pageSize = 30

export const unreadCountAtom = QuireApi.runtime.atom(Effect.gen(function*() {
  const client = yield* QuireApi
  return (yield* client.notifications.countNotificationsForAuthenticatedUser()).unread
})).pipe(Atom.withReactivity([notificationsKey]))

/** A page of notifications: newest first, from the cursor `page` ("" for the first). */
export const notificationsAtom = Atom.family((page: string) =>
  QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    return yield* client.notifications.listNotificationsForAuthenticatedUser({
      query: { limit: pageSize, ...(page === "" ? {} : { page }) }
    })
  })).pipe(Atom.withReactivity([notificationsKey]))
)

/** The titles of spaces, by id (a space the person can no longer open is left out). */
export const spaceTitlesAtom = Atom.family((ids: string) =>
  QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const titles = yield* Effect.forEach(ids === "" ? [] : ids.split(","), (spaceId) =>
      client.spaces.getSpaceById({ params: { spaceId }, query: {} }).pipe(
        Effect.map((space) => [spaceId, space.title] as const),
        Effect.catch(() => Effect.succeed([spaceId, ""] as const))
      ), { concurrency: 4 })
    return new Map(titles.filter(([, title]) => title !== ""))
  }))
)

export const markRead = QuireApi.mutation("notifications", "updateNotificationForAuthenticatedUser")
export const markAllRead = QuireApi.mutation("notifications", "markAllNotificationsReadForAuthenticatedUser")

export type { Notification }
