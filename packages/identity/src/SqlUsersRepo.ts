/** Postgres adapter of UsersRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Errors, Rows } from "@quire/kernel"
import type { ApiToken } from "./domain/Identity.ts"
import { userColumns, userOf, UserRow } from "./SqlRows.ts"
import { UsersRepo } from "./UsersRepo.ts"

const users = Rows.decoder("identity_users", UserRow, userOf)

const TokenRow = Schema.Struct({
  id: Schema.String,
  user_id: Schema.String,
  label: Schema.NullOr(Schema.String),
  created_at: Rows.Timestamp
})
const tokens = Rows.decoder("identity_api_tokens", TokenRow, (row): ApiToken => ({
  id: row.id,
  userId: row.user_id,
  label: row.label,
  createdAt: row.created_at
}))

export const layer = Layer.effect(
  UsersRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(userColumns)

    return UsersRepo.of({
      insert: (user) =>
        sql<Record<string, unknown>>`
          INSERT INTO identity_users (id, email, display_name, photo_url, instance_admin, created_at)
          VALUES (${user.id}, ${user.email}, ${user.displayName}, ${user.photoURL}, ${user.instanceAdmin}, ${user.createdAt})
          ON CONFLICT ((lower(email))) DO NOTHING
          RETURNING id`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) =>
            rows.length === 1
              ? Effect.void
              : Effect.fail(new Errors.Conflict({ reason: `A user with email ${user.email} already exists` }))
          )
        ),
      findById: (id) =>
        sql<Record<string, unknown>>`SELECT ${columns} FROM identity_users u WHERE u.id = ${id}`.pipe(
          Effect.orDie,
          Effect.flatMap(users.first)
        ),
      findByEmail: (email) =>
        sql<Record<string, unknown>>`SELECT ${columns} FROM identity_users u WHERE lower(u.email) = lower(${email})`.pipe(
          Effect.orDie,
          Effect.flatMap(users.first)
        ),
      update: (id, patch) => {
        const sets = [
          ...(patch.displayName === undefined ? [] : [sql`display_name = ${patch.displayName}`]),
          ...(patch.photoURL === undefined ? [] : [sql`photo_url = ${patch.photoURL}`]),
          ...(patch.instanceAdmin === undefined ? [] : [sql`instance_admin = ${patch.instanceAdmin}`])
        ]
        const set = sets.length === 0 ? sql`id = id` : sql.csv(sets)
        return sql<Record<string, unknown>>`
          UPDATE identity_users u SET ${set} WHERE u.id = ${id} RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(users.first)
        )
      },
      insertToken: (token, hash) =>
        sql`
          INSERT INTO identity_api_tokens (id, user_id, label, token_hash, created_at)
          VALUES (${token.id}, ${token.userId}, ${token.label}, ${hash}, ${token.createdAt})`.pipe(Effect.orDie, Effect.asVoid),
      findTokenByHash: (hash) =>
        sql<Record<string, unknown>>`SELECT id, user_id, label, created_at FROM identity_api_tokens WHERE token_hash = ${hash}`.pipe(
          Effect.orDie,
          Effect.flatMap(tokens.first)
        ),
      findUserByTokenHash: (hash) =>
        sql<Record<string, unknown>>`
          SELECT ${columns} FROM identity_api_tokens t JOIN identity_users u ON u.id = t.user_id
          WHERE t.token_hash = ${hash}`.pipe(
          Effect.orDie,
          Effect.flatMap(users.first)
        )
    })
  })
)
