/**
 * Site permissions and site users through the real router, the typed client and GitBook's own
 * client (`@gitbook/api`): a grant makes a member a site editor, a team's grant counts, revoking
 * takes it back, each change is in the audit log, and nothing leaks across organizations.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { adminToken, backends, baseUrl, client, errorCode, errorMessage, newUser, organizationWith, raw } from "./Harness.ts"

interface SitePermission {
  readonly permission: string | null
  readonly user: { readonly object: string; readonly id: string }
  readonly origin: { readonly type: string; readonly reason?: string }
}

/** The part of GitBook's client this test uses (its typings cannot be followed under NodeNext). */
interface GitBookClient {
  readonly orgs: {
    createOrganization(body: { title: string }): Promise<{ data: { id: string } }>
    createSite(organizationId: string, body: { title?: string }): Promise<{ data: { id: string } }>
    inviteToSite(organizationId: string, siteId: string, body: { role: string | null; users?: Array<string>; teams?: Array<string> }): Promise<{ status: number }>
    listPermissionsAggregateInSite(organizationId: string, siteId: string, query?: { role?: string }): Promise<{ data: { items: Array<SitePermission> } }>
    listUserPermissionsInSite(organizationId: string, siteId: string): Promise<{ data: { items: Array<{ permission: string; user: { id: string } }> } }>
    updateUserPermissionInSite(organizationId: string, siteId: string, userId: string, body: { role?: string | null }): Promise<{ status: number }>
    removeUserFromSite(organizationId: string, siteId: string, userId: string): Promise<{ status: number }>
  }
}

/** The error of a raw answer: its field and message. */
const field = (r: { readonly body: unknown }) => (r.body as { error?: { field?: string; message?: string } }).error

for (const backend of backends) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`site permissions API on ${backend.name}`, (it) => {
    it.effect("an invited member edits the site's settings and publishing, loses it when removed; others stay refused", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit", "read"])
        const bob = members.edit!
        const carol = members.read!
        const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Handbook" } })
        const params = { organizationId, siteId: site.id }
        const refused = yield* bob.api.sites.updateSiteById({ params, payload: { title: "Mine" } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 403)
        assert.include(errorMessage(refused), "editor of this site")

        const invited = yield* raw("POST", `/v1/orgs/${organizationId}/sites/${site.id}/permissions`, {
          token: alice.token,
          body: JSON.stringify({ role: "edit", users: [bob.user.id] })
        })
        assert.strictEqual(invited.status, 204)
        const seen = yield* bob.api.sites.getSiteById({ params })
        assert.deepStrictEqual([seen.permissions.edit, seen.permissions.admin], [true, false])
        const renamed = yield* bob.api.sites.updateSiteById({ params, payload: { title: "Bob's handbook" } })
        assert.strictEqual(renamed.title, "Bob's handbook")
        assert.strictEqual((yield* bob.api.sites.publishSite({ params })).published, true)
        // An editor may not hand the site on, nor delete it.
        const handOn = yield* bob.api.sitePermissions.inviteToSite({ params, payload: { role: "admin", users: [carol.user.id] } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(handOn), 403)
        const carolRefused = yield* carol.api.sites.updateSiteById({ params, payload: { title: "Carol's" } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(carolRefused), 403)

        const users = yield* carol.api.siteUsers.listUserPermissionsInSite({ params, query: {} })
        assert.deepStrictEqual(users.items.map((p) => [p.user.id, p.permission]), [[bob.user.id, "edit"]])
        const everyone = yield* carol.api.siteUsers.listPermissionsAggregateInSite({ params, query: {} })
        const byId = new Map(everyone.items.map((p) => [p.user.id, [p.permission, p.origin.type, "reason" in p.origin ? p.origin.reason : undefined]]))
        assert.deepStrictEqual([byId.get(alice.user.id), byId.get(bob.user.id), byId.get(carol.user.id)], [
          ["admin", "organization", undefined],
          ["edit", "site", "member"],
          ["read", "site", "default"]
        ])
        const editors = yield* carol.api.siteUsers.listPermissionsAggregateInSite({ params, query: { role: "edit" } })
        assert.deepStrictEqual(editors.items.map((p) => p.user.id), [bob.user.id])
        const searched = yield* carol.api.siteUsers.listPermissionsAggregateInSite({ params, query: { search: bob.user.displayName.toUpperCase() } })
        assert.deepStrictEqual(searched.items.map((p) => p.user.id), [bob.user.id])

        const removed = yield* raw("DELETE", `/v1/orgs/${organizationId}/sites/${site.id}/permissions/users/${bob.user.id}`, { token: alice.token })
        assert.strictEqual(removed.status, 205)
        const again = yield* raw("DELETE", `/v1/orgs/${organizationId}/sites/${site.id}/permissions/users/${bob.user.id}`, { token: alice.token })
        assert.strictEqual(again.status, 204)
        const after = yield* bob.api.sites.updateSiteById({ params, payload: { title: "Again" } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(after), 403)

        const events = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { target: site.id } })
        assert.deepStrictEqual(events.items.map((e) => e.action).toReversed(), ["site.permission-granted", "site.published", "site.permission-revoked"])
      }))

    it.effect("a team's grant makes its members site admins; PATCH changes or removes it; teams are listed", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read", "comment"])
        const reader = members.read!
        const writers = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Writers", members: [reader.user.id] } })
        const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Team site" } })
        const params = { organizationId, siteId: site.id }
        yield* alice.api.sitePermissions.inviteToSite({ params, payload: { role: "admin", teams: [writers.id] } })
        // As a site admin through the team, the reader invites someone else.
        yield* reader.api.sitePermissions.inviteToSite({ params, payload: { role: "edit", users: [members.comment!.user.id] } })
        const teams = yield* reader.api.sitePermissions.listTeamPermissionsInSite({ params, query: {} })
        assert.deepStrictEqual(teams.items.map((t) => [t.team.id, t.team.title, t.permission]), [[writers.id, "Writers", "admin"]])
        const viaTeam = yield* alice.api.siteUsers.listPermissionsAggregateInSite({ params, query: { team: writers.id } })
        assert.deepStrictEqual(viaTeam.items.map((p) => [p.user.id, p.permission, p.origin]), [
          [reader.user.id, "admin", { type: "site", site: site.id, reason: "team", team: writers.id }]
        ])
        yield* alice.api.sitePermissions.updateTeamPermissionInSite({ params: { ...params, teamId: writers.id }, payload: { role: "read" } })
        const demoted = yield* reader.api.sites.getSiteById({ params })
        assert.deepStrictEqual([demoted.permissions.edit, demoted.permissions.admin], [false, false])
        yield* alice.api.sitePermissions.updateTeamPermissionInSite({ params: { ...params, teamId: writers.id }, payload: { role: null } })
        assert.deepStrictEqual((yield* alice.api.sitePermissions.listTeamPermissionsInSite({ params, query: {} })).items, [])
        const gone = yield* raw("DELETE", `/v1/orgs/${organizationId}/sites/${site.id}/permissions/teams/${writers.id}`, { token: alice.token })
        assert.strictEqual(gone.status, 204)
      }))

    it.effect("bad invitations are 400s naming the field; other organizations' sites, users and teams are unknown", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read"])
        const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Checked" } })
        const other = yield* organizationWith([])
        const otherSite = yield* other.alice.api.sites.createSite({ params: { organizationId: other.organizationId }, payload: { title: "Theirs" } })
        const otherTeam = yield* other.alice.api.teams.createOrganizationTeam({ params: { organizationId: other.organizationId }, payload: { title: "Theirs" } })
        const path = `/v1/orgs/${organizationId}/sites/${site.id}/permissions`
        const post = (body: unknown) => raw("POST", path, { token: alice.token, body: JSON.stringify(body) })
        const noRole = yield* post({ role: null, users: [members.read!.user.id] })
        assert.deepStrictEqual([noRole.status, field(noRole)?.field], [400, "role"])
        const badRole = yield* post({ role: "owner", users: [members.read!.user.id] })
        assert.strictEqual(badRole.status, 400)
        assert.include(field(badRole)?.message ?? "", "role")
        const nobody = yield* post({ role: "edit" })
        assert.deepStrictEqual([nobody.status, field(nobody)?.field], [400, "users"])
        const stranger = yield* post({ role: "edit", users: [members.read!.user.id, other.alice.user.id] })
        assert.deepStrictEqual([stranger.status, field(stranger)?.field], [400, "users[1]"])
        const strangeTeam = yield* post({ role: "edit", teams: [otherTeam.id] })
        assert.deepStrictEqual([strangeTeam.status, field(strangeTeam)?.field], [400, "teams[0]"])
        // Another organization's site under this organization's path, and this site to an outsider: 404.
        const crossed = yield* raw("GET", `/v1/orgs/${organizationId}/sites/${otherSite.id}/permissions/aggregate`, { token: alice.token })
        assert.strictEqual(crossed.status, 404)
        const outsider = yield* raw("GET", `${path}/aggregate`, { token: other.alice.token })
        assert.strictEqual(outsider.status, 404)
        const outsiderList = yield* raw("GET", `${path}/users`, { token: other.alice.token })
        assert.strictEqual(outsiderList.status, 404)
        const strangerPatch = yield* raw("PATCH", `${path}/users/${other.alice.user.id}`, { token: alice.token, body: JSON.stringify({ role: "edit" }) })
        assert.strictEqual(strangerPatch.status, 404)
      }))

    it.effect("a member or a team that leaves the organization takes its site grants with it", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit", "read"])
        const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Leaving" } })
        const params = { organizationId, siteId: site.id }
        const crew = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Crew", members: [members.read!.user.id] } })
        yield* alice.api.sitePermissions.inviteToSite({ params, payload: { role: "edit", users: [members.edit!.user.id], teams: [crew.id] } })
        yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: members.edit!.user.id } })
        yield* alice.api.teams.removeTeamFromOrganizationById({ params: { organizationId, teamId: crew.id } })
        assert.deepStrictEqual((yield* alice.api.siteUsers.listUserPermissionsInSite({ params, query: {} })).items, [])
        assert.deepStrictEqual((yield* alice.api.sitePermissions.listTeamPermissionsInSite({ params, query: {} })).items, [])
        const reader = yield* members.read!.api.sites.getSiteById({ params })
        assert.strictEqual(reader.permissions.edit, false)
      }))

    it.effect("GitBook's client invites a member to a site, lists who can access it, changes and removes the grant", () =>
      Effect.gen(function*() {
        const endpoint = yield* baseUrl
        const gitbook = new GitBookAPI({ endpoint, authToken: adminToken }) as unknown as GitBookClient
        const admin = yield* client(adminToken)
        const dana = yield* newUser("Dana")
        const org = yield* Effect.promise(() => gitbook.orgs.createOrganization({ title: "Client Site Permissions" }))
        yield* admin.organizations.inviteUsersToOrganization({ params: { organizationId: org.data.id }, payload: { emails: [dana.email], role: "read" } })
        const result = yield* Effect.promise(async () => {
          const site = await gitbook.orgs.createSite(org.data.id, { title: "Client site" })
          const invited = await gitbook.orgs.inviteToSite(org.data.id, site.data.id, { role: "edit", users: [dana.user.id] })
          const everyone = await gitbook.orgs.listPermissionsAggregateInSite(org.data.id, site.data.id)
          const editors = await gitbook.orgs.listPermissionsAggregateInSite(org.data.id, site.data.id, { role: "edit" })
          const changed = await gitbook.orgs.updateUserPermissionInSite(org.data.id, site.data.id, dana.user.id, { role: "admin" })
          const users = await gitbook.orgs.listUserPermissionsInSite(org.data.id, site.data.id)
          const removed = await gitbook.orgs.removeUserFromSite(org.data.id, site.data.id, dana.user.id)
          return { invited, everyone, editors, changed, users, removed }
        })
        assert.strictEqual(result.invited.status, 204)
        assert.isTrue(result.everyone.data.items.every((p) => p.user.object === "user" && typeof p.origin.type === "string"))
        assert.deepStrictEqual(result.editors.data.items.map((p) => [p.user.id, p.permission, p.origin.reason]), [[dana.user.id, "edit", "member"]])
        assert.strictEqual(result.changed.status, 204)
        assert.deepStrictEqual(result.users.data.items.map((p) => [p.user.id, p.permission]), [[dana.user.id, "admin"]])
        assert.strictEqual(result.removed.status, 205)
      }))
  })
}
