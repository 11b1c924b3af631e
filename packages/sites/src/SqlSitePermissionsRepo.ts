/** Postgres adapter of SitePermissionsRepo (`sites_permissions`). */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Roles, Rows } from "@quire/kernel"
import { type SiteGrant, siteGrantKey, SitePermissionsRepo, SitePrincipalKind } from "./SitePermissionsRepo.ts"

const GrantRow = Schema.Struct({
  organization_id: Schema.String,
  site_id: Schema.String,
  principal_kind: SitePrincipalKind,
  principal_id: Schema.String,
  role: Roles.MemberRole,
  created_at: Rows.Timestamp
})

const grants = Rows.decoder("sites_permissions", GrantRow, (row): SiteGrant => ({
  organizationId: row.organization_id,
  siteId: row.site_id,
  principal: { kind: row.principal_kind, id: row.principal_id },
  role: row.role,
  createdAt: row.created_at
}))

export const layer = Layer.effect(
  SitePermissionsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql`SELECT organization_id, site_id, principal_kind, principal_id, role, created_at FROM sites_permissions`

    return SitePermissionsRepo.of({
      find: (siteId, principal) =>
        sql`
          ${select}
          WHERE site_id = ${siteId} AND principal_kind = ${principal.kind} AND principal_id = ${principal.id}`.pipe(
          Effect.orDie,
          Effect.flatMap(grants.all),
          Effect.map((rows) => Option.fromNullishOr(rows[0]))
        ),
      put: (organizationId, siteId, principal, role, at) =>
        sql`
          INSERT INTO sites_permissions ${
          sql.insert({
            organization_id: organizationId,
            site_id: siteId,
            principal_kind: principal.kind,
            principal_id: principal.id,
            role,
            created_at: at
          })
        }
          ON CONFLICT (site_id, principal_kind, principal_id) DO UPDATE SET role = EXCLUDED.role`.pipe(Effect.orDie, Effect.asVoid),
      remove: (siteId, principal) =>
        sql`
          DELETE FROM sites_permissions
          WHERE site_id = ${siteId} AND principal_kind = ${principal.kind} AND principal_id = ${principal.id}
          RETURNING principal_id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      list: (siteId, kind, after, limit) => {
        const where = sql.and([
          sql`site_id = ${siteId} AND principal_kind = ${kind}`,
          ...(after === undefined ? [] : [sql`(created_at, principal_id) > (${String(after[0])}::timestamptz, ${String(after[1])})`])
        ])
        return sql`
          ${select}
          WHERE ${where}
          ORDER BY created_at, principal_id
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(grants.all),
          Effect.flatMap((rows) => Pagination.pageFromRows(rows, limit, siteGrantKey))
        )
      },
      onSite: (siteId) => sql`${select} WHERE site_id = ${siteId}`.pipe(Effect.orDie, Effect.flatMap(grants.all)),
      ofPrincipals: (organizationId, principals) =>
        principals.length === 0 ? Effect.succeed([]) : sql`
          ${select}
          WHERE organization_id = ${organizationId}
            AND ${sql.or(principals.map((p) => sql`(principal_kind = ${p.kind} AND principal_id = ${p.id})`))}`.pipe(
          Effect.orDie,
          Effect.flatMap(grants.all)
        ),
      removeSite: (siteId) => sql`DELETE FROM sites_permissions WHERE site_id = ${siteId}`.pipe(Effect.orDie, Effect.asVoid),
      removePrincipal: (organizationId, principal) =>
        sql`
          DELETE FROM sites_permissions
          WHERE organization_id = ${organizationId} AND principal_kind = ${principal.kind} AND principal_id = ${principal.id}`
          .pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
