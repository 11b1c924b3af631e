/**
 * Team membership, invite links and email invitations through the real router, the typed client,
 * plain HTTP and GitBook's own client, on every backend.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import * as Idp from "../../../packages/identity/test/support/TestIdp.ts"
import { acceptInvite, adminToken, backends, baseUrl, client, errorCode, errorMessage, newUser, organizationWith, raw } from "./Harness.ts"
import { providerPaths, signInThroughIdp } from "./SsoFixtures.ts"

/** The part of GitBook's client these tests use (its published typings cannot be followed; see GitBookClient.test.ts). */
interface GitBookClient {
  readonly orgs: {
    addMemberToOrganizationTeamById(organizationId: string, teamId: string, userId: string, body?: { role?: string }): Promise<{ status: number }>
    listTeamMembersInOrganizationById(organizationId: string, teamId: string): Promise<{
      data: { count: number; items: Array<{ organization: { id: string; role: string | null; user: { displayName: string } }; team: { role: string }; permissions: { view: boolean } }> }
    }>
  }
}

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`team members and invites on ${backend.name}`, (it) => {
    it.effect("lists, adds, changes and removes a team's members, for admins and the team's owners", () =>
      Effect.gen(function*() {
        const { alice, organizationId, members } = yield* organizationWith(["edit", "read"])
        const editor = members.edit!
        const reader = members.read!
        const outsider = yield* newUser("Olivia")
        const team = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Writers" } })
        const teamId = team.id
        const list = (api = alice.api) =>
          api.teamMembers.listTeamMembersInOrganizationById({ params: { organizationId, teamId }, query: {} })
        const path = (userId: string) => `/v1/orgs/${organizationId}/teams/${teamId}/members/${userId}`

        assert.strictEqual((yield* list()).count, 0)
        yield* alice.api.teamMembers.addMemberToOrganizationTeamById({ params: { organizationId, teamId, userId: editor.user.id }, payload: null })
        yield* alice.api.teamMembers.addMemberToOrganizationTeamById({
          params: { organizationId, teamId, userId: reader.user.id },
          payload: { role: "owner" }
        })
        const listed = yield* list()
        // By name: the members are called after their organization role.
        assert.deepStrictEqual(listed.items.map((m) => [m.organization.user.displayName, m.organization.role, m.team.role]), [
          ["edit", "edit", "member"],
          ["read", "read", "owner"]
        ])
        assert.strictEqual(listed.items[0]!.organization.id, editor.user.id)
        assert.isTrue(listed.items[0]!.permissions.view)
        assert.strictEqual((yield* alice.api.teams.getTeamInOrganizationById({ params: { organizationId, teamId } })).members, 2)

        // Adding again without a role keeps the role; with one, changes it.
        yield* alice.api.teamMembers.addMemberToOrganizationTeamById({ params: { organizationId, teamId, userId: reader.user.id }, payload: null })
        assert.deepStrictEqual((yield* list()).items.map((m) => m.team.role), ["member", "owner"])

        // The team's owner manages its members without being an admin; a plain member may not.
        yield* reader.api.teamMembers.addMemberToOrganizationTeamById({
          params: { organizationId, teamId, userId: alice.user.id },
          payload: { role: "member" }
        })
        const denied = yield* editor.api.teamMembers.addMemberToOrganizationTeamById({
          params: { organizationId, teamId, userId: editor.user.id },
          payload: { role: "owner" }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(denied), 403)
        assert.strictEqual((yield* list(editor.api)).count, 3)

        // Outsiders learn nothing; an outsider cannot be added.
        assert.strictEqual(errorCode(yield* list(outsider.api).pipe(Effect.flip)), 404)
        const outsiderAdds = yield* raw("PUT", path(outsider.user.id), { token: outsider.token, body: "{}" })
        assert.strictEqual(outsiderAdds.status, 404)
        const notMember = yield* raw("PUT", path(outsider.user.id), { token: alice.token, body: "{}" })
        assert.strictEqual(notMember.status, 400)
        assert.match(errorMessage(notMember.body), /userId/)
        assert.match(errorMessage(notMember.body), /not a member of the organization/)
        const badRole = yield* raw("PUT", path(editor.user.id), { token: alice.token, body: JSON.stringify({ role: "boss" }) })
        assert.strictEqual(badRole.status, 400)
        assert.match(errorMessage(badRole.body), /role/)
        const noTeam = yield* raw("GET", `/v1/orgs/${organizationId}/teams/nosuchteam/members`, { token: alice.token })
        assert.strictEqual(noTeam.status, 404)

        // 205 when removed, 204 when they were not in the team.
        const removed = yield* raw("DELETE", path(editor.user.id), { token: alice.token })
        assert.strictEqual(removed.status, 205)
        const again = yield* raw("DELETE", path(editor.user.id), { token: alice.token })
        assert.strictEqual(again.status, 204)
        const editorRemoves = yield* raw("DELETE", path(reader.user.id), { token: editor.token })
        assert.strictEqual(editorRemoves.status, 403)
        assert.deepStrictEqual((yield* list()).items.map((m) => m.organization.id).toSorted(), [alice.user.id, reader.user.id].toSorted())

        // Leaving the organization is leaving its teams.
        yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: reader.user.id } })
        assert.deepStrictEqual((yield* list()).items.map((m) => m.organization.id), [alice.user.id])
      }))

    it.effect("changes several members at once by id or email, removal winning, all or nothing", () =>
      Effect.gen(function*() {
        const { alice, organizationId, members } = yield* organizationWith(["edit", "read", "comment"])
        const outsider = yield* newUser("Olivia")
        const team = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Reviewers" } })
        const teamId = team.id
        const roles = Effect.map(
          alice.api.teamMembers.listTeamMembersInOrganizationById({ params: { organizationId, teamId }, query: {} }),
          (page) => page.items.map((m) => [m.organization.user.displayName, m.team.role])
        )
        const update = (payload: object, token = alice.token) =>
          raw("PUT", `/v1/orgs/${organizationId}/teams/${teamId}/members`, { token, body: JSON.stringify(payload) })

        const done = yield* update({
          add: [members.edit!.email.toUpperCase(), members.read!.user.id, members.comment!.user.id],
          memberships: { [alice.user.id]: { role: "owner" } },
          remove: [members.read!.email]
        })
        assert.strictEqual(done.status, 204)
        assert.deepStrictEqual(yield* roles, [["Alice", "owner"], ["comment", "member"], ["edit", "member"]])

        yield* alice.api.teamMembers.updateMembersInOrganizationTeam({
          params: { organizationId, teamId },
          payload: { memberships: { [members.edit!.user.id]: { role: "owner" } }, remove: [members.comment!.user.id, "nobody@example.com"] }
        })
        assert.deepStrictEqual(yield* roles, [["Alice", "owner"], ["edit", "owner"]])

        // One unknown user refuses the whole change.
        const unknown = yield* update({ add: [members.read!.user.id, "nobody@example.com"] })
        assert.strictEqual(unknown.status, 400)
        assert.match(errorMessage(unknown.body), /add\[1\]/)
        const stranger = yield* update({ memberships: { [outsider.user.id]: { role: "member" } } })
        assert.strictEqual(stranger.status, 400)
        assert.match(errorMessage(stranger.body), /memberships/)
        const wrongShape = yield* update({ add: "everyone" })
        assert.strictEqual(wrongShape.status, 400)
        assert.match(errorMessage(wrongShape.body), /add/)
        assert.deepStrictEqual(yield* roles, [["Alice", "owner"], ["edit", "owner"]])

        // A team owner may; a member of the organization who does not own the team may not; outsiders see nothing.
        assert.strictEqual((yield* update({ add: [members.read!.user.id] }, members.edit!.token)).status, 204)
        assert.strictEqual((yield* update({ add: [members.comment!.user.id] }, members.read!.token)).status, 403)
        assert.strictEqual((yield* update({ add: [outsider.user.id] }, outsider.token)).status, 404)
        assert.deepStrictEqual(yield* roles, [["Alice", "owner"], ["edit", "owner"], ["read", "member"]])
      }))

    it.effect("lets whoever holds an invite link join with its role, once, until it expires or is deleted", () =>
      Effect.gen(function*() {
        const { alice, organizationId, members } = yield* organizationWith(["read"])
        const reader = members.read!
        const olivia = yield* newUser("Olivia")
        const invite = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId }, payload: { role: "edit" } })
        assert.strictEqual(invite.object, "invite")
        assert.strictEqual(invite.role, "edit")
        // An admin already has everything the link gives.
        assert.isTrue(invite.redundant)
        const inviteId = invite.id
        const get = (api = olivia.api) => api.organizations.getOrganizationInviteLink({ params: { organizationId, inviteId } })
        const join = (api = olivia.api) => api.organizations.joinOrganizationWithInvite({ params: { organizationId, inviteId } })
        const roleOf = (userId: string) =>
          Effect.map(alice.api.members.getMemberInOrganizationById({ params: { organizationId, userId } }), (m) => m.role)

        // Links work once the organization turns them on.
        const off = yield* join().pipe(Effect.flip)
        assert.strictEqual(errorCode(off), 403)
        assert.match(errorMessage(off), /inviteLinks/)
        yield* alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { inviteLinks: true } })

        const seen = yield* get()
        assert.deepStrictEqual([seen.id, seen.role, seen.redundant], [inviteId, "edit", false])
        assert.deepStrictEqual(yield* join(), {})
        assert.strictEqual(yield* roleOf(olivia.user.id), "edit")
        assert.strictEqual((yield* olivia.api.organizations.getOrganizationById({ params: { organizationId } })).id, organizationId)
        // Joining again changes nothing.
        assert.deepStrictEqual(yield* join(), {})
        assert.strictEqual(yield* roleOf(olivia.user.id), "edit")
        assert.isTrue((yield* get()).redundant)
        // A member with a lower role gets the link's.
        assert.isFalse((yield* get(reader.api)).redundant)
        yield* join(reader.api)
        assert.strictEqual(yield* roleOf(reader.user.id), "edit")

        // A wrong id is unknown, here and in another organization.
        const wrong = yield* olivia.api.organizations.joinOrganizationWithInvite({ params: { organizationId, inviteId: "nosuchinvite" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(wrong), 404)
        const other = yield* olivia.api.organizations.createOrganization({ payload: { title: "Elsewhere" } })
        const misplaced = yield* olivia.api.organizations.joinOrganizationWithInvite({ params: { organizationId: other.id, inviteId } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(misplaced), 404)

        // Only admins change a link.
        const editorChanges = yield* olivia.api.organizations.updateOrganizationInviteById({
          params: { organizationId, inviteId },
          payload: { role: "admin" }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(editorChanges), 403)
        const pat = yield* newUser("Pat")
        const outsiderChanges = yield* pat.api.organizations.updateOrganizationInviteById({
          params: { organizationId, inviteId },
          payload: { role: "admin" }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(outsiderChanges), 404)
        const badExpiry = yield* raw("PATCH", `/v1/orgs/${organizationId}/link-invites/${inviteId}`, {
          token: alice.token,
          body: JSON.stringify({ expiresAt: "tomorrow" })
        })
        assert.strictEqual(badExpiry.status, 400)
        assert.match(errorMessage(badExpiry.body), /expiresAt/)

        // An expired link lets nobody in; its admins still see it.
        const past = "2020-01-01T00:00:00.000Z"
        const expired = yield* alice.api.organizations.updateOrganizationInviteById({
          params: { organizationId, inviteId },
          payload: { role: "comment", expiresAt: past }
        })
        assert.deepStrictEqual([expired.role, expired.expiresAt], ["comment", past])
        const late = yield* join(pat.api).pipe(Effect.flip)
        assert.strictEqual(errorCode(late), 400)
        assert.match(errorMessage(late), /expired/)
        assert.strictEqual(errorCode(yield* get(pat.api).pipe(Effect.flip)), 400)
        assert.strictEqual((yield* get(alice.api)).expiresAt, past)
        const reopened = yield* alice.api.organizations.updateOrganizationInviteById({
          params: { organizationId, inviteId },
          payload: { expiresAt: null }
        })
        assert.isUndefined(reopened.expiresAt)
        yield* join(pat.api)
        assert.strictEqual(yield* roleOf(pat.user.id), "comment")

        // A deleted link is gone.
        yield* alice.api.organizations.deleteOrganizationInviteById({ params: { organizationId, inviteId } })
        const quinn = yield* newUser("Quinn")
        assert.strictEqual(errorCode(yield* join(quinn.api).pipe(Effect.flip)), 404)
        assert.strictEqual(errorCode(yield* get(alice.api).pipe(Effect.flip)), 404)
        assert.strictEqual(errorCode(yield* quinn.api.organizations.getOrganizationById({ params: { organizationId } }).pipe(Effect.flip)), 404)
      }))

    it.effect("creates an invite link that expires, and refuses a malformed expiry", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        yield* alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { inviteLinks: true } })
        const expiresAt = "2020-06-01T00:00:00.000Z"
        const invite = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId }, payload: { role: null, expiresAt } })
        assert.deepStrictEqual([invite.role, invite.expiresAt], [null, expiresAt])
        const listed = yield* alice.api.organizations.listOrganizationInviteLinks({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(listed.items.map((i) => [i.id, i.expiresAt]), [[invite.id, expiresAt]])
        const ruth = yield* newUser("Ruth")
        const refused = yield* ruth.api.organizations.joinOrganizationWithInvite({ params: { organizationId, inviteId: invite.id } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 400)
        assert.match(errorMessage(refused), /inviteId: this invite link expired at 2020-06-01T00:00:00.000Z/)
        const malformed = yield* raw("POST", `/v1/orgs/${organizationId}/link-invites`, {
          token: alice.token,
          body: JSON.stringify({ role: "read", expiresAt: 12 })
        })
        assert.strictEqual(malformed.status, 400)
        assert.match(errorMessage(malformed.body), /expiresAt/)
      }))

    // Issue 18: invitations are offers. This used to add Bob at once and Later when the account was created.
    it.effect("makes invited users, with an account or created later, members only once they accept", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const bob = yield* newUser("Bob")
        const laterEmail = `Later.${Date.now()}@Example.com`
        const result = yield* alice.api.organizations.inviteUsersToOrganization({
          params: { organizationId },
          payload: { emails: [bob.email, { email: laterEmail, role: "review" }], role: "edit" }
        })
        // GitBook's `users`: those added; an organization admin's invitation adds nobody (issue 34).
        assert.deepStrictEqual(result.users, [])
        assert.strictEqual(result.invited, 2)
        const pendingBob = yield* bob.api.members.getMemberInOrganizationById({ params: { organizationId, userId: bob.user.id } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(pendingBob), 404)
        yield* acceptInvite(bob.api, organizationId)
        assert.strictEqual((yield* bob.api.members.getMemberInOrganizationById({ params: { organizationId, userId: bob.user.id } })).role, "edit")

        const admin = yield* client(adminToken)
        const later = yield* admin.users.createUser({ payload: { email: laterEmail.toLowerCase(), displayName: "Later" } })
        const token = yield* admin.users.createUserToken({ params: { userId: later.id }, payload: {} })
        const laterApi = yield* client(token.token)
        assert.strictEqual((yield* laterApi.organizations.listOrganizationsForAuthenticatedUser({ query: {} })).count, 0)
        const offers = yield* laterApi.users.listInvitesForAuthenticatedUser()
        assert.deepStrictEqual(offers.items.map((i) => [i.organization.id, i.email, i.role]), [[organizationId, laterEmail.toLowerCase(), "review"]])
        yield* laterApi.organizations.acceptOrganizationMemberInvite({ params: { organizationId, inviteId: offers.items[0]!.id } })
        const mine = yield* laterApi.organizations.listOrganizationsForAuthenticatedUser({ query: {} })
        assert.deepStrictEqual(mine.items.map((o) => o.id), [organizationId])
        const membership = yield* laterApi.members.getMemberInOrganizationById({ params: { organizationId, userId: later.id } })
        assert.strictEqual(membership.role, "review")
        // The invitation was used up: nobody else with that email could accept it again.
        const again = yield* laterApi.organizations.acceptOrganizationMemberInvite({ params: { organizationId, inviteId: offers.items[0]!.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(again), 404)
        const everyone = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: {} })
        assert.strictEqual(everyone.count, 3)
      }))

    // Issue 18: a sign-in through one organization's IdP accepts that organization's invitation
    // only; it used to accept every organization's waiting for the email.
    it.effect("an account made by SAML sign-in takes its organization's invitation; the others stay pending", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const team = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Staff" } })
        const provider = yield* alice.api.sso.createOrganizationSAMLProvider({
          params: { organizationId },
          payload: { label: "IdP", defaultRole: "edit", defaultTeam: team.id, ssoURL: Idp.idpSsoURL, entityID: Idp.idpEntityID, certificate: Idp.idpCertificate }
        })
        const elsewhere = yield* organizationWith()
        const email = `sam.${Date.now()}@example.com`
        yield* alice.api.organizations.inviteUsersToOrganization({ params: { organizationId }, payload: { emails: [email], role: "review" } })
        yield* elsewhere.alice.api.organizations.inviteUsersToOrganization({
          params: { organizationId: elsewhere.organizationId },
          payload: { emails: [email], role: "read" }
        })
        const signedIn = yield* signInThroughIdp(providerPaths(provider), email)
        assert.strictEqual(signedIn.status, 303)
        const found = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: { search: email } })
        // The invitation's role wins over the provider's default; the account is an SSO member in the default team.
        assert.deepStrictEqual(found.items.map((m) => [m.user.email, m.role, m.sso, m.teams]), [[email, "review", true, 1]])
        const other = yield* elsewhere.alice.api.members.getMemberInOrganizationById({
          params: { organizationId: elsewhere.organizationId, userId: found.items[0]!.id }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(other), 404)
        const waiting = yield* elsewhere.alice.api.organizations.listOrganizationMemberInvites({ params: { organizationId: elsewhere.organizationId } })
        assert.deepStrictEqual(waiting.items.map((i) => [i.email, i.role]), [[email, "read"]])
      }))

    it.effect("answers GitBook's client listing and adding team members", () =>
      Effect.gen(function*() {
        const { alice, organizationId, members } = yield* organizationWith(["create"])
        const team = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Docs" } })
        const endpoint = yield* baseUrl
        const gitbook = new GitBookAPI({ endpoint, authToken: alice.token }) as unknown as GitBookClient
        const result = yield* Effect.promise(async () => {
          const added = await gitbook.orgs.addMemberToOrganizationTeamById(organizationId, team.id, members.create!.user.id, { role: "owner" })
          const addedWithoutBody = await gitbook.orgs.addMemberToOrganizationTeamById(organizationId, team.id, alice.user.id)
          const { data } = await gitbook.orgs.listTeamMembersInOrganizationById(organizationId, team.id)
          return { statuses: [added.status, addedWithoutBody.status], data }
        })
        assert.deepStrictEqual(result.statuses, [204, 204])
        assert.strictEqual(result.data.count, 2)
        assert.deepStrictEqual(
          result.data.items.map((m) => [m.organization.id, m.organization.role, m.team.role, m.permissions.view]),
          [[alice.user.id, "admin", "member", true], [members.create!.user.id, "create", "owner", true]]
        )
      }))
  })
}
