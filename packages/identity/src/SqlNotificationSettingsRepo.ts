/** Postgres adapter of NotificationSettingsRepo: `identity_notification_settings`, one row per user who chose. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { inOrder, NotificationSettingsRepo } from "./NotificationSettingsRepo.ts"

export const layer = Layer.effect(
  NotificationSettingsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return NotificationSettingsRepo.of({
      emailOptOuts: (userId) =>
        sql<{ readonly email_off: string }>`
          SELECT email_off FROM identity_notification_settings WHERE user_id = ${userId}`.pipe(
          Effect.orDie,
          // Stored as the kinds joined by commas; a kind no longer known is dropped.
          Effect.map((rows) => inOrder((rows[0]?.email_off ?? "").split(",")))
        ),
      setEmailOptOuts: (userId, kinds) => {
        const stored = inOrder(kinds).join(",")
        return sql`
          INSERT INTO identity_notification_settings (user_id, email_off)
          SELECT id, ${stored} FROM identity_users WHERE id = ${userId}
          ON CONFLICT (user_id) DO UPDATE SET email_off = EXCLUDED.email_off`.pipe(Effect.orDie, Effect.asVoid)
      }
    })
  })
)
