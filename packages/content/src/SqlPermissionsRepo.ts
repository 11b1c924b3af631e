/** Postgres adapter of PermissionsRepo (`content_permissions`). */
import { Array as Arr, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Roles, Rows } from "@quire/kernel"
import { type Grant, grantKey, PermissionsRepo, PrincipalKind, TargetKind } from "./PermissionsRepo.ts"

const GrantRow = Schema.Struct({
  organization_id: Schema.String,
  target_kind: TargetKind,
  target_id: Schema.String,
  principal_kind: PrincipalKind,
  principal_id: Schema.String,
  role: Roles.MemberRole,
  created_at: Rows.Timestamp
})

const grants = Rows.decoder("content_permissions", GrantRow, (row): Grant => ({
  organizationId: row.organization_id,
  target: { kind: row.target_kind, id: row.target_id },
  principal: { kind: row.principal_kind, id: row.principal_id },
  role: row.role,
  createdAt: row.created_at
}))

const CountRow = Schema.Struct({ principal_id: Schema.String, spaces: Schema.Number })
const counts = Rows.decoder("content_permissions", CountRow)

export const layer = Layer.effect(
  PermissionsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql`
      SELECT organization_id, target_kind, target_id, principal_kind, principal_id, role, created_at
      FROM content_permissions`

    return PermissionsRepo.of({
      put: (organizationId, target, principals, role, at) => {
        const rows = principals.map((p) => ({
          organization_id: organizationId,
          target_kind: target.kind,
          target_id: target.id,
          principal_kind: p.kind,
          principal_id: p.id,
          role,
          created_at: at
        }))
        if (!Arr.isArrayNonEmpty(rows)) return Effect.void
        return sql`
          INSERT INTO content_permissions ${sql.insert(rows)}
          ON CONFLICT (target_kind, target_id, principal_kind, principal_id) DO UPDATE SET role = EXCLUDED.role`.pipe(
          Effect.orDie,
          Effect.asVoid
        )
      },
      remove: (target, principal) =>
        sql`
          DELETE FROM content_permissions
          WHERE target_kind = ${target.kind} AND target_id = ${target.id}
            AND principal_kind = ${principal.kind} AND principal_id = ${principal.id}
          RETURNING principal_id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      list: (target, kind, after, limit) => {
        const where = sql.and([
          sql`target_kind = ${target.kind} AND target_id = ${target.id} AND principal_kind = ${kind}`,
          ...(after === undefined ? [] : [sql`(created_at, principal_id) > (${String(after[0])}::timestamptz, ${String(after[1])})`])
        ])
        return sql`
          ${select}
          WHERE ${where}
          ORDER BY created_at, principal_id
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(grants.all),
          Effect.flatMap((rows) => Pagination.pageFromRows(rows, limit, grantKey))
        )
      },
      onTargets: (targets) =>
        targets.length === 0 ? Effect.succeed([]) : sql`
          ${select}
          WHERE ${sql.or(targets.map((t) => sql`(target_kind = ${t.kind} AND target_id = ${t.id})`))}`.pipe(
          Effect.orDie,
          Effect.flatMap(grants.all)
        ),
      ofPrincipals: (organizationId, principals) =>
        principals.length === 0 ? Effect.succeed([]) : sql`
          ${select}
          WHERE organization_id = ${organizationId}
            AND ${sql.or(principals.map((p) => sql`(principal_kind = ${p.kind} AND principal_id = ${p.id})`))}`.pipe(
          Effect.orDie,
          Effect.flatMap(grants.all)
        ),
      removeTarget: (target) =>
        sql`DELETE FROM content_permissions WHERE target_kind = ${target.kind} AND target_id = ${target.id}`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      removePrincipal: (organizationId, principal) =>
        sql`
          DELETE FROM content_permissions
          WHERE organization_id = ${organizationId} AND principal_kind = ${principal.kind} AND principal_id = ${principal.id}`
          .pipe(Effect.orDie, Effect.asVoid),
      countSpaces: (organizationId, kind, ids) =>
        ids.length === 0 ? Effect.succeed(new Map()) : sql`
          SELECT principal_id, count(*)::int AS spaces FROM content_permissions
          WHERE organization_id = ${organizationId} AND target_kind = 'space' AND principal_kind = ${kind}
            AND principal_id IN ${sql.in(ids)}
          GROUP BY principal_id`.pipe(
          Effect.orDie,
          Effect.flatMap(counts.all),
          Effect.map((rows) => new Map(rows.map((r) => [r.principal_id, r.spaces])))
        )
    })
  })
)
