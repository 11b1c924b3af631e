/**
 * Requests as GitBook's API documents them, through the real router on every backend: the forms
 * GitBook accepts are accepted, the values it refuses are refused with a 400 naming the field.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { acceptInvite, adminToken, memoryAndPostgres, baseUrl, client, errorCode, errorMessage, newUser, organizationWith, raw } from "./Harness.ts"

/** The part of GitBook's client used here (its published typings do not resolve under NodeNext). */
interface GitBookClient {
  readonly orgs: {
    inviteUsersToOrganization(
      organizationId: string,
      body: { emails: Array<string | { email: string; role: string | null }>; role?: string }
    ): Promise<{ data: { invited?: number } }>
    createOrganizationTeam(organizationId: string, body: { title: string; members?: Array<string> }): Promise<{ data: { id: string; members: number } }>
  }
  readonly emailDomains: {
    getOrganizationsForEmailDomain(domain: string): Promise<{ data: { organizations: Array<{ id: string; permissions: { view: boolean } }> } }>
  }
}

let counter = 0
/** A user with the given email domain and a token of their own. */
const userIn = Effect.fnUntraced(function*(name: string, domain: string) {
  const admin = yield* client(adminToken)
  const email = `${name.toLowerCase()}.${++counter}.${Date.now()}@${domain}`
  const user = yield* admin.users.createUser({ payload: { email, displayName: name } })
  const token = yield* admin.users.createUserToken({ params: { userId: user.id }, payload: { label: "test" } })
  return { user, token: token.token, email, api: yield* client(token.token) }
})

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`GitBook compatibility on ${backend.name}`, (it) => {
    it.effect("invites by GitBook's {email, role} form, each role overriding the request's", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const bob = yield* newUser("Bob")
        const carol = yield* newUser("Carol")
        const invited = yield* raw("POST", `/v1/orgs/${organizationId}/invites`, {
          token: alice.token,
          body: JSON.stringify({ emails: [{ email: bob.email, role: "edit" }, carol.email, { email: "later@example.com", role: null }], role: "read" })
        })
        assert.strictEqual(invited.status, 200, JSON.stringify(invited.body))
        assert.strictEqual((invited.body as { invited: number }).invited, 3)
        // Each accepts the offer (issue 18: invitations no longer add an existing user at once).
        yield* acceptInvite(bob.api, organizationId)
        yield* acceptInvite(carol.api, organizationId)
        const roles = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: {} })
        const roleOf = (userId: string) => roles.items.find((m) => m.user.id === userId)?.role
        assert.strictEqual(roleOf(bob.user.id), "edit")
        assert.strictEqual(roleOf(carol.user.id), "read")

        const dave = yield* newUser("Dave")
        yield* alice.api.organizations.inviteUsersToOrganization({
          params: { organizationId },
          payload: { emails: [{ email: dave.email, role: "review" }] }
        })
        yield* acceptInvite(dave.api, organizationId)
        const daveMember = yield* alice.api.members.getMemberInOrganizationById({ params: { organizationId, userId: dave.user.id } })
        assert.strictEqual(daveMember.role, "review")
      }))

    it.effect("GitBook's own client invites with {email, role}, creates a team of its members, looks up a domain", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const bob = yield* newUser("Bob")
        const endpoint = yield* baseUrl
        const gitbook = new GitBookAPI({ endpoint, authToken: alice.token }) as unknown as GitBookClient
        yield* Effect.promise(() =>
          gitbook.orgs.inviteUsersToOrganization(organizationId, { emails: [{ email: bob.email, role: "review" }], role: "read" }))
        yield* acceptInvite(bob.api, organizationId)
        const result = yield* Effect.promise(async () => {
          const { data: team } = await gitbook.orgs.createOrganizationTeam(organizationId, { title: "Reviewers", members: [bob.user.id] })
          const { data: domain } = await gitbook.emailDomains.getOrganizationsForEmailDomain("example.com")
          return { team, domain }
        })
        const member = yield* alice.api.members.getMemberInOrganizationById({ params: { organizationId, userId: bob.user.id } })
        assert.strictEqual(member.role, "review")
        assert.strictEqual(result.team.members, 1)
        assert.deepStrictEqual(result.domain.organizations.map((o) => o.id), [])
      }))

    it.effect("refuses an invitation object without a role or with a bad email, naming the item", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const erin = yield* newUser("Erin")
        for (const item of [{ email: erin.email }, { email: "not-an-email", role: "read" }, { email: erin.email, role: "owner" }]) {
          const refused = yield* raw("POST", `/v1/orgs/${organizationId}/invites`, {
            token: alice.token,
            body: JSON.stringify({ emails: [item] })
          })
          assert.strictEqual(refused.status, 400, JSON.stringify(item))
          assert.include(errorMessage(refused.body), "emails[0]")
        }
        const members = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: {} })
        assert.notInclude(members.items.map((m) => m.user.id), erin.user.id)
      }))

    it.effect("refuses a hostname that is not one, and keeps the one set before", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const set = yield* alice.api.organizations.updateOrganizationById({
          params: { organizationId },
          payload: { hostname: "docs.acme.com" }
        })
        assert.strictEqual(set.hostname, "docs.acme.com")
        const label = yield* alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { hostname: "acme" } })
        assert.strictEqual(label.hostname, "acme")
        for (const hostname of ["Not A Valid Host!", "../../", "ACME.example.com", "-acme", "a.b", "x".repeat(33)]) {
          const refused = yield* raw("PATCH", `/v1/orgs/${organizationId}`, {
            token: alice.token,
            body: JSON.stringify({ hostname })
          })
          assert.strictEqual(refused.status, 400, hostname)
          assert.include(errorMessage(refused.body), "hostname")
        }
        const after = yield* alice.api.organizations.getOrganizationById({ params: { organizationId } })
        assert.strictEqual(after.hostname, "acme")
      }))

    it.effect("refuses email domains that are not domain names, on creation and update", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        for (const domain of ["..", "-", "acme", "acme..com", "-acme.com", "acme.com.", "ac me.com"]) {
          const updated = yield* raw("PATCH", `/v1/orgs/${organizationId}`, {
            token: alice.token,
            body: JSON.stringify({ emailDomains: ["acme.com", domain] })
          })
          assert.strictEqual(updated.status, 400, domain)
          assert.include(errorMessage(updated.body), "emailDomains[1]")
          const created = yield* raw("POST", "/v1/orgs", { token: alice.token, body: JSON.stringify({ title: "Other", emailDomains: [domain] }) })
          assert.strictEqual(created.status, 400, domain)
        }
        const after = yield* alice.api.organizations.getOrganizationById({ params: { organizationId } })
        assert.deepStrictEqual(after.emailDomains, [])
        const fine = yield* alice.api.organizations.updateOrganizationById({
          params: { organizationId },
          payload: { emailDomains: ["Mail.Acme-Corp.co.uk"] }
        })
        assert.deepStrictEqual(fine.emailDomains, ["mail.acme-corp.co.uk"])
      }))

    it.effect("takes only http(s) URLs for a logo, a photo and an SSO endpoint", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const bad = ["javascript:alert(1)", "ftp://files.example.com/logo.png", "file:///etc/passwd", "https://", "/relative/logo.png"]
        for (const url of bad) {
          const logo = yield* raw("PATCH", `/v1/orgs/${organizationId}`, { token: alice.token, body: JSON.stringify({ logo: url }) })
          assert.strictEqual(logo.status, 400, url)
          assert.include(errorMessage(logo.body), "logo")
          const photo = yield* raw("PATCH", `/v1/users/${alice.user.id}`, { token: alice.token, body: JSON.stringify({ photoURL: url }) })
          assert.strictEqual(photo.status, 400, url)
          assert.include(errorMessage(photo.body), "photoURL")
          const sso = yield* raw("POST", `/v1/orgs/${organizationId}/saml`, {
            token: alice.token,
            body: JSON.stringify({ label: "Okta", ssoURL: url })
          })
          assert.strictEqual(sso.status, 400, url)
          assert.include(errorMessage(sso.body), "ssoURL")
        }
        const good = yield* alice.api.organizations.updateOrganizationById({
          params: { organizationId },
          payload: { logo: "https://cdn.example.com/logo.png" }
        })
        assert.strictEqual(good.urls.logo, "https://cdn.example.com/logo.png")
        const providers = yield* alice.api.sso.listSAMLProvidersInOrganizationById({ params: { organizationId }, query: {} })
        assert.strictEqual(providers.count, 0)
      }))

    it.effect("creates a team of exactly the members given", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const bob = members.edit!
        const writers = yield* alice.api.teams.createOrganizationTeam({
          params: { organizationId },
          payload: { title: "Writers", members: [bob.user.id] }
        })
        assert.strictEqual(writers.members, 1)
        const aliceTeams = yield* alice.api.members.listTeamsForOrganizationMember({
          params: { organizationId, userId: alice.user.id },
          query: {}
        })
        assert.strictEqual(aliceTeams.count, 0)
        const bobTeams = yield* alice.api.members.listTeamsForOrganizationMember({ params: { organizationId, userId: bob.user.id }, query: {} })
        assert.deepStrictEqual(bobTeams.items.map((t) => t.team.id), [writers.id])
        const empty = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Empty" } })
        assert.strictEqual(empty.members, 0)
        const withAlice = yield* alice.api.teams.createOrganizationTeam({
          params: { organizationId },
          payload: { title: "Both", members: [alice.user.id, bob.user.id] }
        })
        assert.strictEqual(withAlice.members, 2)
      }))

    it.effect("lists a domain's organizations only to people of that domain and to members, with their real permissions", () =>
      Effect.gen(function*() {
        const domain = `acme${++counter}${Date.now()}.test`
        const { alice, members, organizationId } = yield* organizationWith(["read"])
        // Its merge rules name its reviewers: someone of the domain outside it does not learn of them.
        const rules = { type: "rules" as const, rules: [{ rule: "require_specific_reviewers" as const, users: [members.read!.user.id] }] }
        yield* alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { emailDomains: [domain], mergeRules: rules } })

        const colleague = yield* userIn("Dora", domain)
        const seen = yield* colleague.api.organizations.getOrganizationsForEmailDomain({ params: { emailDomain: domain } })
        assert.deepStrictEqual(seen.organizations.map((o) => o.id), [organizationId])
        assert.isFalse(seen.organizations[0]!.permissions.view)
        assert.isFalse(seen.organizations[0]!.permissions.admin)
        assert.isFalse(seen.organizations[0]!.permissions.listMembers)
        assert.deepStrictEqual(seen.organizations[0]!.mergeRules, { type: "none" })

        const stranger = yield* newUser("Olivia")
        const hidden = yield* stranger.api.organizations.getOrganizationsForEmailDomain({ params: { emailDomain: domain } })
        assert.deepStrictEqual(hidden.organizations, [])

        const reader = yield* members.read!.api.organizations.getOrganizationsForEmailDomain({ params: { emailDomain: domain } })
        assert.deepStrictEqual(reader.organizations.map((o) => o.id), [organizationId])
        assert.isTrue(reader.organizations[0]!.permissions.view)
        assert.deepStrictEqual(reader.organizations[0]!.mergeRules, rules)
        assert.isFalse(reader.organizations[0]!.permissions.admin)
        const admin = yield* alice.api.organizations.getOrganizationsForEmailDomain({ params: { emailDomain: domain.toUpperCase() } })
        assert.isTrue(admin.organizations[0]!.permissions.admin)

        const refused = yield* raw("GET", `/v1/email-domains/${encodeURIComponent("not a domain")}/orgs`, { token: stranger.token })
        assert.strictEqual(errorCode(refused.body), 400)
      }))
  })
}
