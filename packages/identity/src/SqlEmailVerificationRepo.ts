/** Postgres adapter of EmailVerificationRepo: `identity_users.email_verified_at` and `identity_email_verifications`. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { EmailVerificationRepo } from "./EmailVerificationRepo.ts"

const links = Rows.decoder(
  "identity_email_verifications",
  Schema.Struct({ user_id: Schema.String, email: Schema.String, expires_at: Rows.Timestamp }),
  (row) => ({ userId: row.user_id, email: row.email, expiresAt: row.expires_at })
)

export const layer = Layer.effect(
  EmailVerificationRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return EmailVerificationRepo.of({
      isVerified: (userId) =>
        sql<{ readonly verified: boolean }>`
          SELECT email_verified_at IS NOT NULL AS verified FROM identity_users WHERE id = ${userId}`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0]?.verified === true)
        ),
      markVerified: (userId, email, at) =>
        sql`UPDATE identity_users SET email_verified_at = ${at} WHERE id = ${userId} AND lower(email) = lower(${email})`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      insertLink: (hash, row) =>
        sql`
          INSERT INTO identity_email_verifications (token_hash, user_id, email, expires_at)
          VALUES (${hash}, ${row.userId}, ${row.email}, ${row.expiresAt})`.pipe(Effect.orDie, Effect.asVoid),
      takeLink: (hash) =>
        sql<Record<string, unknown>>`
          DELETE FROM identity_email_verifications WHERE token_hash = ${hash} RETURNING user_id, email, expires_at`.pipe(
          Effect.orDie,
          Effect.flatMap(links.first)
        ),
      purgeLinks: (now) =>
        sql<{ readonly token_hash: string }>`
          DELETE FROM identity_email_verifications WHERE expires_at <= ${now} RETURNING token_hash`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length)
        )
    })
  })
)
