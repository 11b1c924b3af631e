/** Port: which kinds of notification each person chose not to receive by email (none: all of them reach them). */
import { Context, Effect, Layer } from "effect"
import { NotificationKinds } from "@quire/kernel"
import { IdentityMemory } from "./IdentityMemory.ts"

export interface NotificationSettingsRepoShape {
  /** The kinds the user turned off for email, in the kernel's order; empty when they never chose. */
  readonly emailOptOuts: (userId: string) => Effect.Effect<ReadonlyArray<NotificationKinds.NotificationKind>>
  /** Replaces the user's email opt-outs with `kinds`. */
  readonly setEmailOptOuts: (userId: string, kinds: ReadonlyArray<NotificationKinds.NotificationKind>) => Effect.Effect<void>
}

/** The kinds in the kernel's order, each once. */
export const inOrder = (kinds: Iterable<string>): ReadonlyArray<NotificationKinds.NotificationKind> => {
  const chosen = new Set(kinds)
  return NotificationKinds.notificationKinds.filter((kind) => chosen.has(kind))
}

export class NotificationSettingsRepo extends Context.Service<NotificationSettingsRepo, NotificationSettingsRepoShape>()(
  "@quire/identity/NotificationSettingsRepo"
) {
  static readonly layerMemory = Layer.effect(
    NotificationSettingsRepo,
    Effect.gen(function*() {
      const store = yield* IdentityMemory
      return NotificationSettingsRepo.of({
        emailOptOuts: (userId) => Effect.sync(() => store.emailOptOuts.get(userId) ?? []),
        setEmailOptOuts: (userId, kinds) =>
          Effect.sync(() => {
            // As the table's foreign key: a user who is gone keeps no settings.
            if (store.users.has(userId)) store.emailOptOuts.set(userId, inOrder(kinds))
          })
      })
    })
  )
}
