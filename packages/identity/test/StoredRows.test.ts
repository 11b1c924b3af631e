/** Rows the SQL adapters cannot decode (written around them, with raw SQL) are defects naming the table and field. */
import { assert, layer } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { migrations as auditMigrations } from "@quire/audit"
import { Backends } from "@quire/testkit"
import { IdentityLayers, migrations, OrganizationsRepo, UsersRepo } from "../src/index.ts"

const defectOf = <A, E>(exit: Exit.Exit<A, E>): string => {
  assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause), "expected a defect")
  return Exit.isFailure(exit) ? String(Cause.squash(exit.cause)) : ""
}

for (const database of Backends.databasesMigrated([auditMigrations, migrations])) {
  const repos = IdentityLayers.layerReposSql.pipe(Layer.provideMerge(database.layer))
  layer(repos, { timeout: "60 seconds" })(`${database.name}: stored identity rows`, (it) => {
    it.effect("a role outside the member roles is a defect naming identity_organizations and the column", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`
          INSERT INTO identity_users (id, email, display_name, instance_admin, created_at)
          VALUES ('bad-role-user', 'bad-role@example.test', 'Bad Role', false, now())`
        yield* sql`
          INSERT INTO identity_organizations (id, title, created_at, default_role)
          VALUES ('bad-role-org', 'Bad Role', now(), 'superuser')`
        yield* sql`
          INSERT INTO identity_members (organization_id, user_id, role, joined_at)
          VALUES ('bad-role-org', 'bad-role-user', 'admin', now())`
        const message = defectOf(yield* Effect.exit((yield* OrganizationsRepo).findAccess("bad-role-org", "bad-role-user")))
        assert.include(message, "identity_organizations")
        assert.include(message, "org_default_role")
      }))

    it.effect("a user row with a missing email is a defect, not the string \"null\"", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`ALTER TABLE identity_users ALTER COLUMN email DROP NOT NULL`
        yield* sql`
          INSERT INTO identity_users (id, email, display_name, instance_admin, created_at)
          VALUES ('no-email-user', NULL, 'No Email', false, now())`
        const message = defectOf(yield* Effect.exit((yield* UsersRepo).findById("no-email-user")))
        assert.include(message, "identity_users")
        assert.include(message, "user_email")
      }))
  })
}
