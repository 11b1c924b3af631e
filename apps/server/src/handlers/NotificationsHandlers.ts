/**
 * Handlers of the notifications group (Quire's extension): the caller's own notifications from
 * reviews' Notifications use cases, each with its actor looked up once per answer and where the
 * app shows it (a change request's review, or the space's page for a comment on the space).
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type Notification } from "@quire/api"
import { issueNotificationsToken, NotificationSettings, type NotificationSettingsView } from "@quire/identity"
import { notificationAppPath, Notifications, type NotificationView } from "@quire/reviews"
import * as CommentPresenters from "../CommentPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "notifications", Effect.fn(function*(handlers) {
  const notifications = yield* Notifications
  const urls = yield* PublicUrl
  const lookup = yield* CommentPresenters.usersById
  const settings = yield* NotificationSettings
  const presentSettings = (view: NotificationSettingsView) => ({ object: "notification-settings" as const, email: view.email })

  const present = Effect.fnUntraced(function*(views: ReadonlyArray<NotificationView>) {
    const user = yield* lookup(views.map((v) => v.notification.actorId))
    return views.map((view): Notification => {
      const n = view.notification
      const cr = view.changeRequest
      return {
        object: "notification",
        id: n.id,
        kind: n.kind,
        createdAt: n.createdAt.toISOString(),
        read: n.readAt !== null,
        actor: user(n.actorId),
        space: n.spaceId,
        ...(cr === null ? {} : { changeRequest: { id: cr.id, number: cr.number, subject: cr.subject } }),
        ...(n.commentId === null ? {} : { comment: n.commentId }),
        ...(n.replyId === null ? {} : { reply: n.replyId }),
        urls: { app: urls.app(notificationAppPath(view)), location: urls.api(`/user/notifications/${n.id}`) }
      }
    })
  })

  return handlers
    .handle("createUserNotificationsToken", () => Effect.map(issueNotificationsToken, (token) => ({ token })).pipe(DomainErrors.api))
    .handle("listNotificationsForAuthenticatedUser", ({ query }) =>
      notifications.list(query).pipe(
        DomainErrors.api,
        Effect.flatMap((page) =>
          Effect.map(present(page.items), (items) => ({
            ...(page.next === undefined ? {} : { next: { page: page.next } }),
            count: items.length,
            items
          }))
        )
      ))
    .handle("countNotificationsForAuthenticatedUser", () => Effect.map(notifications.unreadCount, (unread) => ({ unread })))
    .handle("updateNotificationForAuthenticatedUser", ({ params, payload }) =>
      notifications.markRead(params.notificationId, payload.read).pipe(
        DomainErrors.api,
        Effect.flatMap((view) => Effect.map(present([view]), (items) => items[0]!))
      ))
    .handle("markAllNotificationsReadForAuthenticatedUser", () =>
      Effect.andThen(notifications.markAllRead, Effect.map(notifications.unreadCount, (unread) => ({ unread }))))
    .handle("getNotificationSettingsForAuthenticatedUser", () => Effect.map(settings.mine, presentSettings))
    .handle("updateNotificationSettingsForAuthenticatedUser", ({ payload }) => Effect.map(settings.update(payload.email), presentSettings))
}))
