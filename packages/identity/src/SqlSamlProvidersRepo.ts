/** Postgres adapter of SamlProvidersRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Roles, Rows } from "@quire/kernel"
import type { SamlProvider } from "./domain/Saml.ts"
import { samlProviderKey, SamlProvidersRepo } from "./SamlProvidersRepo.ts"

type Row = Record<string, unknown>

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
    return SamlProvidersRepo.of({
      insert: (p) =>
        sql`
          INSERT INTO identity_saml_providers
            (id, organization_id, label, entity_id, sso_url, certificate, default_team_id, default_role, created_at)
          VALUES (${p.id}, ${p.organizationId}, ${p.label}, ${p.entityID}, ${p.ssoURL}, ${p.certificate},
            ${p.defaultTeamId}, ${p.defaultRole}, ${p.createdAt})`.pipe(Effect.orDie, Effect.asVoid),
      find: (organizationId, providerId) =>
        sql<Row>`SELECT * FROM identity_saml_providers WHERE organization_id = ${organizationId} AND id = ${providerId}`.pipe(
          Effect.orDie,
          Effect.flatMap(providers.first)
        ),
      list: (organizationId, after, limit) => {
        const range = after === undefined
          ? sql`true`
          : sql`(created_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
        return sql<Row>`
          SELECT * FROM identity_saml_providers WHERE organization_id = ${organizationId} AND ${range}
          ORDER BY created_at, id LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(providers.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, samlProviderKey))
        )
      },
      update: (organizationId, providerId, patch) => {
        const sets = [
          ...(patch.label === undefined ? [] : [sql`label = ${patch.label}`]),
          ...(patch.entityID === undefined ? [] : [sql`entity_id = ${patch.entityID}`]),
          ...(patch.ssoURL === undefined ? [] : [sql`sso_url = ${patch.ssoURL}`]),
          ...(patch.certificate === undefined ? [] : [sql`certificate = ${patch.certificate}`]),
          ...(patch.defaultTeamId === undefined ? [] : [sql`default_team_id = ${patch.defaultTeamId}`]),
          ...(patch.defaultRole === undefined ? [] : [sql`default_role = ${patch.defaultRole}`])
        ]
        const set = sets.length === 0 ? sql`id = id` : sql.csv(sets)
        return sql<Row>`
          UPDATE identity_saml_providers SET ${set}
          WHERE organization_id = ${organizationId} AND id = ${providerId} RETURNING *`.pipe(
          Effect.orDie,
          Effect.flatMap(providers.first)
        )
      },
      remove: (organizationId, providerId) =>
        sql`DELETE FROM identity_saml_providers WHERE organization_id = ${organizationId} AND id = ${providerId}`.pipe(
          Effect.orDie,
          Effect.asVoid
        )
    })
  })
)
