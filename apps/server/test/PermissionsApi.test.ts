/** Permissions on spaces and collections through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, errorCode, errorMessage, inviteAndAccept, newUser, organizationWith, raw } from "./Harness.ts"

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`permissions API on ${backend.name}`, (it) => {
    it.effect("an invited user edits a space whose default is read, and loses it when removed", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const bob = members.edit!
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Docs" } })
        yield* alice.api.spaces.updateSpaceById({ params: { spaceId: space.id }, payload: { defaultLevel: "read" } })
        const before = yield* bob.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(before.permissions.edit, false)
        const refused = yield* bob.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Mine" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 403)

        const invited = yield* raw("POST", `/v1/spaces/${space.id}/permissions`, {
          token: alice.token,
          body: JSON.stringify({ role: "edit", users: [bob.user.id] })
        })
        assert.strictEqual(invited.status, 204)
        const after = yield* bob.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual([after.permissions.edit, after.permissions.admin], [true, false])
        const opened = yield* bob.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Mine" } })
        assert.strictEqual(opened.subject, "Mine")

        const users = yield* alice.api.permissions.listUserPermissionsInSpace({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual(users.items.map((p) => [p.user.id, p.permission]), [[bob.user.id, "edit"]])
        assert.strictEqual(users.items[0]!.user.object, "user")
        assert.strictEqual(users.count, 1)

        const removed = yield* raw("DELETE", `/v1/spaces/${space.id}/permissions/users/${bob.user.id}`, { token: alice.token })
        assert.strictEqual(removed.status, 205)
        const again = yield* raw("DELETE", `/v1/spaces/${space.id}/permissions/users/${bob.user.id}`, { token: alice.token })
        assert.strictEqual(again.status, 204)
        const gone = yield* bob.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(gone.permissions.edit, false)
      }))

    it.effect("team grants and collection grants apply, the highest grant wins, and PATCH changes or removes one", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read"])
        const reader = members.read!
        const writers = yield* alice.api.teams.createOrganizationTeam({
          params: { organizationId },
          payload: { title: "Writers", members: [reader.user.id] }
        })
        const folder = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Folder" } })
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Inside", parent: folder.id } })
        yield* alice.api.collections.updateCollectionById({ params: { collectionId: folder.id }, payload: { defaultLevel: null } })
        const hidden = yield* reader.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(hidden), 404)

        yield* alice.api.permissions.inviteToCollection({ params: { collectionId: folder.id }, payload: { role: "comment", teams: [writers.id] } })
        const viaCollection = yield* reader.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual([viaCollection.permissions.comment, viaCollection.permissions.edit], [true, false])
        yield* alice.api.permissions.inviteToSpace({ params: { spaceId: space.id }, payload: { role: "review", users: [reader.user.id] } })
        yield* alice.api.permissions.inviteToSpace({ params: { spaceId: space.id }, payload: { role: "read", teams: [writers.id] } })
        const highest = yield* reader.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual([highest.permissions.review, highest.permissions.admin], [true, false])

        const teams = yield* reader.api.permissions.listTeamPermissionsInCollection({ params: { collectionId: folder.id }, query: {} })
        assert.deepStrictEqual(teams.items.map((p) => [p.team.id, p.team.title, p.permission]), [[writers.id, "Writers", "comment"]])
        yield* alice.api.permissions.updateTeamPermissionInCollection({
          params: { collectionId: folder.id, teamId: writers.id },
          payload: { role: "edit" }
        })
        yield* alice.api.permissions.updateUserPermissionInSpace({ params: { spaceId: space.id, userId: reader.user.id }, payload: { role: null } })
        const edited = yield* reader.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual([edited.permissions.edit, edited.permissions.review], [true, false])
        const spaceUsers = yield* alice.api.permissions.listUserPermissionsInSpace({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual(spaceUsers.items, [])

        // A member's spaces include those reached through grants.
        const theirs = yield* alice.api.spaces.listSpacesForOrganizationMember({ params: { organizationId, userId: reader.user.id }, query: {} })
        assert.deepStrictEqual(theirs.items.map((m) => [m.space.id, m.permission]), [[space.id, "edit"]])

        const removed = yield* alice.api.permissions.removeTeamFromCollection({ params: { collectionId: folder.id, teamId: writers.id } })
        assert.strictEqual(removed, "removed")
        const teamGone = yield* reader.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual([teamGone.permissions.view, teamGone.permissions.comment], [true, false])
        // Deleting the team takes its grants: none is left on the space.
        yield* alice.api.teams.removeTeamFromOrganizationById({ params: { organizationId, teamId: writers.id } })
        const spaceTeams = yield* alice.api.permissions.listTeamPermissionsInSpace({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual(spaceTeams.items, [])
      }))

    it.effect("guests invited to a space see only that space", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith([])
        const guest = yield* newUser("Gus")
        yield* inviteAndAccept(alice.api, organizationId, guest, null)
        const open = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Open" } })
        const shared = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Shared" } })
        const none = yield* guest.api.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(none.items, [])
        yield* alice.api.permissions.inviteToSpace({ params: { spaceId: shared.id }, payload: { role: "comment", users: [guest.user.id] } })
        const listed = yield* guest.api.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(listed.items.map((s) => s.title), ["Shared"])
        assert.strictEqual(listed.items[0]!.permissions.comment, true)
        const hidden = yield* guest.api.spaces.getSpaceById({ params: { spaceId: open.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(hidden), 404)
        // Leaving the organization takes the grant: back in, the guest sees nothing.
        yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: guest.user.id } })
        yield* inviteAndAccept(alice.api, organizationId, guest, null)
        const after = yield* guest.api.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(after.items, [])
      }))

    it.effect("refuses bad invitations with a 400 naming the field, non-admins with 403, outsiders with 404", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const editor = members.edit!
        const outsider = yield* newUser("Olivia")
        const other = yield* outsider.api.organizations.createOrganization({ payload: { title: "Elsewhere" } })
        const otherTeam = yield* outsider.api.teams.createOrganizationTeam({ params: { organizationId: other.id }, payload: { title: "Theirs" } })
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Docs" } })
        const post = (body: unknown, token = alice.token) =>
          raw("POST", `/v1/spaces/${space.id}/permissions`, { token, body: JSON.stringify(body) })

        const stranger = yield* post({ role: "read", users: [editor.user.id, outsider.user.id] })
        assert.strictEqual(stranger.status, 400)
        assert.match(errorMessage(stranger.body), /users\[1\]/)
        const foreignTeam = yield* post({ role: "read", teams: [otherTeam.id] })
        assert.strictEqual(foreignTeam.status, 400)
        assert.match(errorMessage(foreignTeam.body), /teams\[0\]/)
        const badRole = yield* post({ role: "owner", users: [editor.user.id] })
        assert.strictEqual(badRole.status, 400)
        assert.match(errorMessage(badRole.body), /role/)
        const noRole = yield* post({ role: null, users: [editor.user.id] })
        assert.strictEqual(noRole.status, 400)
        assert.match(errorMessage(noRole.body), /role/)
        const nobody = yield* post({ role: "read" })
        assert.strictEqual(nobody.status, 400)
        assert.match(errorMessage(nobody.body), /users/)
        const empty = yield* post({ role: "read", users: [] })
        assert.strictEqual(empty.status, 400)
        assert.match(errorMessage(empty.body), /users/)
        const badLimit = yield* raw("GET", `/v1/spaces/${space.id}/permissions/aggregate?role=owner`, { token: alice.token })
        assert.strictEqual(badLimit.status, 400)

        const forbidden = yield* post({ role: "read", users: [editor.user.id] }, editor.token)
        assert.strictEqual(forbidden.status, 403)
        assert.deepStrictEqual(Object.keys(forbidden.body as object), ["error"])
        const patch = yield* raw("PATCH", `/v1/spaces/${space.id}/permissions/users/${editor.user.id}`, {
          token: editor.token,
          body: JSON.stringify({ role: "admin" })
        })
        assert.strictEqual(patch.status, 403)
        const notMember = yield* raw("PATCH", `/v1/spaces/${space.id}/permissions/users/${outsider.user.id}`, {
          token: alice.token,
          body: JSON.stringify({ role: "read" })
        })
        assert.strictEqual(notMember.status, 404)
        for (const path of ["", "/users", "/teams", "/aggregate"]) {
          const hidden = yield* raw(path === "" ? "POST" : "GET", `/v1/spaces/${space.id}/permissions${path}`, {
            token: outsider.token,
            ...(path === "" ? { body: JSON.stringify({ role: "read", users: [outsider.user.id] }) } : {})
          })
          assert.strictEqual(hidden.status, 404, path)
        }
        const removal = yield* raw("DELETE", `/v1/spaces/${space.id}/permissions/users/${editor.user.id}`, { token: outsider.token })
        assert.strictEqual(removal.status, 404)
        const users = yield* alice.api.permissions.listUserPermissionsInSpace({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual(users.items, [])
      }))

    it.effect("aggregate lists show everyone who can access the content with their effective role", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read", "edit", "comment"])
        const folder = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Folder" } })
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Inside", parent: folder.id } })
        yield* alice.api.spaces.updateSpaceById({ params: { spaceId: space.id }, payload: { defaultLevel: null } })
        yield* alice.api.permissions.inviteToSpace({ params: { spaceId: space.id }, payload: { role: "review", users: [members.read!.user.id] } })
        yield* alice.api.permissions.inviteToCollection({ params: { collectionId: folder.id }, payload: { role: "edit", users: [members.comment!.user.id] } })
        const all = yield* members.read!.api.permissions.listPermissionsAggregateInSpace({ params: { spaceId: space.id }, query: {} })
        const byUser = new Map(all.items.map((p) => [p.user.id, p.permission]))
        assert.deepStrictEqual(Object.fromEntries(byUser), {
          [alice.user.id]: "admin",
          [members.read!.user.id]: "review",
          [members.comment!.user.id]: "edit"
        })
        const reviewers = yield* alice.api.permissions.listPermissionsAggregateInSpace({ params: { spaceId: space.id }, query: { role: "review" } })
        assert.deepStrictEqual(reviewers.items.map((p) => p.user.id), [members.read!.user.id])
        const first = yield* alice.api.permissions.listPermissionsAggregateInSpace({ params: { spaceId: space.id }, query: { limit: 2 } })
        const rest = yield* alice.api.permissions.listPermissionsAggregateInSpace({ params: { spaceId: space.id }, query: { limit: 2, page: first.next!.page } })
        assert.deepStrictEqual([...first.items, ...rest.items].map((p) => p.user.id).toSorted(), all.items.map((p) => p.user.id).toSorted())
        assert.isUndefined(rest.next)
        // The collection's own aggregate: everyone inherits the organization's role there, grants to them and their teams count.
        const leads = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Leads", members: [members.edit!.user.id] } })
        yield* alice.api.permissions.inviteToCollection({ params: { collectionId: folder.id }, payload: { role: "admin", teams: [leads.id] } })
        const folderAll = yield* alice.api.permissions.listPermissionsAggregateInCollection({ params: { collectionId: folder.id }, query: {} })
        assert.deepStrictEqual(Object.fromEntries(folderAll.items.map((p) => [p.user.id, p.permission])), {
          [alice.user.id]: "admin",
          [members.read!.user.id]: "read",
          [members.edit!.user.id]: "admin",
          [members.comment!.user.id]: "edit"
        })
      }))

    it.effect("Team.spaces and Member.spaces count the spaces they were invited to", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read"])
        const reader = members.read!
        const team = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Crew", members: [reader.user.id] } })
        const one = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "One" } })
        const two = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Two" } })
        yield* alice.api.permissions.inviteToSpace({ params: { spaceId: one.id }, payload: { role: "edit", users: [reader.user.id], teams: [team.id] } })
        yield* alice.api.permissions.inviteToSpace({ params: { spaceId: two.id }, payload: { role: "edit", users: [reader.user.id] } })
        const member = yield* alice.api.members.getMemberInOrganizationById({ params: { organizationId, userId: reader.user.id } })
        assert.strictEqual(member.spaces, 2)
        const listedMembers = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(
          Object.fromEntries(listedMembers.items.map((m) => [m.id, m.spaces])),
          { [alice.user.id]: 0, [reader.user.id]: 2 }
        )
        const got = yield* alice.api.teams.getTeamInOrganizationById({ params: { organizationId, teamId: team.id } })
        assert.strictEqual(got.spaces, 1)
        const teams = yield* alice.api.teams.listTeamsInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(teams.items.map((t) => [t.id, t.spaces]), [[team.id, 1]])
        const onSpace = yield* alice.api.permissions.listTeamPermissionsInSpace({ params: { spaceId: one.id }, query: {} })
        assert.strictEqual(onSpace.items[0]!.team.spaces, 1)
        const crew = yield* alice.api.teamMembers.listTeamMembersInOrganizationById({ params: { organizationId, teamId: team.id }, query: {} })
        assert.deepStrictEqual(crew.items.map((m) => [m.organization.id, m.organization.spaces]), [[reader.user.id, 2]])
      }))
  })
}
