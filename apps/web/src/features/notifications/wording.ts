/** What a notification says happened, in words: "Rita asked you to review “Reword beta”". */
import type { Notification } from "@quire/api"

/** The change request as people name it: its subject in quotes, else its number. */
const changeRequestName = (cr: NonNullable<Notification["changeRequest"]>) =>
  cr.subject.trim() === "" ? `change request #${cr.number}` : `“${cr.subject}”`

/** Where a comment is: on a change request, else on a page of the space (named when known). */
const commentPlace = (n: Notification, spaceTitle: string | undefined) =>
  n.changeRequest !== undefined
    ? `on ${changeRequestName(n.changeRequest)}`
    : spaceTitle === undefined ? "on a page" : `on a page of ${spaceTitle}`

export const describeNotification = (n: Notification, spaceTitle?: string): string => {
  const who = n.actor.displayName
  const cr = n.changeRequest === undefined ? "a change request" : changeRequestName(n.changeRequest)
  switch (n.kind) {
    case "review_requested": return `${who} asked you to review ${cr}`
    case "comment_reply": return `${who} replied to a comment ${commentPlace(n, spaceTitle)}`
    case "mention": return `${who} mentioned you in a ${n.reply === undefined ? "comment" : "reply"} ${commentPlace(n, spaceTitle)}`
    case "change_request_merged": return `${who} merged ${cr}`
  }
}
