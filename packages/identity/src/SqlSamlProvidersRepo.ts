/** Postgres adapter of SamlProvidersRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Roles, Rows } from "@quire/kernel"
import type { SamlProvider, SamlProviderPatch } from "./domain/Saml.ts"
import { sqlProviders } from "./ProviderTables.ts"
import { SamlProvidersRepo } from "./SamlProvidersRepo.ts"

const ProviderRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  label: Schema.String,
  entity_id: Schema.NullOr(Schema.String),
  sso_url: Schema.NullOr(Schema.String),
  certificate: Schema.NullOr(Schema.String),
  default_team_id: Schema.NullOr(Schema.String),
  default_role: Roles.MemberRoleOrGuest,
  created_at: Rows.Timestamp
})
const providers = Rows.decoder("identity_saml_providers", ProviderRow, (row): SamlProvider => ({
  id: row.id,
  organizationId: row.organization_id,
  label: row.label,
  entityID: row.entity_id,
  ssoURL: row.sso_url,
  certificate: row.certificate,
  defaultTeamId: row.default_team_id,
  defaultRole: row.default_role,
  createdAt: row.created_at
}))

export const layer = Layer.effect(
  SamlProvidersRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SamlProvidersRepo.of(sqlProviders<SamlProvider, SamlProviderPatch>(sql, "identity_saml_providers", [
      { column: "label", field: "label" },
      { column: "entity_id", field: "entityID" },
      { column: "sso_url", field: "ssoURL" },
      { column: "certificate", field: "certificate" },
      { column: "default_team_id", field: "defaultTeamId" },
      { column: "default_role", field: "defaultRole" }
    ], providers))
  })
)
