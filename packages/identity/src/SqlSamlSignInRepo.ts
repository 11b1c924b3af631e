/** Postgres adapter of SamlSignInRepo. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { SamlSignInRepo } from "./SamlSignInRepo.ts"

export const layer = Layer.effect(
  SamlSignInRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SamlSignInRepo.of({
      saveRequest: (id, expiresAt) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM identity_saml_requests WHERE expires_at <= now()`
          yield* sql`
            INSERT INTO identity_saml_requests (id, expires_at) VALUES (${id}, ${expiresAt})
            ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at`
        }).pipe(Effect.orDie),
      findRequest: (id, now) =>
        sql<{ readonly expires_at: Date | string }>`SELECT expires_at FROM identity_saml_requests WHERE id = ${id} AND expires_at > ${now}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (row) => new Date(row.expires_at))),
          Effect.orDie
        ),
      removeRequest: (id) => sql`DELETE FROM identity_saml_requests WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      consumeOnce: (id, expiresAt, now) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM identity_saml_consumed WHERE expires_at <= ${now}`
          const rows = yield* sql`
            INSERT INTO identity_saml_consumed (id, expires_at) VALUES (${id}, ${expiresAt})
            ON CONFLICT (id) DO NOTHING RETURNING id`
          return rows.length > 0
        }).pipe(Effect.orDie),
      spKey: (candidate) =>
        Effect.gen(function*() {
          yield* sql`INSERT INTO identity_saml_sp_key (id, private_key) VALUES (1, ${candidate}) ON CONFLICT (id) DO NOTHING`
          const rows = yield* sql<{ readonly private_key: string }>`SELECT private_key FROM identity_saml_sp_key WHERE id = 1`
          return rows[0]?.private_key ?? candidate
        }).pipe(Effect.orDie),
      resealSpKey: (reseal) =>
        Effect.gen(function*() {
          // FOR UPDATE: of two processes starting together, the second sees the first's key.
          const rows = yield* sql<{ readonly private_key: string }>`SELECT private_key FROM identity_saml_sp_key WHERE id = 1 FOR UPDATE`
          const next = rows[0] === undefined ? Option.none() : reseal(rows[0].private_key)
          if (Option.isSome(next)) yield* sql`UPDATE identity_saml_sp_key SET private_key = ${next.value} WHERE id = 1`
          return Option.isSome(next)
        }).pipe(sql.withTransaction, Effect.orDie)
    })
  })
)
