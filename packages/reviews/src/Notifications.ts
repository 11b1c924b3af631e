/**
 * Use cases of a user's own notifications: list them newest first, count the unread ones, mark one
 * read or unread, mark all read. Others' notifications do not exist for the caller (NotFound).
 * The notifications themselves are written by the reviews use cases (notifications/Notify.ts).
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { ContentAccess, flattenPages, SpaceContent } from "@quire/content"
import { Actor, Errors, Pagination } from "@quire/kernel"
import { ChangeRequestsRepo } from "./ChangeRequestsRepo.ts"
import type { ChangeRequest } from "./domain/ChangeRequest.ts"
import type { Notification } from "./domain/Notification.ts"
import { notificationKeyShape, NotificationsRepo } from "./NotificationsRepo.ts"

export interface NotificationView {
  readonly notification: Notification
  /** The change request it is about, as it is now; null when none (or it is gone). */
  readonly changeRequest: ChangeRequest | null
  /** For a comment on the space's own content: the path of its page in the current content, when it is still there. */
  readonly pagePath: string | null
  /** The space's title, as it is now. */
  readonly spaceTitle: string
}

/** What became of a notification to deliver: gone (never written, or its space purged), about a space its person can no longer view, or its view. */
export type Delivery = { readonly _tag: "missing" } | { readonly _tag: "hidden" } | { readonly _tag: "found"; readonly view: NotificationView }

/** The app's path of what a notification is about: a change request's review, or the space's page for a comment on the space. */
export const notificationAppPath = (view: NotificationView): string => {
  const { changeRequest, notification, pagePath } = view
  const space = `/s/${encodeURIComponent(notification.spaceId)}`
  if (changeRequest !== null) return `${space}/~/changes/${changeRequest.number}/~/review`
  return pagePath === null ? space : `${space}/${pagePath.split("/").map(encodeURIComponent).join("/")}`
}

export interface NotificationListRequest extends Pagination.PageRequest {
  /** Only unread (true) or only read (false) ones; absent: all. */
  readonly unread?: boolean | undefined
}

export interface NotificationsShape {
  /** The caller's notifications, newest first, about spaces they can still view. */
  readonly list: (request: NotificationListRequest) => Effect.Effect<Pagination.Page<NotificationView>, Errors.InvalidInput, Actor.Actor>
  /** The caller's unread notifications about spaces they can still view. */
  readonly unreadCount: Effect.Effect<number, never, Actor.Actor>
  /** Marks one of the caller's notifications read or unread; NotFound for anyone else's. */
  readonly markRead: (notificationId: string, read: boolean) => Effect.Effect<NotificationView, Errors.NotFound, Actor.Actor>
  /** Marks all the caller's notifications read; answers how many were unread. */
  readonly markAllRead: Effect.Effect<number, never, Actor.Actor>
  /** A notification as its own person sees it, for the job that mails it (no caller: it acts as that person). */
  readonly forDelivery: (notificationId: string) => Effect.Effect<Delivery>
}

export class Notifications extends Context.Service<Notifications, NotificationsShape>()("@quire/reviews/Notifications") {
  static readonly layer = Layer.effect(
    Notifications,
    Effect.gen(function*() {
      const repo = yield* NotificationsRepo
      const changeRequests = yield* ChangeRequestsRepo
      const access = yield* ContentAccess
      const content = yield* SpaceContent
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const caller = Effect.map(Effect.service(Actor.Actor), (actor) => actor.userId)

      /** Views of notifications; those about a space the caller can no longer view are left out. */
      const views = Effect.fnUntraced(function*(notifications: ReadonlyArray<Notification>) {
        const spaceIds = [...new Set(notifications.map((n) => n.spaceId))]
        const visible = new Map<string, string>()
        for (const spaceId of spaceIds) {
          const found = yield* Effect.option(access.space(spaceId))
          if (Option.isSome(found)) visible.set(spaceId, found.value.space.title)
        }
        const crs = new Map<string, ChangeRequest>()
        const paths = new Map<string, ReadonlyMap<string, string>>()
        const out: Array<NotificationView> = []
        for (const n of notifications) {
          if (!visible.has(n.spaceId)) continue
          if (n.changeRequestId !== null && !crs.has(n.changeRequestId)) {
            const found = yield* changeRequests.find(n.changeRequestId)
            if (Option.isSome(found)) crs.set(n.changeRequestId, found.value)
          }
          if (n.changeRequestId === null && n.pageId !== null && !paths.has(n.spaceId)) {
            const current = yield* Effect.option(content.revision(n.spaceId))
            paths.set(
              n.spaceId,
              new Map(Option.isSome(current) ? flattenPages(current.value.revision.pages).map((e) => [e.page.id, e.path] as const) : [])
            )
          }
          out.push({
            notification: n,
            changeRequest: n.changeRequestId === null ? null : crs.get(n.changeRequestId) ?? null,
            pagePath: n.changeRequestId === null && n.pageId !== null ? paths.get(n.spaceId)?.get(n.pageId) ?? null : null,
            spaceTitle: visible.get(n.spaceId) ?? ""
          })
        }
        return out
      })

      const list = Effect.fn("Notifications.list")(function*(request: NotificationListRequest) {
        const after = yield* Pagination.afterOf(request, notificationKeyShape)
        const page = yield* repo.list({ userId: yield* caller, unread: request.unread }, after, Pagination.limitOf(request))
        return { ...page, items: yield* views(page.items) }
      })

      const own = Effect.fnUntraced(function*(notificationId: string) {
        const userId = yield* caller
        const found = Option.filter(yield* repo.find(notificationId), (n) => n.userId === userId)
        if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Notification", id: notificationId })
        return found.value
      })

      const markRead = Effect.fn("Notifications.markRead")(function*(notificationId: string, read: boolean) {
        const found = yield* own(notificationId)
        const updated = Option.getOrElse(yield* repo.setRead(found.id, read ? yield* now : null), () => found)
        const [view] = yield* views([updated])
        if (view === undefined) return yield* new Errors.NotFound({ resource: "Notification", id: notificationId })
        return view
      })

      /** Unread notifications about spaces the caller can still view (as the list shows them). */
      const unreadCount = Effect.gen(function*() {
        const counts = yield* repo.unreadBySpace(yield* caller)
        let total = 0
        for (const [spaceId, count] of counts) {
          if (Option.isSome(yield* Effect.option(access.space(spaceId)))) total += count
        }
        return total
      })

      const forDelivery = Effect.fn("Notifications.forDelivery")(function*(notificationId: string) {
        const found = yield* repo.find(notificationId)
        if (Option.isNone(found)) return { _tag: "missing" } as const
        const [view] = yield* views([found.value]).pipe(
          Effect.provideService(Actor.Actor, Actor.Actor.of({ userId: found.value.userId, instanceAdmin: false }))
        )
        return view === undefined ? { _tag: "hidden" } as const : { _tag: "found", view } as const
      })

      return Notifications.of({
        forDelivery,
        list,
        unreadCount,
        markRead,
        markAllRead: Effect.flatMap(Effect.all([caller, now]), ([userId, at]) => repo.markAllRead(userId, at))
      })
    })
  )
}
