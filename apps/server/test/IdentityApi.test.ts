/** The identity operations through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminEmail, adminToken, memoryAndPostgres, client, acceptInvite, errorCode, inviteAndAccept, newUser, publicUrl, raw } from "./Harness.ts"

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`identity API on ${backend.name}`, (it) => {
    it.effect("answers /health without a token", () =>
      Effect.gen(function*() {
        const api = yield* client()
        const health = yield* api.health()
        assert.strictEqual(health.status, "ok")
      }))

    it.effect("refuses a missing or unknown token with a 401 envelope", () =>
      Effect.gen(function*() {
        const missing = yield* raw("GET", "/v1/user")
        assert.deepStrictEqual(missing.status, 401)
        assert.strictEqual((missing.body as { error: { code: number } }).error.code, 401)
        const unknown = yield* raw("GET", "/v1/user", { token: "quire_not_a_token" })
        assert.strictEqual(unknown.status, 401)
      }))

    it.effect("answers unknown routes, malformed JSON and schema violations with the error envelope", () =>
      Effect.gen(function*() {
        const notFound = yield* raw("GET", "/v1/nothing-here", { token: adminToken })
        assert.strictEqual(notFound.status, 404)
        assert.deepStrictEqual(notFound.body, { error: { code: 404, message: "No operation at GET /v1/nothing-here" } })
        const malformed = yield* raw("POST", "/v1/orgs", { token: adminToken, body: "{\"title\":" })
        assert.strictEqual(malformed.status, 400)
        assert.strictEqual((malformed.body as { error: { code: number } }).error.code, 400)
        const short = yield* raw("POST", "/v1/orgs", { token: adminToken, body: JSON.stringify({ title: "x" }) })
        assert.strictEqual(short.status, 400)
        assert.match((short.body as { error: { message: string } }).error.message, /title/)
        const tooMany = yield* raw("GET", "/v1/orgs?limit=1001", { token: adminToken })
        assert.strictEqual(tooMany.status, 400)
        assert.match((tooMany.body as { error: { message: string } }).error.message, /limit/)
        const badCursor = yield* raw("GET", "/v1/orgs?page=garbage", { token: adminToken })
        assert.strictEqual(badCursor.status, 400)
        assert.match((badCursor.body as { error: { message: string } }).error.message, /page/)
      }))

    it.effect("shows the authenticated user with absolute URLs", () =>
      Effect.gen(function*() {
        const api = yield* client(adminToken)
        const me = yield* api.users.getAuthenticatedUser()
        assert.strictEqual(me.object, "user")
        assert.strictEqual(me.email, adminEmail)
        assert.strictEqual(me.urls.location, `${publicUrl}/v1/users/${me.id}`)
        const same = yield* api.users.getUserById({ params: { userId: me.id } })
        assert.strictEqual(same.id, me.id)
      }))

    it.effect("lets only the instance administrator create users, once per email", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        assert.strictEqual(alice.user.displayName, "Alice")
        const me = yield* alice.api.users.getAuthenticatedUser()
        assert.strictEqual(me.id, alice.user.id)
        const denied = yield* alice.api.users.createUser({ payload: { email: "mallory@example.com", displayName: "M" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(denied), 403)
        const admin = yield* client(adminToken)
        const duplicate = yield* admin.users.createUser({ payload: { email: alice.email, displayName: "Again" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(duplicate), 409)
        const invalid = yield* raw("POST", "/v1/users", {
          token: adminToken,
          body: JSON.stringify({ email: "not-an-email", displayName: "X" })
        })
        assert.strictEqual(invalid.status, 400)
        assert.match((invalid.body as { error: { message: string } }).error.message, /email/)
      }))

    it.effect("issues tokens only to the user themselves or the administrator", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const bob = yield* newUser("Bob")
        const own = yield* alice.api.users.createUserToken({ params: { userId: alice.user.id }, payload: {} })
        assert.strictEqual(own.object, "api-token")
        const second = yield* client(own.token)
        assert.strictEqual((yield* second.users.getAuthenticatedUser()).id, alice.user.id)
        const theft = yield* alice.api.users.createUserToken({ params: { userId: bob.user.id }, payload: {} })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(theft), 403)
        const bobSeenByAlice = yield* alice.api.users.getUserById({ params: { userId: bob.user.id } })
        assert.isUndefined(bobSeenByAlice.email)
      }))

    it.effect("creates an organization whose creator is its admin, hidden from outsiders", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const outsider = yield* newUser("Olivia")
        const org = yield* alice.api.organizations.createOrganization({
          payload: { title: "Acme Docs", emailDomains: ["Acme.example"] }
        })
        assert.strictEqual(org.object, "organization")
        assert.strictEqual(org.title, "Acme Docs")
        assert.deepStrictEqual(org.emailDomains, ["acme.example"])
        assert.isTrue(org.permissions.admin)
        assert.strictEqual(org.urls.location, `${publicUrl}/v1/orgs/${org.id}`)
        const fetched = yield* alice.api.organizations.getOrganizationById({ params: { organizationId: org.id } })
        assert.strictEqual(fetched.id, org.id)
        const hidden = yield* outsider.api.organizations.getOrganizationById({ params: { organizationId: org.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(hidden), 404)
        const members = yield* outsider.api.members.listMembersInOrganizationById({
          params: { organizationId: org.id },
          query: {}
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(members), 404)
        const byDomain = yield* outsider.api.organizations.getOrganizationsForEmailDomain({
          params: { emailDomain: "acme.example" }
        })
        // Olivia's email is not in acme.example and she is no member: the claim is not hers to see.
        assert.deepStrictEqual(byDomain.organizations.map((o) => o.id), [])
      }))

    it.effect("updates settings for admins only, and rejects an unknown default site", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const reader = yield* newUser("Rita")
        const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
        yield* inviteAndAccept(alice.api, org.id, reader, "read")
        const updated = yield* alice.api.organizations.updateOrganizationById({
          params: { organizationId: org.id },
          payload: { title: "Acme Handbook", defaultRole: "comment", inviteLinks: true, hostname: "acme-docs" }
        })
        assert.strictEqual(updated.title, "Acme Handbook")
        assert.strictEqual(updated.defaultRole, "comment")
        assert.isTrue(updated.inviteLinks)
        assert.strictEqual(updated.hostname, "acme-docs")
        const again = yield* reader.api.organizations.getOrganizationById({ params: { organizationId: org.id } })
        assert.strictEqual(again.title, "Acme Handbook")
        assert.isFalse(again.permissions.admin)
        const denied = yield* reader.api.organizations.updateOrganizationById({
          params: { organizationId: org.id },
          payload: { title: "Hijacked" }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(denied), 403)
        const badSite = yield* alice.api.organizations.updateOrganizationById({
          params: { organizationId: org.id },
          payload: { defaultContent: { type: "site", site: "nosuchsite" } }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(badSite), 400)
      }))

    it.effect("pages through organizations with an opaque cursor", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const created: Array<string> = []
        for (const title of ["One", "Two", "Three"]) {
          created.push((yield* alice.api.organizations.createOrganization({ payload: { title } })).id)
        }
        const first = yield* alice.api.organizations.listOrganizationsForAuthenticatedUser({ query: { limit: 2 } })
        assert.strictEqual(first.count, 2)
        assert.isDefined(first.next)
        const second = yield* alice.api.organizations.listOrganizationsForAuthenticatedUser({
          query: { limit: 2, page: first.next!.page }
        })
        assert.strictEqual(second.count, 1)
        assert.isUndefined(second.next)
        assert.deepStrictEqual([...first.items, ...second.items].map((o) => o.id), created)
      }))

    // Issue 18: an invitation is an offer. It used to add an existing user at once and an account
    // created later at its creation; now each joins on accepting it, signed in as themselves.
    it.effect("invites existing users and others as offers that each accepts once signed in", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const bob = yield* newUser("Bob")
        const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
        const laterEmail = `later.${Date.now()}@example.com`
        const result = yield* alice.api.organizations.inviteUsersToOrganization({
          params: { organizationId: org.id },
          payload: { emails: [bob.email, laterEmail], role: "edit" }
        })
        // GitBook's `users`: those added; an organization admin's invitation adds nobody (issue 34).
        assert.deepStrictEqual(result.users, [])
        assert.strictEqual(result.invited, 2)
        const notYet = yield* bob.api.members.getMemberInOrganizationById({ params: { organizationId: org.id, userId: bob.user.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(notYet), 404)
        const pending = yield* alice.api.organizations.listOrganizationMemberInvites({ params: { organizationId: org.id } })
        assert.deepStrictEqual(pending.items.map((i) => [i.email, i.role]).toSorted(), [[bob.email, "edit"], [laterEmail, "edit"]].toSorted())
        const joined = yield* acceptInvite(bob.api, org.id)
        assert.strictEqual(joined.id, org.id)
        const bobMember = yield* bob.api.members.getMemberInOrganizationById({
          params: { organizationId: org.id, userId: bob.user.id }
        })
        assert.strictEqual(bobMember.role, "edit")
        const admin = yield* client(adminToken)
        const later = yield* admin.users.createUser({ payload: { email: laterEmail, displayName: "Later" } })
        const notMember = yield* alice.api.members.getMemberInOrganizationById({ params: { organizationId: org.id, userId: later.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(notMember), 404)
        const laterToken = yield* admin.users.createUserToken({ params: { userId: later.id }, payload: {} })
        yield* acceptInvite(yield* client(laterToken.token), org.id)
        const laterMember = yield* alice.api.members.getMemberInOrganizationById({
          params: { organizationId: org.id, userId: later.id }
        })
        assert.strictEqual(laterMember.role, "edit")
        assert.strictEqual((yield* alice.api.organizations.listOrganizationMemberInvites({ params: { organizationId: org.id } })).count, 0)
        const denied = yield* bob.api.organizations.inviteUsersToOrganization({
          params: { organizationId: org.id },
          payload: { emails: ["x@example.com"] }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(denied), 403)
      }))

    it.effect("manages invite links", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
        const invite = yield* alice.api.organizations.createOrganizationInvite({
          params: { organizationId: org.id },
          payload: { role: "read" }
        })
        const listed = yield* alice.api.organizations.listOrganizationInviteLinks({ params: { organizationId: org.id }, query: {} })
        assert.deepStrictEqual(listed.items.map((i) => i.id), [invite.id])
        yield* alice.api.organizations.deleteOrganizationInviteById({ params: { organizationId: org.id, inviteId: invite.id } })
        yield* alice.api.organizations.deleteOrganizationInviteById({ params: { organizationId: org.id, inviteId: invite.id } })
        const after = yield* alice.api.organizations.listOrganizationInviteLinks({ params: { organizationId: org.id }, query: {} })
        assert.strictEqual(after.count, 0)
      }))

    it.effect("lists members with role, search and sort filters, page by page", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const zed = yield* newUser("Zed")
        const bea = yield* newUser("Bea")
        const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
        const organizationId = org.id
        yield* inviteAndAccept(alice.api, organizationId, zed, "read")
        yield* inviteAndAccept(alice.api, organizationId, bea, null)
        const all = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: {} })
        assert.strictEqual(all.count, 3)
        assert.deepStrictEqual(all.items.map((m) => m.id), [bea.user.id, zed.user.id, alice.user.id])
        const byName = yield* alice.api.members.listMembersInOrganizationById({
          params: { organizationId },
          query: { sort: "name", order: "asc" }
        })
        assert.deepStrictEqual(byName.items.map((m) => m.user.displayName), ["Alice", "Bea", "Zed"])
        const readers = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: { role: "read" } })
        assert.deepStrictEqual(readers.items.map((m) => m.id), [zed.user.id])
        const guests = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: { role: "guest" } })
        assert.deepStrictEqual(guests.items.map((m) => m.id), [bea.user.id])
        const search = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: { search: "ZE" } })
        assert.deepStrictEqual(search.items.map((m) => m.id), [zed.user.id])
        const page1 = yield* alice.api.members.listMembersInOrganizationById({
          params: { organizationId },
          query: { sort: "name", order: "asc", limit: 2 }
        })
        const page2 = yield* alice.api.members.listMembersInOrganizationById({
          params: { organizationId },
          query: { sort: "name", order: "asc", limit: 2, page: page1.next!.page }
        })
        assert.deepStrictEqual([...page1.items, ...page2.items].map((m) => m.user.displayName), ["Alice", "Bea", "Zed"])
        const seenNone = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: { sort: "lastSeenAt" } })
        assert.strictEqual(seenNone.count, 0)
        const pinged = yield* zed.api.members.updateOrganizationMemberLastSeenAt({ params: { organizationId } })
        assert.isDefined(pinged.lastSeenAt)
        assert.strictEqual(pinged.serviceVisitorClaims.split(".").length, 3)
        const seen = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: { sort: "lastSeenAt" } })
        assert.deepStrictEqual(seen.items.map((m) => m.id), [zed.user.id])
        const guestDenied = yield* bea.api.members.listMembersInOrganizationById({ params: { organizationId }, query: {} })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(guestDenied), 403)
      }))

    it.effect("changes roles and removes members, always keeping an admin", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const bob = yield* newUser("Bob")
        const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
        const organizationId = org.id
        yield* inviteAndAccept(alice.api, organizationId, bob, "read")
        const promoted = yield* alice.api.members.updateMemberInOrganizationById({
          params: { organizationId, userId: bob.user.id },
          payload: { role: "create" }
        })
        assert.strictEqual(promoted.role, "create")
        const denied = yield* bob.api.members.updateMemberInOrganizationById({
          params: { organizationId, userId: alice.user.id },
          payload: { role: "read" }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(denied), 403)
        const lastAdmin = yield* alice.api.members.updateMemberInOrganizationById({
          params: { organizationId, userId: alice.user.id },
          payload: { role: "edit" }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(lastAdmin), 400)
        const sso = yield* alice.api.members.setUserAsSSOMemberForOrganization({ params: { organizationId, userId: bob.user.id } })
        assert.isTrue(sso.sso)
        yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: bob.user.id } })
        yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: bob.user.id } })
        const gone = yield* bob.api.organizations.getOrganizationById({ params: { organizationId } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(gone), 404)
        const leaveLast = yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: alice.user.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(leaveLast), 400)
      }))

    it.effect("creates, lists, renames and deletes teams with member counts", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const bob = yield* newUser("Bob")
        const outsider = yield* newUser("Olivia")
        const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
        const organizationId = org.id
        yield* inviteAndAccept(alice.api, organizationId, bob, "edit")
        const writers = yield* alice.api.teams.createOrganizationTeam({
          params: { organizationId },
          payload: { title: "Writers", members: [bob.user.id] }
        })
        assert.strictEqual(writers.object, "team")
        // Exactly the listed members: Alice created the team but is not in it.
        assert.strictEqual(writers.members, 1)
        assert.isTrue(writers.permissions.admin)
        yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Reviewers" } })
        const notMember = yield* alice.api.teams.createOrganizationTeam({
          params: { organizationId },
          payload: { title: "Bad", members: [outsider.user.id] }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(notMember), 400)
        const denied = yield* bob.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Mine" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(denied), 403)
        const filtered = yield* bob.api.teams.listTeamsInOrganizationById({ params: { organizationId }, query: { title: "WRIT" } })
        assert.deepStrictEqual(filtered.items.map((t) => t.id), [writers.id])
        assert.isFalse(filtered.items[0]!.permissions.admin)
        const owned = yield* alice.api.teams.listTeamsInOrganizationById({ params: { organizationId }, query: { owner: bob.user.id } })
        assert.strictEqual(owned.count, 0)
        const bobTeams = yield* bob.api.members.listTeamsForOrganizationMember({ params: { organizationId, userId: bob.user.id }, query: {} })
        assert.deepStrictEqual(bobTeams.items.map((t) => [t.team.title, t.member.role]), [["Writers", "member"]])
        const bobMember = yield* alice.api.members.getMemberInOrganizationById({ params: { organizationId, userId: bob.user.id } })
        assert.strictEqual(bobMember.teams, 1)
        const renamed = yield* alice.api.teams.updateTeamInOrganizationById({
          params: { organizationId, teamId: writers.id },
          payload: { title: "Authors" }
        })
        assert.strictEqual(renamed.title, "Authors")
        assert.strictEqual((yield* alice.api.teams.getTeamInOrganizationById({ params: { organizationId, teamId: writers.id } })).title, "Authors")
        yield* alice.api.teams.removeTeamFromOrganizationById({ params: { organizationId, teamId: writers.id } })
        const gone = yield* alice.api.teams.getTeamInOrganizationById({ params: { organizationId, teamId: writers.id } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(gone), 404)
        yield* alice.api.teams.removeTeamFromOrganizationById({ params: { organizationId, teamId: writers.id } })
      }))
  })
}
