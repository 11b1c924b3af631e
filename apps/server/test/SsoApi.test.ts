/** SAML providers through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { backends, errorCode, inviteAndAccept, newUser, publicUrl } from "./Harness.ts"

const certificate = readFileSync(new URL("./fixtures/idp-certificate.pem", import.meta.url), "utf8")
for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`SSO API on ${backend.name}`, (it) => {
    it.effect("configures a SAML provider that becomes active once complete", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
        const organizationId = org.id
        const team = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Staff" } })
        const pending = yield* alice.api.sso.createOrganizationSAMLProvider({
          params: { organizationId },
          payload: { label: "Okta", defaultRole: "read", defaultTeam: team.id }
        })
        assert.strictEqual(pending.status, "pending")
        assert.strictEqual(pending.defaultTeam?.id, team.id)
        assert.strictEqual(pending.service.acsURL, `${publicUrl}/sso/saml/${organizationId}/${pending.id}/acs`)
        const none = yield* alice.api.sso.listSSOProviderLoginsInOrganization({ params: { organizationId } })
        assert.strictEqual(none.items.length, 0)
        const active = yield* alice.api.sso.updateOrganizationSAMLProvider({
          params: { organizationId, samlProviderId: pending.id },
          payload: { ssoURL: "https://idp.example.com/sso", entityID: "https://idp.example.com", certificate }
        })
        assert.strictEqual(active.status, "active")
        assert.strictEqual(active.label, "Okta")
        const logins = yield* alice.api.sso.listSSOProviderLoginsInOrganization({ params: { organizationId } })
        assert.deepStrictEqual(logins.items.map((l) => [l.id, l.label, l.startURL]), [
          [pending.id, "Okta", active.service.startURL]
        ])
        const listed = yield* alice.api.sso.listSAMLProvidersInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(listed.items.map((p) => p.id), [pending.id])
        yield* alice.api.sso.deleteOrganizationSAMLProvider({ params: { organizationId, samlProviderId: pending.id } })
        yield* alice.api.sso.deleteOrganizationSAMLProvider({ params: { organizationId, samlProviderId: pending.id } })
        const gone = yield* alice.api.sso.getOrganizationSAMLProviderById({ params: { organizationId, samlProviderId: pending.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(gone), 404)
      }))

    it.effect("rejects a bad certificate or an unknown team, and non-admins", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const bob = yield* newUser("Bob")
        const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
        const organizationId = org.id
        yield* inviteAndAccept(alice.api, organizationId, bob, "create")
        const badCertificate = yield* alice.api.sso.createOrganizationSAMLProvider({
          params: { organizationId },
          payload: { label: "Okta", certificate: "-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----" }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(badCertificate), 400)
        const badTeam = yield* alice.api.sso.createOrganizationSAMLProvider({
          params: { organizationId },
          payload: { label: "Okta", defaultTeam: "nosuchteam" }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(badTeam), 400)
        const denied = yield* bob.api.sso.createOrganizationSAMLProvider({ params: { organizationId }, payload: { label: "Mine" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(denied), 403)
        const listDenied = yield* bob.api.sso.listSAMLProvidersInOrganizationById({ params: { organizationId }, query: {} })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(listDenied), 403)
      }))
  })
}
