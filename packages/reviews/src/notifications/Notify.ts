/**
 * How the reviews use cases notify people: they name recipients and what happened, in the
 * transaction of the event, and this writes one notification per recipient, never to the actor.
 * Each is then handed to the NotificationDelivery, if one is provided (mail).
 * Mentions count only for members of the space's organization who may view the space.
 */
import { Clock, Effect, Option } from "effect"
import { ContentAccess, type Space } from "@quire/content"
import { Actor, Ids } from "@quire/kernel"
import { mentionsOf, type Notification, type NotificationKind } from "../domain/Notification.ts"
import { NotificationsRepo } from "../NotificationsRepo.ts"
import { NotificationDelivery } from "./NotificationDelivery.ts"

/** A notification to write: to whom, of what kind, about what. */
export interface Draft {
  readonly userId: string
  readonly kind: NotificationKind
  readonly spaceId: string
  readonly changeRequestId?: string | null | undefined
  readonly commentId?: string | null | undefined
  readonly replyId?: string | null | undefined
  readonly pageId?: string | null | undefined
}

/** Built once by each use-case layer that notifies. */
export const make = Effect.gen(function*() {
  const repo = yield* NotificationsRepo
  const access = yield* ContentAccess
  const ids = yield* Ids.Ids
  const delivery = yield* Effect.serviceOption(NotificationDelivery)

  /**
   * Writes the drafts: the first one for each recipient (so list a mention before a reply), none
   * to the actor. Run it inside the event's transaction.
   */
  const record = Effect.fnUntraced(function*(drafts: ReadonlyArray<Draft>) {
    const actor = yield* Actor.Actor
    const createdAt = new Date(yield* Clock.currentTimeMillis)
    const seen = new Set<string>([actor.userId])
    const notifications: Array<Notification> = []
    for (const draft of drafts) {
      if (seen.has(draft.userId)) continue
      seen.add(draft.userId)
      notifications.push({
        id: yield* ids.make,
        userId: draft.userId,
        kind: draft.kind,
        actorId: actor.userId,
        spaceId: draft.spaceId,
        changeRequestId: draft.changeRequestId ?? null,
        commentId: draft.commentId ?? null,
        replyId: draft.replyId ?? null,
        pageId: draft.pageId ?? null,
        createdAt,
        readAt: null
      })
    }
    yield* repo.insert(notifications)
    if (Option.isSome(delivery) && notifications.length > 0) yield* delivery.value.deliver(notifications)
  })

  /**
   * The users `markdown` mentions who are members of the space's organization and may view the
   * space, leaving out those `before` (an earlier body) already mentioned. Read before the write's
   * transaction.
   */
  const mentioned = Effect.fnUntraced(function*(space: Space, markdown: string, before?: string) {
    const earlier = before === undefined ? [] : mentionsOf(before)
    const users: Array<string> = []
    // A body names at most 50 people: more are not looked up.
    for (const userId of mentionsOf(markdown).slice(0, 50)) {
      if (earlier.includes(userId)) continue
      const resolver = yield* access.inOrganization(space.organizationId, userId)
      if (Option.isNone(resolver.organizationRole)) continue
      if ((yield* resolver.ofSpace(space)).permissions.view) users.push(userId)
    }
    return users
  })

  return { record, mentioned }
})

export type Notify = Effect.Success<typeof make>
