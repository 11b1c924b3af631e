/**
 * The kinds of notification Quire writes (a review asked of someone, a reply in their thread, a
 * mention, their change request merged): defined once here because reviews writes them and
 * identity keeps each person's choice of which of them reach their email.
 */
import { Schema } from "effect"

export const NotificationKind = Schema.Literals(["review_requested", "comment_reply", "mention", "change_request_merged"])
export type NotificationKind = typeof NotificationKind.Type

/** Every kind, in the order settings list them. */
export const notificationKinds: ReadonlyArray<NotificationKind> = NotificationKind.literals
