/** Postgres adapter of SamlProvidersRepo. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination } from "@quire/kernel"
import type { SamlProvider } from "./domain/Saml.ts"
import { samlProviderKey, SamlProvidersRepo } from "./SamlProvidersRepo.ts"
import { toDate, toRole } from "./SqlRows.ts"

type Row = Record<string, unknown>

const text = (value: unknown): string | null => (value == null ? null : String(value))

const toProvider = (row: Row): SamlProvider => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  label: String(row.label),
  entityID: text(row.entity_id),
  ssoURL: text(row.sso_url),
  certificate: text(row.certificate),
  defaultTeamId: text(row.default_team_id),
  defaultRole: toRole(row.default_role),
  createdAt: toDate(row.created_at)
})

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
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toProvider))
        ),
      list: (organizationId, after, limit) => {
        const range = after === undefined
          ? sql`true`
          : sql`(created_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
        return sql<Row>`
          SELECT * FROM identity_saml_providers WHERE organization_id = ${organizationId} AND ${range}
          ORDER BY created_at, id LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Pagination.pageFromRows(rows.map(toProvider), limit, samlProviderKey))
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
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toProvider))
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
