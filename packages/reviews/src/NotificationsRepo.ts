/** Port: the notifications of users, newest first. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { Notification } from "./domain/Notification.ts"

export interface NotificationQuery {
  readonly userId: string
  /** Only unread ones (true) or only read ones (false); absent: all. */
  readonly unread?: boolean | undefined
}

export interface NotificationsRepoShape {
  readonly insert: (notifications: ReadonlyArray<Notification>) => Effect.Effect<void>
  readonly find: (notificationId: string) => Effect.Effect<Option.Option<Notification>>
  /** Newest first, keyset-paginated on (createdAt, id) descending. */
  readonly list: (query: NotificationQuery, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<Notification>>
  /** The user's unread notifications, counted per space. */
  readonly unreadBySpace: (userId: string) => Effect.Effect<ReadonlyMap<string, number>>
  /** Marks it read at `at` (keeping an earlier read instant) or, with null, unread; none when it does not exist. */
  readonly setRead: (notificationId: string, at: Date | null) => Effect.Effect<Option.Option<Notification>>
  /** Marks every unread notification of the user read at `at`; answers how many were. */
  readonly markAllRead: (userId: string, at: Date) => Effect.Effect<number>
  /** Removes every notification about the space. */
  readonly removeForSpace: (spaceId: string) => Effect.Effect<void>
}

/** Sort key of notification listings (descending). */
export const notificationKey = (n: Notification): Pagination.CursorKey => [n.createdAt.toISOString(), n.id]
export const notificationKeyShape: Pagination.KeyShape = ["timestamp", "string"]

const matches = (query: NotificationQuery) => (n: Notification): boolean =>
  n.userId === query.userId && (query.unread === undefined || (n.readAt === null) === query.unread)

export class NotificationsRepo extends Context.Service<NotificationsRepo, NotificationsRepoShape>()("@quire/reviews/NotificationsRepo") {
  static readonly layerMemory = Layer.sync(NotificationsRepo, () => {
    const store = new MemoryStore.TxMap<string, Notification>()
    return NotificationsRepo.of({
      insert: (notifications) => Effect.sync(() => notifications.forEach((n) => store.set(n.id, n))),
      find: (notificationId) => Effect.sync(() => Option.fromNullishOr(store.get(notificationId))),
      list: (query, after, limit) =>
        Effect.suspend(() => Pagination.paginateArray(Array.from(store.values()).filter(matches(query)), notificationKey, { order: "desc", after, limit })),
      unreadBySpace: (userId) =>
        Effect.sync(() => {
          const counts = new Map<string, number>()
          for (const n of store.values()) if (matches({ userId, unread: true })(n)) counts.set(n.spaceId, (counts.get(n.spaceId) ?? 0) + 1)
          return counts
        }),
      setRead: (notificationId, at) =>
        Effect.sync(() => {
          const found = store.get(notificationId)
          if (found === undefined) return Option.none()
          const next = { ...found, readAt: at === null ? null : found.readAt ?? at }
          store.set(notificationId, next)
          return Option.some(next)
        }),
      markAllRead: (userId, at) =>
        Effect.sync(() => {
          const unread = Array.from(store.values()).filter(matches({ userId, unread: true }))
          for (const n of unread) store.set(n.id, { ...n, readAt: at })
          return unread.length
        }),
      removeForSpace: (spaceId) =>
        Effect.sync(() => {
          for (const [id, n] of Array.from(store)) if (n.spaceId === spaceId) store.delete(id)
        })
    })
  })
}
