/** Postgres adapter of UsersRepo. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Errors, Rows } from "@quire/kernel"
import type { ApiToken } from "./domain/Identity.ts"
import { userColumns, UserFields, userOf, UserRow } from "./SqlRows.ts"
import { revokedChannel, UsersRepo } from "./UsersRepo.ts"

const users = Rows.decoder("identity_users", UserRow, userOf)

const TokenFields = {
  token_id: Schema.String,
  token_user_id: Schema.String,
  token_label: Schema.NullOr(Schema.String),
  token_created_at: Rows.Timestamp,
  token_last_used_at: Schema.NullOr(Rows.Timestamp),
  token_expires_at: Schema.NullOr(Rows.Timestamp),
  token_bootstrap: Schema.Boolean,
  token_organization_id: Schema.NullOr(Schema.String),
  token_from_session: Schema.Boolean
}
const tokenOf = (row: Schema.Struct.Type<typeof TokenFields>): ApiToken => ({
  id: row.token_id,
  userId: row.token_user_id,
  label: row.token_label,
  createdAt: row.token_created_at,
  lastUsedAt: row.token_last_used_at,
  expiresAt: row.token_expires_at,
  bootstrap: row.token_bootstrap,
  organizationId: row.token_organization_id,
  fromSession: row.token_from_session
})
const tokenColumns = `t.id AS token_id, t.user_id AS token_user_id, t.label AS token_label,
  t.created_at AS token_created_at, t.last_used_at AS token_last_used_at,
  t.expires_at AS token_expires_at, t.bootstrap AS token_bootstrap, t.organization_id AS token_organization_id,
  t.from_session AS token_from_session`
const tokens = Rows.decoder("identity_api_tokens", Schema.Struct(TokenFields), tokenOf)
const owners = Rows.decoder(
  "identity_api_tokens",
  Schema.Struct({ ...TokenFields, ...UserFields }),
  (row) => ({ token: tokenOf(row), user: userOf(row) })
)
const hashes = Rows.decoder("identity_api_tokens", Schema.Struct({ token_hash: Schema.String }))

export const layer = Layer.effect(
  UsersRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(userColumns)
    const tokenCols = sql.literal(tokenColumns)

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
          // A new email is unproven: its proof was of the old one.
          ...(patch.email === undefined
            ? []
            : [sql`email = ${patch.email}`, sql`email_verified_at = CASE WHEN lower(u.email) = lower(${patch.email}) THEN u.email_verified_at END`]),
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
      findBootstrapAdmin: sql<Record<string, unknown>>`
        SELECT ${columns} FROM identity_api_tokens t JOIN identity_users u ON u.id = t.user_id
        WHERE t.bootstrap AND u.instance_admin ORDER BY t.created_at, t.id LIMIT 1`.pipe(
        Effect.orDie,
        Effect.flatMap(users.first)
      ),
      findFirstInstanceAdmin: sql<Record<string, unknown>>`
        SELECT ${columns} FROM identity_users u WHERE u.instance_admin ORDER BY u.created_at, u.id LIMIT 1`.pipe(
        Effect.orDie,
        Effect.flatMap(users.first)
      ),
      listInstanceAdmins: sql<Record<string, unknown>>`
        SELECT ${columns} FROM identity_users u WHERE u.instance_admin ORDER BY u.created_at, u.id FOR UPDATE`.pipe(
        Effect.orDie,
        Effect.flatMap(users.all)
      ),
      insertToken: (token, hash) =>
        sql`
          INSERT INTO identity_api_tokens (id, user_id, label, token_hash, created_at, last_used_at, expires_at, bootstrap, organization_id, from_session)
          VALUES (${token.id}, ${token.userId}, ${token.label}, ${hash}, ${token.createdAt}, ${token.lastUsedAt},
            ${token.expiresAt}, ${token.bootstrap}, ${token.organizationId}, ${token.fromSession})
          ON CONFLICT (token_hash) DO NOTHING`.pipe(Effect.orDie, Effect.asVoid),
      findTokenByHash: (hash) =>
        sql<Record<string, unknown>>`SELECT ${tokenCols} FROM identity_api_tokens t WHERE t.token_hash = ${hash}`.pipe(
          Effect.orDie,
          Effect.flatMap(tokens.first)
        ),
      findTokenOwner: (hash) =>
        sql<Record<string, unknown>>`
          SELECT ${tokenCols}, ${columns} FROM identity_api_tokens t JOIN identity_users u ON u.id = t.user_id
          WHERE t.token_hash = ${hash}`.pipe(
          Effect.orDie,
          Effect.flatMap(owners.first)
        ),
      listTokens: (userId) =>
        sql<Record<string, unknown>>`
          SELECT ${tokenCols} FROM identity_api_tokens t WHERE t.user_id = ${userId} ORDER BY t.created_at, t.id`.pipe(
          Effect.orDie,
          Effect.flatMap(tokens.all)
        ),
      // pg_notify is transactional: listeners hear of the deletion when it commits, never before.
      deleteToken: (userId, tokenId) =>
        sql<Record<string, unknown>>`
          WITH deleted AS (
            DELETE FROM identity_api_tokens WHERE id = ${tokenId} AND user_id = ${userId} RETURNING token_hash
          )
          SELECT token_hash, pg_notify(${revokedChannel}, token_hash) FROM deleted`.pipe(
          Effect.orDie,
          Effect.flatMap(hashes.first),
          Effect.map(Option.map((row) => row.token_hash))
        ),
      deleteBootstrapTokens: (userId, keep) =>
        sql<Record<string, unknown>>`
          WITH deleted AS (
            DELETE FROM identity_api_tokens WHERE user_id = ${userId} AND bootstrap AND token_hash <> ${keep}
            RETURNING token_hash
          )
          SELECT token_hash, pg_notify(${revokedChannel}, token_hash) FROM deleted`.pipe(
          Effect.orDie,
          Effect.flatMap(hashes.all),
          Effect.map((rows) => rows.map((row) => row.token_hash))
        ),
      deleteSessionTokens: (userId) =>
        sql<Record<string, unknown>>`
          WITH deleted AS (
            DELETE FROM identity_api_tokens WHERE user_id = ${userId} AND from_session RETURNING token_hash
          )
          SELECT token_hash, pg_notify(${revokedChannel}, token_hash) FROM deleted`.pipe(
          Effect.orDie,
          Effect.flatMap(hashes.all),
          Effect.map((rows) => rows.map((row) => row.token_hash))
        ),
      touchToken: (hash, at, notBefore) =>
        sql`
          UPDATE identity_api_tokens SET last_used_at = ${at}
          WHERE token_hash = ${hash} AND (last_used_at IS NULL OR last_used_at < ${notBefore})`.pipe(
          Effect.orDie,
          Effect.asVoid
        )
    })
  })
)
