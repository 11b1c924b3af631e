/**
 * An installation upgraded to migration 0016 (issue 34, finding 4): the SAML SP key an older Quire
 * stored in clear is sealed under the instance secret at the first start, and is still the same
 * key; the OIDC sign-ins pending at the upgrade (state and PKCE verifier in clear) are dropped.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { generateKeyPairSync } from "node:crypto"
import { Migrations, SqlTransactor } from "@quire/db"
import { migrations as auditMigrations } from "@quire/audit"
import { Ids, InstanceSecret, Sealed } from "@quire/kernel"
import { Backends } from "@quire/testkit"
import { IdentityLayers, MembershipDependents, migrations, SamlSignIn, VisitorClaims } from "../src/index.ts"
import * as SamlSpKey from "../src/SamlSpKey.ts"

/** The identity migrations before the SSO keys were sealed. */
const before = {
  table: migrations.table,
  migrations: Object.fromEntries(Object.entries(migrations.migrations).filter(([name]) => name < "0016"))
}

const instanceSecret = Option.some(Redacted.make("sso-keys-upgrade-instance-secret-0123456789abcdef"))

for (const database of Backends.databases) {
  layer(database.layer, { timeout: "60 seconds" })(`${database.name}: SSO keys stored before migration 0016`, (it) => {
    it.effect("the SP key is sealed at start and is the same key; pending OIDC sign-ins are dropped", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* Migrations.run(before)
        const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
        yield* sql`INSERT INTO identity_saml_sp_key (id, private_key) VALUES (1, ${pem})`
        yield* sql`INSERT INTO identity_organizations (id, title, created_at) VALUES ('old-org', 'Old', now())`
        yield* sql`
          INSERT INTO identity_oidc_providers (id, organization_id, label, discovery_url, client_id, client_secret, scopes, created_at)
          VALUES ('old-oidc', 'old-org', 'Old', 'https://idp.old.test', 'client', 'sealed', '[]', now())`
        yield* sql`
          INSERT INTO identity_oidc_requests (state, organization_id, provider_id, code_verifier, nonce, relay_state, expires_at)
          VALUES ('old-state-0123456789', 'old-org', 'old-oidc', 'old-verifier-0123456789', 'nonce', '/', now() + interval '5 minutes')`
        yield* Migrations.run(auditMigrations, migrations)
        assert.deepStrictEqual(yield* sql`SELECT * FROM identity_oidc_requests`, [])

        const services = IdentityLayers.layerServices.pipe(
          Layer.provide(IdentityLayers.layerReposSql),
          Layer.provide([SqlTransactor.layer, Ids.Ids.layer, MembershipDependents.layerNone, VisitorClaims.layerTest]),
          Layer.provide(Layer.succeed(InstanceSecret.StoredSecret, instanceSecret))
        )
        // Starting the services seals the key.
        yield* Effect.gen(function*() {
          yield* SamlSignIn
        }).pipe(Effect.provide(services), Effect.provideService(InstanceSecret.StoredSecret, instanceSecret))

        const rows = yield* sql<{ readonly private_key: string }>`SELECT private_key FROM identity_saml_sp_key`
        assert.strictEqual(rows.length, 1)
        assert.notInclude(rows[0]!.private_key, "PRIVATE KEY")
        const key = Sealed.deriveKey(Redacted.value(Option.getOrThrow(instanceSecret)), "quire/sealed", SamlSpKey.purpose)
        assert.deepStrictEqual(Sealed.open(key, rows[0]!.private_key), Option.some(pem))
      }))
  })
}
