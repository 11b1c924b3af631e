/**
 * Notifications by email: reviews hands each notification it writes to `NotificationDelivery`,
 * which this implements by queueing a job (off the request, never failing the event, nothing when
 * the server has no SMTP); the job mails each person whose settings keep that kind, with a link to
 * where the app shows it. In-app notifications are written either way.
 */
import { Effect, Exit, Layer, Schema } from "effect"
import { accountMail, NotificationSettings, Users } from "@quire/identity"
import { Actor, escapeHtml } from "@quire/kernel"
import { define, JobQueue } from "@quire/queue"
import { notificationAppPath, NotificationDelivery, Notifications, type NotificationView } from "@quire/reviews"

/** What a notification's email says: subject, plain text and the same as simple HTML, with escaped names. */
export interface NotificationEmail {
  readonly subject: string
  readonly text: string
  readonly html: string
}

/** The change request a notification is about, as words: `change request #3 “Fix typo”`. */
const changeRequestWords = (view: NotificationView) =>
  view.changeRequest === null
    ? undefined
    : `change request #${view.changeRequest.number}${view.changeRequest.subject === "" ? "" : ` “${view.changeRequest.subject}”`}`

/** The sentence saying what happened, and the words of its link. */
const sentenceOf = (view: NotificationView, actor: string): { readonly sentence: string; readonly action: string } => {
  const space = view.spaceTitle === "" ? "a space" : `the space “${view.spaceTitle}”`
  const cr = changeRequestWords(view)
  const where = cr === undefined ? `in ${space}` : `on ${cr} in ${space}`
  switch (view.notification.kind) {
    case "review_requested":
      return { sentence: `${actor} asked you to review ${cr ?? "a change request"} in ${space}.`, action: "Open the review" }
    case "comment_reply":
      return { sentence: `${actor} replied in a comment thread you took part in, ${where}.`, action: "Open the thread" }
    case "mention":
      return { sentence: `${actor} mentioned you in a comment ${where}.`, action: "Open the comment" }
    case "change_request_merged":
      return { sentence: `${actor} merged ${cr ?? "a change request"} that you worked on, in ${space}.`, action: "Open the change request" }
  }
}

const subjectOf = (view: NotificationView, actor: string): string => {
  const cr = changeRequestWords(view)
  switch (view.notification.kind) {
    case "review_requested":
      return `${actor} asked you to review ${cr ?? "a change request"}`
    case "comment_reply":
      return `${actor} replied to your comment${view.spaceTitle === "" ? "" : ` in ${view.spaceTitle}`}`
    case "mention":
      return `${actor} mentioned you${view.spaceTitle === "" ? "" : ` in ${view.spaceTitle}`}`
    case "change_request_merged":
      return `${actor} merged ${cr ?? "your change request"}`
  }
}

/** The email of one notification from `actor` (a display name), with links into the app at `appUrl`. */
export const compose = (view: NotificationView, actor: string, appUrl: string): NotificationEmail => {
  const link = `${appUrl}${notificationAppPath(view)}`
  const settings = `${appUrl}/settings/notifications`
  const { action, sentence } = sentenceOf(view, actor)
  const text = `${sentence}\n\n${action}:\n${link}\n\n--\nYou get this email because of your notification settings in Quire. ` +
    `Choose which emails you get:\n${settings}\n`
  const html = `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">` +
    `<p>${escapeHtml(sentence)}</p>` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>` +
    `<hr><p style="color: #666; font-size: 0.9em">You get this email because of your notification settings in Quire. ` +
    `<a href="${escapeHtml(settings)}">Choose which emails you get</a>.</p></body></html>`
  return { subject: subjectOf(view, actor), text, html }
}

/** The job: mails the notifications with these ids, each to its person if they keep email for its kind. */
export const mailNotifications = define("reviews.mailNotifications", {
  payload: Schema.Struct({ ids: Schema.Array(Schema.String) }),
  // A notification written in a transaction not yet committed is looked for again, a few times.
  maxAttempts: 5,
  handler: ({ ids }) =>
    Effect.gen(function*() {
      const notifications = yield* Notifications
      const settings = yield* NotificationSettings
      const users = yield* Users
      const mail = yield* accountMail
      if (!mail.delivers) return
      let missing = 0
      for (const id of ids) {
        const delivery = yield* notifications.forDelivery(id)
        if (delivery._tag === "missing") {
          missing++
          continue
        }
        if (delivery._tag === "hidden") continue
        const { notification } = delivery.view
        if (!(yield* settings.emails(notification.userId, notification.kind))) continue
        const asRecipient = Effect.provideService(Actor.Actor, Actor.Actor.of({ userId: notification.userId, instanceAdmin: false }))
        const recipient = yield* users.current.pipe(asRecipient, Effect.option)
        if (recipient._tag === "None") continue
        const actor = yield* users.get(notification.actorId).pipe(
          asRecipient,
          Effect.map((user) => user.displayName),
          Effect.orElseSucceed(() => "Someone")
        )
        yield* mail.message(recipient.value.email, (appUrl) => compose(delivery.view, actor, appUrl))
      }
      // None written yet: the event's transaction may not have committed; the queue tries again.
      if (missing === ids.length && ids.length > 0) return yield* Effect.fail(`Notifications ${ids.join(", ")} are not written (yet)`)
    })
})

export const jobs = [mailNotifications] as const

/** Reviews' delivery: a job per event's notifications, queued only when the server mails. */
export const layerDelivery = Layer.effect(
  NotificationDelivery,
  Effect.gen(function*() {
    const mail = yield* accountMail
    const queue = yield* JobQueue
    return NotificationDelivery.of({
      deliver: (written) =>
        mail.delivers
          ? mailNotifications.enqueue({ ids: written.map((n) => n.id) }).pipe(
            Effect.provideService(JobQueue, queue),
            // The event stands without its mail: a queue that cannot take the job is logged.
            Effect.exit,
            Effect.flatMap((exit) => Exit.isFailure(exit) ? Effect.logWarning("Could not queue the notifications' email", exit.cause) : Effect.void)
          )
          : Effect.void
    })
  })
)
