/**
 * An installation upgraded to the token migration: its tokens keep working, and the bootstrap's
 * token of before (labelled "bootstrap") is rotated away when the configured token changes.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Migrations, SqlTransactor } from "@quire/db"
import { migrations as auditMigrations } from "@quire/audit"
import { Ids } from "@quire/kernel"
import { Backends } from "@quire/testkit"
import { IdentityLayers, migrations, Users } from "../src/index.ts"
import { hashSecret } from "../src/Tokens.ts"

/** The identity migrations before tokens had a lifecycle. */
const before = {
  table: migrations.table,
  migrations: Object.fromEntries(Object.entries(migrations.migrations).filter(([name]) => name < "0005"))
}

for (const database of Backends.databases) {
  const services = Users.layer.pipe(
    Layer.provide(IdentityLayers.layerReposSql),
    Layer.provide([SqlTransactor.layer, Ids.Ids.layer])
  )
  layer(Layer.merge(services, database.layer).pipe(Layer.provide(database.layer)), { timeout: "60 seconds" })(
    `${database.name}: tokens stored before the token migration`,
    (it) => {
      it.effect("keep working, and the old bootstrap token is revoked when the configured one changes", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* Migrations.run(before)
          yield* sql`
            INSERT INTO identity_users (id, email, display_name, instance_admin, created_at)
            VALUES ('old-admin', 'admin@old.test', 'Administrator', true, now())`
          yield* sql`
            INSERT INTO identity_api_tokens (id, user_id, label, token_hash, created_at) VALUES
              ('old-boot', 'old-admin', 'bootstrap', ${hashSecret("quire_old_bootstrap")}, now()),
              ('old-ci', 'old-admin', 'ci', ${hashSecret("quire_old_ci")}, now())`
          yield* Migrations.run(auditMigrations, migrations)

          const users = yield* Users
          assert.strictEqual(Option.getOrThrow(yield* users.authenticate("quire_old_bootstrap")).id, "old-admin")
          assert.strictEqual(Option.getOrThrow(yield* users.authenticate("quire_old_ci")).id, "old-admin")

          yield* users.bootstrapAdmin("admin@old.test", "quire_pat_new_configured_token")
          assert.isTrue(Option.isNone(yield* users.authenticate("quire_old_bootstrap")))
          assert.isTrue(Option.isSome(yield* users.authenticate("quire_pat_new_configured_token")))
          assert.isTrue(Option.isSome(yield* users.authenticate("quire_old_ci")))
        }))
    }
  )
}
