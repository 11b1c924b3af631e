/**
 * The signed-in user's notifications: review requested, replies in their threads, mentions, their
 * change requests merged. Quire's extension, beside GitBook's `createUserNotificationsToken` (a
 * short-lived token that reads only these notifications).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { NotificationKind } from "@quire/reviews/domain/Notification"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, ListOf, PageQuery, Timestamp, User } from "./Schemas.ts"

export { NotificationKind }

export const Notification = Schema.Struct({
  object: Schema.Literal("notification"),
  id: Schema.String,
  /** `review_requested`, `comment_reply` (a reply in a thread the user wrote in), `mention` (`@[Name](user:<id>)` in a comment or reply), `change_request_merged`. */
  kind: NotificationKind,
  createdAt: Timestamp,
  read: Schema.Boolean,
  /** Who did it. */
  actor: User,
  /** The space's id. */
  space: Schema.String,
  /** The change request it is about, as it is now. */
  changeRequest: Schema.optionalKey(Schema.Struct({ id: Schema.String, number: Schema.Finite, subject: Schema.String })),
  /** The comment it is about (the thread of a reply or a mention). */
  comment: Schema.optionalKey(Schema.String),
  /** The reply it is about, when a reply was posted or mentioned the user. */
  reply: Schema.optionalKey(Schema.String),
  /** `app`: where the app shows it (the change request's review, or the space's page); `location`: this notification. */
  urls: Schema.Struct({ app: Schema.String, location: Schema.String })
}).annotate({ identifier: "Notification" })
export type Notification = typeof Notification.Type

export const NotificationCount = Schema.Struct({
  /** The caller's unread notifications. */
  unread: Schema.Finite
}).annotate({ identifier: "NotificationCount" })

/** For each kind of notification, whether it also reaches the person by email. */
export const EmailNotificationChoices = Schema.Struct({
  review_requested: Schema.Boolean,
  comment_reply: Schema.Boolean,
  mention: Schema.Boolean,
  change_request_merged: Schema.Boolean
}).annotate({ identifier: "EmailNotificationChoices" })

export const NotificationSettings = Schema.Struct({
  object: Schema.Literal("notification-settings"),
  /** Which kinds are emailed as well as shown in the app (all, until the person turns some off). */
  email: EmailNotificationChoices
}).annotate({ identifier: "NotificationSettings" })
export type NotificationSettings = typeof NotificationSettings.Type

const extension = "Quire's extension (GitBook has only `createUserNotificationsToken`)."

export class NotificationsApi extends HttpApiGroup.make("notifications")
  .add(
    HttpApiEndpoint.get("listNotificationsForAuthenticatedUser", "/user/notifications", {
      query: { ...PageQuery, unread: Schema.optional(Schema.Boolean) },
      success: ListOf(Notification),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List my notifications",
        description: `${extension} The caller's notifications, newest first, paginated: a review requested of them, a reply in a thread they started or replied in, a mention in a comment or reply (members who can view the space only), their change request (or one they edited) merged. Nobody is notified of what they did themselves. \`unread=true\` keeps the unread ones, \`unread=false\` the read ones. Notifications about a space the caller can no longer view are left out.`
      })),
    HttpApiEndpoint.get("countNotificationsForAuthenticatedUser", "/user/notifications/count", {
      success: NotificationCount,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Count my unread notifications",
        description: `${extension} How many of the caller's notifications are unread (what an app's bell shows; cheap to poll).`
      })),
    HttpApiEndpoint.patch("updateNotificationForAuthenticatedUser", "/user/notifications/:notificationId", {
      params: { notificationId: EntityId },
      payload: Schema.Struct({ read: Schema.Boolean }),
      success: Notification,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Mark a notification read or unread",
        description: `${extension} Marks one of the caller's notifications read (\`read: true\`) or unread. 404 for anyone else's.`,
        transform: requestExample({ read: true })
      })),
    HttpApiEndpoint.post("markAllNotificationsReadForAuthenticatedUser", "/user/notifications/read", {
      success: NotificationCount,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Mark all my notifications read",
        description: `${extension} Marks every notification of the caller read; answers the unread count, now 0.`
      })),
    HttpApiEndpoint.get("getNotificationSettingsForAuthenticatedUser", "/user/notification-settings", {
      success: NotificationSettings,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get my notification settings",
        description: `${extension} Which kinds of notification also reach the caller by email: every kind, until they turn some off. Mail is sent only when the server has SMTP (\`QUIRE_SMTP_URL\`); in-app notifications are always kept.`
      })),
    HttpApiEndpoint.patch("updateNotificationSettingsForAuthenticatedUser", "/user/notification-settings", {
      payload: Schema.Struct({
        email: Schema.Struct({
          review_requested: Schema.optionalKey(Schema.Boolean),
          comment_reply: Schema.optionalKey(Schema.Boolean),
          mention: Schema.optionalKey(Schema.Boolean),
          change_request_merged: Schema.optionalKey(Schema.Boolean)
        })
      }),
      success: NotificationSettings,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Change my notification settings",
        description: `${extension} Turns email on or off for the kinds named in \`email\`; the others stay as they were.`,
        transform: requestExample({ email: { mention: false } })
      })),
    /** A token of one hour that reads and marks only the caller's notifications. */
    HttpApiEndpoint.post("createUserNotificationsToken", "/user/notifications/token", {
      success: Schema.Struct({ token: Schema.String }).annotate({ identifier: "APITemporaryToken" }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a notifications token",
        description: "Answers a token (a JWT signed by the server) that lasts one hour and opens only the caller's notifications: listing, counting and marking them read (`listNotificationsForAuthenticatedUser` and the others of this group). Any other operation answers 401 with it. For a client that shows notifications without holding the person's API token."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
