/** Postgres adapter of GitInstallationsRepo: `gitsync_installations`. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { type GitInstallation, GitProvider, InstallationSetup, InstallationTarget } from "./domain/GitInstallation.ts"
import { GitInstallationsRepo } from "./GitInstallationsRepo.ts"

const rows = Rows.decoder(
  "gitsync_installations",
  Schema.Struct({
    id: Schema.String,
    organization_id: Schema.String,
    provider: GitProvider,
    target: Rows.Json(InstallationTarget),
    credential_sealed: Schema.String,
    setup: Rows.Json(InstallationSetup),
    created_by: Schema.String,
    created_at: Rows.Timestamp,
    updated_at: Rows.Timestamp
  }),
  (row): GitInstallation => ({
    id: row.id,
    organizationId: row.organization_id,
    provider: row.provider,
    target: row.target,
    credentialSealed: row.credential_sealed,
    setup: row.setup,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })
)

const columns = "id, organization_id, provider, target, credential_sealed, setup, created_by, created_at, updated_at"

export const layer = Layer.effect(
  GitInstallationsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = (where: ReturnType<typeof sql.unsafe> | ReturnType<typeof sql>) => sql`SELECT ${sql.unsafe(columns)} FROM gitsync_installations WHERE ${where} ORDER BY created_at, id`
    return GitInstallationsRepo.of({
      find: (installationId) => select(sql`id = ${installationId}`).pipe(Effect.flatMap(rows.first), Effect.orDie),
      listForOrganization: (organizationId) => select(sql`organization_id = ${organizationId}`).pipe(Effect.flatMap(rows.all), Effect.orDie),
      listForSite: (siteId) => select(sql`site_id = ${siteId}`).pipe(Effect.flatMap(rows.all), Effect.orDie),
      save: (i) => {
        const siteId = i.target.type === "site" ? i.target.siteId : i.target.type === "space" ? i.target.siteId ?? null : null
        const target = JSON.stringify(i.target)
        const setup = JSON.stringify(i.setup)
        return sql`INSERT INTO gitsync_installations (${sql.unsafe(columns)}, site_id)
          VALUES (${i.id}, ${i.organizationId}, ${i.provider}, ${target}::jsonb, ${i.credentialSealed}, ${setup}::jsonb, ${i.createdBy}, ${i.createdAt}, ${i.updatedAt}, ${siteId})
          ON CONFLICT (id) DO UPDATE SET credential_sealed = EXCLUDED.credential_sealed, setup = EXCLUDED.setup, updated_at = EXCLUDED.updated_at`.pipe(Effect.orDie, Effect.asVoid)
      },
      remove: (installationId) => sql`DELETE FROM gitsync_installations WHERE id = ${installationId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
