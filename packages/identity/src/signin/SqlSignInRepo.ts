/** Postgres adapter of SignInRepo. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { type AttemptCount, type SessionRow, SignInRepo } from "./SignInRepo.ts"

const sessions = Rows.decoder(
  "identity_sessions",
  Schema.Struct({
    id: Schema.String,
    user_id: Schema.String,
    organization_id: Schema.NullOr(Schema.String),
    method: Schema.Literals(["password", "saml", "oidc"]),
    created_at: Rows.Timestamp,
    last_seen_at: Rows.Timestamp,
    expires_at: Rows.Timestamp,
    user_agent: Schema.NullOr(Schema.String),
    revoked_at: Rows.TimestampOrNull
  }),
  (row): SessionRow => ({
    id: row.id,
    userId: row.user_id,
    organizationId: row.organization_id,
    method: row.method,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    userAgent: row.user_agent,
    revokedAt: row.revoked_at
  })
)

const date = (value: unknown) => new Date(value as string | Date)

const countOf = (row: { readonly count: number | string; readonly reset_at: unknown } | undefined, now: Date): AttemptCount =>
  row === undefined ? { count: 0, resetAt: now } : { count: Number(row.count), resetAt: date(row.reset_at) }

export const layer = Layer.effect(
  SignInRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SignInRepo.of({
      findPassword: (userId) =>
        sql<{ readonly hash: string }>`SELECT hash FROM identity_passwords WHERE user_id = ${userId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (row) => row.hash)),
          Effect.orDie
        ),
      setPassword: (userId, hash, at) =>
        sql`
          INSERT INTO identity_passwords (user_id, hash, updated_at) VALUES (${userId}, ${hash}, ${at})
          ON CONFLICT (user_id) DO UPDATE SET hash = EXCLUDED.hash, updated_at = EXCLUDED.updated_at`.pipe(Effect.asVoid, Effect.orDie),
      adminHasPassword: sql`
        SELECT 1 FROM identity_passwords p JOIN identity_users u ON u.id = p.user_id WHERE u.instance_admin LIMIT 1`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
      insertSession: (row) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM identity_sessions WHERE user_id = ${row.userId} AND expires_at <= ${row.createdAt}`
          yield* sql`
            INSERT INTO identity_sessions (id, user_id, organization_id, method, created_at, last_seen_at, expires_at, user_agent, revoked_at)
            VALUES (${row.id}, ${row.userId}, ${row.organizationId}, ${row.method}, ${row.createdAt}, ${row.lastSeenAt},
              ${row.expiresAt}, ${row.userAgent}, ${row.revokedAt})`
        }).pipe(Effect.orDie),
      findSession: (id) =>
        sql`SELECT * FROM identity_sessions WHERE id = ${id}`.pipe(
          Effect.flatMap(sessions.first),
          Effect.orDie
        ),
      touchSession: (id, at, notBefore) =>
        sql`UPDATE identity_sessions SET last_seen_at = ${at} WHERE id = ${id} AND last_seen_at < ${notBefore}`.pipe(Effect.asVoid, Effect.orDie),
      listSessions: (userId, now) =>
        sql`
          SELECT * FROM identity_sessions WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${now}
          ORDER BY created_at DESC, id DESC`.pipe(Effect.flatMap(sessions.all), Effect.orDie),
      revokeSession: (userId, id, at) =>
        sql`
          UPDATE identity_sessions SET revoked_at = ${at}
          WHERE id = ${id} AND user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${at} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      revokeOtherSessions: (userId, except, at) =>
        sql`
          UPDATE identity_sessions SET revoked_at = ${at}
          WHERE user_id = ${userId} AND id <> ${except ?? ""} AND revoked_at IS NULL AND expires_at > ${at} RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),
      countAttempts: (key, now) =>
        sql<{ readonly count: number; readonly reset_at: unknown }>`
          SELECT count, reset_at FROM identity_sign_in_attempts WHERE key = ${key} AND reset_at > ${now}`.pipe(
          Effect.map((rows) => countOf(rows[0], now)),
          Effect.orDie
        ),
      addAttempt: (key, now, windowMs) =>
        sql<{ readonly count: number; readonly reset_at: unknown }>`
          INSERT INTO identity_sign_in_attempts (key, count, reset_at) VALUES (${key}, 1, ${new Date(now.getTime() + windowMs)})
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN identity_sign_in_attempts.reset_at <= ${now} THEN 1 ELSE identity_sign_in_attempts.count + 1 END,
            reset_at = CASE WHEN identity_sign_in_attempts.reset_at <= ${now} THEN EXCLUDED.reset_at ELSE identity_sign_in_attempts.reset_at END
          RETURNING count, reset_at`.pipe(Effect.map((rows) => countOf(rows[0], now)), Effect.orDie),
      clearAttempts: (key) => sql`DELETE FROM identity_sign_in_attempts WHERE key = ${key}`.pipe(Effect.asVoid, Effect.orDie),
      purge: (now, revokedBefore) =>
        Effect.gen(function*() {
          const purged = yield* sql`
            DELETE FROM identity_sessions WHERE expires_at <= ${now} OR revoked_at < ${revokedBefore} RETURNING id`
          yield* sql`DELETE FROM identity_sign_in_attempts WHERE reset_at <= ${now}`
          return purged.length
        }).pipe(Effect.orDie)
    })
  })
)
