/**
 * A person's notification settings: which kinds of notification also reach them by email. Every
 * kind does until they turn it off; in-app notifications are not affected.
 */
import { Context, Effect, Layer } from "effect"
import { Actor, NotificationKinds } from "@quire/kernel"
import { NotificationSettingsRepo } from "./NotificationSettingsRepo.ts"

/** For each kind, whether it is emailed. */
export type EmailChoices = { readonly [K in NotificationKinds.NotificationKind]: boolean }

export interface NotificationSettingsView {
  readonly email: EmailChoices
}

export interface NotificationSettingsShape {
  /** The caller's settings. */
  readonly mine: Effect.Effect<NotificationSettingsView, never, Actor.Actor>
  /** Changes the kinds `email` names (others stay); answers the caller's settings. */
  readonly update: (email: Partial<EmailChoices>) => Effect.Effect<NotificationSettingsView, never, Actor.Actor>
  /** Whether notifications of `kind` reach `userId` by email (for the job that sends them). */
  readonly emails: (userId: string, kind: NotificationKinds.NotificationKind) => Effect.Effect<boolean>
}

const viewOf = (optOuts: ReadonlyArray<NotificationKinds.NotificationKind>): NotificationSettingsView => ({
  email: Object.fromEntries(NotificationKinds.notificationKinds.map((kind) => [kind, !optOuts.includes(kind)])) as EmailChoices
})

export class NotificationSettings extends Context.Service<NotificationSettings, NotificationSettingsShape>()(
  "@quire/identity/NotificationSettings"
) {
  static readonly layer = Layer.effect(
    NotificationSettings,
    Effect.gen(function*() {
      const repo = yield* NotificationSettingsRepo
      const caller = Effect.map(Effect.service(Actor.Actor), (actor) => actor.userId)

      const mine = Effect.map(Effect.flatMap(caller, repo.emailOptOuts), viewOf)

      const update = Effect.fn("NotificationSettings.update")(function*(email: Partial<EmailChoices>) {
        const userId = yield* caller
        const current = viewOf(yield* repo.emailOptOuts(userId)).email
        const next = { ...current, ...email }
        yield* repo.setEmailOptOuts(userId, NotificationKinds.notificationKinds.filter((kind) => !next[kind]))
        return viewOf(yield* repo.emailOptOuts(userId))
      })

      const emails = (userId: string, kind: NotificationKinds.NotificationKind) =>
        Effect.map(repo.emailOptOuts(userId), (optOuts) => !optOuts.includes(kind))

      return NotificationSettings.of({ mine, update, emails })
    })
  )
}
