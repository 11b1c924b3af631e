/**
 * Port: what else happens to notifications once written (they are mailed to their people). The
 * reviews use cases call it in the transaction that writes them; the platform implements it by
 * queueing a job, so the event never waits on, nor fails with, the delivery. Absent: nothing.
 */
import { Context, type Effect } from "effect"
import type { Notification } from "../domain/Notification.ts"

export class NotificationDelivery extends Context.Service<NotificationDelivery, {
  /** Hands the notifications just written on for delivery; never fails the event. */
  readonly deliver: (notifications: ReadonlyArray<Notification>) => Effect.Effect<void>
}>()("@quire/reviews/NotificationDelivery") {}
