/**
 * Issue 34, finding 4: the SAML SP key is kept sealed under the instance secret. A key an older
 * Quire stored in clear is sealed at start and still opens to the same PEM; a key sealed under
 * another instance secret is replaced by a new one. On memory, PostgreSQL and PGlite.
 */
import { assert } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { generateKeyPairSync } from "node:crypto"
import { InstanceSecret } from "@quire/kernel"
import { migrations as auditMigrations } from "@quire/audit"
import { Backends } from "@quire/testkit"
import { IdentityLayers, migrations } from "../src/index.ts"
import { SamlSignInRepo } from "../src/SamlSignInRepo.ts"
import * as SamlSpKey from "../src/SamlSpKey.ts"

const backends = Backends.ports({ memory: IdentityLayers.layerReposMemory, sql: IdentityLayers.layerReposSql, migrations: [auditMigrations, migrations] })

const underSecret = (secret: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provideService(effect, InstanceSecret.StoredSecret, Option.some(Redacted.make(secret)))

Backends.each(backends, (it) => {
  it.effect("seals an SP key stored in clear, opens it to the same PEM, and replaces one sealed under another secret", () =>
    Effect.gen(function*() {
      const repo = yield* SamlSignInRepo
      const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
      // As a Quire before issue 34 stored it.
      assert.strictEqual(yield* repo.spKey(pem), pem)

      const keys = yield* underSecret("saml-sp-key-secret-one-0123456789abcdef")(SamlSpKey.box)
      assert.isTrue(yield* SamlSpKey.sealLegacy(repo, keys))
      const sealed = yield* repo.spKey("unused")
      assert.notInclude(sealed, "PRIVATE KEY")
      assert.notInclude(sealed, pem.split("\n")[1]!)
      assert.deepStrictEqual(keys.open(sealed), Option.some(pem))
      assert.isFalse(yield* SamlSpKey.sealLegacy(repo, keys), "sealed once")
      assert.strictEqual(yield* SamlSpKey.load(repo, keys), pem)

      // Under another instance secret the stored key does not open: a new one replaces it, sealed.
      const other = yield* underSecret("saml-sp-key-secret-two-0123456789abcdef")(SamlSpKey.box)
      assert.isTrue(Option.isNone(other.open(sealed)))
      const fresh = yield* SamlSpKey.load(repo, other)
      assert.notStrictEqual(fresh, pem)
      assert.match(fresh, /^-----BEGIN PRIVATE KEY-----/)
      const stored = yield* repo.spKey("unused")
      assert.notInclude(stored, "PRIVATE KEY")
      assert.deepStrictEqual(other.open(stored), Option.some(fresh))
      assert.strictEqual(yield* SamlSpKey.load(repo, other), fresh, "kept from then on")
    }))
})
