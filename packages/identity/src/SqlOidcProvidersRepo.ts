/** Postgres adapter of OidcProvidersRepo. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Roles, Rows } from "@quire/kernel"
import type { OidcProvider, OidcRequest } from "./domain/Oidc.ts"
import { oidcProviderKey, OidcProvidersRepo } from "./OidcProvidersRepo.ts"

type Row = Record<string, unknown>

const ProviderRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  label: Schema.String,
  discovery_url: Schema.String,
  client_id: Schema.String,
  client_secret: Schema.String,
  scopes: Schema.Array(Schema.String),
  default_team_id: Schema.NullOr(Schema.String),
  default_role: Roles.MemberRoleOrGuest,
  created_at: Rows.Timestamp
})
const providers = Rows.decoder("identity_oidc_providers", ProviderRow, (row): OidcProvider => ({
  id: row.id,
  organizationId: row.organization_id,
  label: row.label,
  discoveryURL: row.discovery_url,
  clientId: row.client_id,
  clientSecret: row.client_secret,
  scopes: row.scopes,
  defaultTeamId: row.default_team_id,
  defaultRole: row.default_role,
  createdAt: row.created_at
}))

const RequestRow = Schema.Struct({
  state: Schema.String,
  organization_id: Schema.String,
  provider_id: Schema.String,
  code_verifier: Schema.String,
  nonce: Schema.String,
  relay_state: Schema.String,
  expires_at: Rows.Timestamp
})
const requests = Rows.decoder("identity_oidc_requests", RequestRow, (row): OidcRequest => ({
  state: row.state,
  organizationId: row.organization_id,
  providerId: row.provider_id,
  codeVerifier: row.code_verifier,
  nonce: row.nonce,
  relayState: row.relay_state,
  expiresAt: row.expires_at
}))

export const layer = Layer.effect(
  OidcProvidersRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return OidcProvidersRepo.of({
      insert: (p) =>
        sql`
          INSERT INTO identity_oidc_providers
            (id, organization_id, label, discovery_url, client_id, client_secret, scopes, default_team_id, default_role, created_at)
          VALUES (${p.id}, ${p.organizationId}, ${p.label}, ${p.discoveryURL}, ${p.clientId}, ${p.clientSecret},
            ${JSON.stringify(p.scopes)}::jsonb, ${p.defaultTeamId}, ${p.defaultRole}, ${p.createdAt})`.pipe(Effect.orDie, Effect.asVoid),
      find: (organizationId, providerId) =>
        sql<Row>`SELECT * FROM identity_oidc_providers WHERE organization_id = ${organizationId} AND id = ${providerId}`.pipe(
          Effect.orDie,
          Effect.flatMap(providers.first)
        ),
      list: (organizationId, after, limit) => {
        const range = after === undefined
          ? sql`true`
          : sql`(created_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
        return sql<Row>`
          SELECT * FROM identity_oidc_providers WHERE organization_id = ${organizationId} AND ${range}
          ORDER BY created_at, id LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(providers.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, oidcProviderKey))
        )
      },
      update: (organizationId, providerId, patch) => {
        const sets = [
          ...(patch.label === undefined ? [] : [sql`label = ${patch.label}`]),
          ...(patch.discoveryURL === undefined ? [] : [sql`discovery_url = ${patch.discoveryURL}`]),
          ...(patch.clientId === undefined ? [] : [sql`client_id = ${patch.clientId}`]),
          ...(patch.clientSecret === undefined ? [] : [sql`client_secret = ${patch.clientSecret}`]),
          ...(patch.scopes === undefined ? [] : [sql`scopes = ${JSON.stringify(patch.scopes)}::jsonb`]),
          ...(patch.defaultTeamId === undefined ? [] : [sql`default_team_id = ${patch.defaultTeamId}`]),
          ...(patch.defaultRole === undefined ? [] : [sql`default_role = ${patch.defaultRole}`])
        ]
        const set = sets.length === 0 ? sql`id = id` : sql.csv(sets)
        return sql<Row>`
          UPDATE identity_oidc_providers SET ${set}
          WHERE organization_id = ${organizationId} AND id = ${providerId} RETURNING *`.pipe(
          Effect.orDie,
          Effect.flatMap(providers.first)
        )
      },
      remove: (organizationId, providerId) =>
        sql`DELETE FROM identity_oidc_providers WHERE organization_id = ${organizationId} AND id = ${providerId}`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      saveRequest: (r, now) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM identity_oidc_requests WHERE expires_at <= ${now}`
          yield* sql`
            INSERT INTO identity_oidc_requests (state, organization_id, provider_id, code_verifier, nonce, relay_state, expires_at)
            VALUES (${r.state}, ${r.organizationId}, ${r.providerId}, ${r.codeVerifier}, ${r.nonce}, ${r.relayState}, ${r.expiresAt})`
        }).pipe(Effect.orDie),
      takeRequest: (state, now) =>
        sql<Row>`DELETE FROM identity_oidc_requests WHERE state = ${state} RETURNING *`.pipe(
          Effect.orDie,
          Effect.flatMap(requests.first),
          Effect.map(Option.filter((request) => request.expiresAt > now))
        )
    })
  })
)
