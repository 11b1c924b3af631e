/** Postgres adapter of OidcProvidersRepo. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Roles, Rows } from "@quire/kernel"
import type { OidcProvider, OidcProviderPatch, OidcRequest } from "./domain/Oidc.ts"
import { OidcProvidersRepo } from "./OidcProvidersRepo.ts"
import { sqlProviders } from "./ProviderTables.ts"

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
  state_hash: Schema.String,
  organization_id: Schema.String,
  provider_id: Schema.String,
  sealed_code_verifier: Schema.String,
  nonce: Schema.String,
  relay_state: Schema.String,
  expires_at: Rows.Timestamp
})
const requests = Rows.decoder("identity_oidc_requests", RequestRow, (row): OidcRequest => ({
  stateHash: row.state_hash,
  organizationId: row.organization_id,
  providerId: row.provider_id,
  sealedCodeVerifier: row.sealed_code_verifier,
  nonce: row.nonce,
  relayState: row.relay_state,
  expiresAt: row.expires_at
}))

export const layer = Layer.effect(
  OidcProvidersRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return OidcProvidersRepo.of({
      ...sqlProviders<OidcProvider, OidcProviderPatch>(sql, "identity_oidc_providers", [
        { column: "label", field: "label" },
        { column: "discovery_url", field: "discoveryURL" },
        { column: "client_id", field: "clientId" },
        { column: "client_secret", field: "clientSecret" },
        { column: "scopes", field: "scopes", write: (scopes: ReadonlyArray<string>) => JSON.stringify(scopes) },
        { column: "default_team_id", field: "defaultTeamId" },
        { column: "default_role", field: "defaultRole" }
      ], providers),
      saveRequest: (r, now) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM identity_oidc_requests WHERE expires_at <= ${now}`
          yield* sql`
            INSERT INTO identity_oidc_requests (state_hash, organization_id, provider_id, sealed_code_verifier, nonce, relay_state, expires_at)
            VALUES (${r.stateHash}, ${r.organizationId}, ${r.providerId}, ${r.sealedCodeVerifier}, ${r.nonce}, ${r.relayState}, ${r.expiresAt})`
        }).pipe(Effect.orDie),
      takeRequest: (stateHash, now) =>
        sql<Row>`DELETE FROM identity_oidc_requests WHERE state_hash = ${stateHash} RETURNING *`.pipe(
          Effect.orDie,
          Effect.flatMap(requests.first),
          Effect.map(Option.filter((request) => request.expiresAt > now))
        )
    })
  })
)
