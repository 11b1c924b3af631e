/**
 * Notifications: what happened that concerns a user (a review asked of them, a reply in a thread
 * they wrote in, a mention, a change request of theirs merged), written by the reviews use cases
 * in the transaction of the event. GitBook's API has no notification listing; this is Quire's.
 */
import { NotificationKinds } from "@quire/kernel"

/** The literal set lives in the kernel: identity keeps each person's email choice per kind. */
export const NotificationKind = NotificationKinds.NotificationKind
export type NotificationKind = NotificationKinds.NotificationKind

export interface Notification {
  readonly id: string
  /** Who is notified. */
  readonly userId: string
  readonly kind: NotificationKind
  /** Who did it (never `userId`). */
  readonly actorId: string
  readonly spaceId: string
  /** The change request it is about; null for a comment on the space's own content. */
  readonly changeRequestId: string | null
  /** The comment it is about (a reply's or a mention's thread); null for review requests and merges. */
  readonly commentId: string | null
  /** The reply it is about, when a reply was posted or mentioned someone. */
  readonly replyId: string | null
  /** The page the comment is on, if any. */
  readonly pageId: string | null
  readonly createdAt: Date
  /** When its owner marked it read; null while unread. */
  readonly readAt: Date | null
}

/**
 * The users a comment's markdown mentions, in order, each once. The app's comment box writes a
 * mention as `@[Display Name](user:<userId>)`; nothing else is a mention.
 */
export const mentionsOf = (markdown: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (const match of markdown.matchAll(/@\[[^\]\n]*\]\(user:([A-Za-z0-9_-]{1,100})\)/g)) {
    const userId = match[1]!
    if (!found.includes(userId)) found.push(userId)
  }
  return found
}
