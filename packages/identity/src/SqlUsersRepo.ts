/** Postgres adapter of UsersRepo. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Errors } from "@quire/kernel"
import type { ApiToken } from "./domain/Identity.ts"
import { toDate, toUser, userColumns } from "./SqlRows.ts"
import { UsersRepo } from "./UsersRepo.ts"

export const layer = Layer.effect(
  UsersRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(userColumns)
    const one = <A>(rows: ReadonlyArray<Record<string, unknown>>, f: (row: Record<string, unknown>) => A) =>
      Option.map(Option.fromNullishOr(rows[0]), f)
    const toToken = (row: Record<string, unknown>): ApiToken => ({
      id: String(row.id),
      userId: String(row.user_id),
      label: row.label == null ? null : String(row.label),
      createdAt: toDate(row.created_at)
    })

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
          Effect.map((rows) => one(rows, toUser))
        ),
      findByEmail: (email) =>
        sql<Record<string, unknown>>`SELECT ${columns} FROM identity_users u WHERE lower(u.email) = lower(${email})`.pipe(
          Effect.orDie,
          Effect.map((rows) => one(rows, toUser))
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
          Effect.map((rows) => one(rows, toUser))
        )
      },
      insertToken: (token, hash) =>
        sql`
          INSERT INTO identity_api_tokens (id, user_id, label, token_hash, created_at)
          VALUES (${token.id}, ${token.userId}, ${token.label}, ${hash}, ${token.createdAt})`.pipe(Effect.orDie, Effect.asVoid),
      findTokenByHash: (hash) =>
        sql<Record<string, unknown>>`SELECT id, user_id, label, created_at FROM identity_api_tokens WHERE token_hash = ${hash}`.pipe(
          Effect.orDie,
          Effect.map((rows) => one(rows, toToken))
        ),
      findUserByTokenHash: (hash) =>
        sql<Record<string, unknown>>`
          SELECT ${columns} FROM identity_api_tokens t JOIN identity_users u ON u.id = t.user_id
          WHERE t.token_hash = ${hash}`.pipe(
          Effect.orDie,
          Effect.map((rows) => one(rows, toUser))
        )
    })
  })
)
