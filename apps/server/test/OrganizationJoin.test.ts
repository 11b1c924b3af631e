/**
 * Joining an organization by email domain (GitBook's `joinOrganization`) through the real router,
 * GitBook's own client and the typed client: a person whose verified email is in one of the
 * organization's domains joins with its default role; anyone else learns nothing of it; a member
 * stays as they are; the setting is an admin's.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { adminToken, baseUrl, client, errorCode, memoryAndPostgres, newUser, organizationWith, raw } from "./Harness.ts"

interface GitBookJoin {
  readonly orgs: { joinOrganization(organizationId: string): Promise<{ status: number }> }
}

let counter = 0
/** A user whose email (vouched for by the administrator who creates them) is in `domain`. */
const userIn = Effect.fnUntraced(function*(name: string, domain: string) {
  const admin = yield* client(adminToken)
  const email = `${name.toLowerCase()}.${++counter}.${Date.now()}@${domain}`
  const user = yield* admin.users.createUser({ payload: { email, displayName: name } })
  const token = yield* admin.users.createUserToken({ params: { userId: user.id }, payload: { label: "test" } })
  return { user, token: token.token, email, api: yield* client(token.token) }
})

/** An organization claiming a fresh domain, its default role `edit`; a reader member. */
const setup = Effect.fnUntraced(function*() {
  const domain = `join${++counter}${Date.now()}.test`
  const org = yield* organizationWith(["read"])
  yield* org.alice.api.organizations.updateOrganizationById({
    params: { organizationId: org.organizationId },
    payload: { emailDomains: [domain], defaultRole: "edit" }
  })
  return { ...org, domain }
})

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`joining by email domain on ${backend.name}`, (it) => {
    it.effect("GitBook's client: a person of the domain joins with the default role, once", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const dora = yield* userIn("Dora", s.domain.toUpperCase())
        // Before: the organization is offered to her (not a member yet).
        const offered = yield* dora.api.organizations.getOrganizationsForEmailDomain({ params: { emailDomain: s.domain } })
        assert.deepStrictEqual(offered.organizations.map((o) => o.id), [s.organizationId])
        assert.isFalse(offered.organizations[0]!.permissions.view)

        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: dora.token }) as unknown as GitBookJoin
        const joined = yield* Effect.promise(() => gitbook.orgs.joinOrganization(s.organizationId))
        assert.strictEqual(joined.status, 204)

        const members = yield* s.alice.api.members.listMembersInOrganizationById({ params: { organizationId: s.organizationId }, query: {} })
        const member = members.items.find((m) => m.user.id === dora.user.id)
        assert.strictEqual(member?.role, "edit")
        const seen = yield* dora.api.organizations.getOrganizationById({ params: { organizationId: s.organizationId } })
        assert.strictEqual(seen.id, s.organizationId)

        // Again: nothing changes (an admin may have changed her role meanwhile).
        yield* s.alice.api.members.updateMemberInOrganizationById({ params: { organizationId: s.organizationId, userId: dora.user.id }, payload: { role: "read" } })
        yield* dora.api.organizations.joinOrganization({ params: { organizationId: s.organizationId } })
        const after = yield* s.alice.api.members.listMembersInOrganizationById({ params: { organizationId: s.organizationId }, query: {} })
        assert.strictEqual(after.items.find((m) => m.user.id === dora.user.id)?.role, "read")

        // The join is in the audit log.
        const events = yield* s.alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId: s.organizationId }, query: {} })
        assert.isTrue(events.items.some((e) => e.action === "member.joined" && e.target?.id === dora.user.id))
      }))

    it.effect("someone of another domain, or an unknown organization, gets 404; only admins set the domains, a 400 naming the field", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const stranger = yield* newUser("Olivia")
        const refused = yield* raw("POST", `/v1/orgs/${s.organizationId}/join`, { token: stranger.token })
        assert.strictEqual(refused.status, 404)
        assert.notInclude(JSON.stringify(refused.body), "Acme")
        const unknown = yield* raw("POST", "/v1/orgs/nosuchorganization/join", { token: stranger.token })
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(errorCode(unknown.body), 404)
        const members = yield* s.alice.api.members.listMembersInOrganizationById({ params: { organizationId: s.organizationId }, query: {} })
        assert.isFalse(members.items.some((m) => m.user.id === stranger.user.id))

        // No token: 401.
        const anonymous = yield* raw("POST", `/v1/orgs/${s.organizationId}/join`)
        assert.strictEqual(anonymous.status, 401)

        // A reader cannot change the domains; an admin's bad domain is a 400 naming the field.
        const byReader = yield* raw("PATCH", `/v1/orgs/${s.organizationId}`, { token: s.members.read!.token, body: JSON.stringify({ emailDomains: ["evil.test"] }) })
        assert.strictEqual(byReader.status, 403)
        const bad = yield* raw("PATCH", `/v1/orgs/${s.organizationId}`, { token: s.alice.token, body: JSON.stringify({ emailDomains: 5 }) })
        assert.strictEqual(bad.status, 400)
        assert.include(JSON.stringify(bad.body), "emailDomains")

        // Once the domain is removed, its people can no longer join.
        yield* s.alice.api.organizations.updateOrganizationById({ params: { organizationId: s.organizationId }, payload: { emailDomains: [] } })
        const late = yield* userIn("Lena", s.domain)
        const closed = yield* raw("POST", `/v1/orgs/${s.organizationId}/join`, { token: late.token })
        assert.strictEqual(closed.status, 404)

        // A member of the organization joining again is left as they are.
        const again = yield* raw("POST", `/v1/orgs/${s.organizationId}/join`, { token: s.members.read!.token })
        assert.strictEqual(again.status, 204)
      }))
  })
}
