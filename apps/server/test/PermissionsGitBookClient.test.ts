/** GitBook's own client (`@gitbook/api`) inviting to a space and listing who can access it. */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { adminToken, backends, baseUrl, client, newUser } from "./Harness.ts"

interface Permission {
  readonly permission: string
  readonly user: { readonly object: string; readonly id: string }
}

/** The part of GitBook's client this test uses (its typings cannot be followed under NodeNext). */
interface GitBookClient {
  readonly orgs: {
    createOrganization(body: { title: string }): Promise<{ data: { id: string } }>
    createSpace(organizationId: string, body: { title?: string }): Promise<{ data: { id: string } }>
  }
  readonly spaces: {
    updateSpaceById(spaceId: string, body: { defaultLevel?: string | null }): Promise<{ status: number }>
    inviteToSpace(spaceId: string, body: { role: string | null; users?: Array<string>; teams?: Array<string> }): Promise<{ status: number }>
    listPermissionsAggregateInSpace(spaceId: string, query?: { role?: string; limit?: number }): Promise<{ data: { items: Array<Permission>; count?: number } }>
    removeUserFromSpace(spaceId: string, userId: string): Promise<{ status: number }>
  }
}

const roles = (items: ReadonlyArray<Permission>) => items.map((p) => [p.user.id, p.permission]).toSorted()

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`@gitbook/api permissions on ${backend.name}`, (it) => {
    it.effect("invites a member to a space and lists everyone's effective role", () =>
      Effect.gen(function*() {
        const endpoint = yield* baseUrl
        const gitbook = new GitBookAPI({ endpoint, authToken: adminToken }) as unknown as GitBookClient
        const admin = yield* client(adminToken)
        const bea = yield* newUser("Bea")
        const org = yield* Effect.promise(() => gitbook.orgs.createOrganization({ title: "Client Permissions" }))
        yield* admin.organizations.inviteUsersToOrganization({ params: { organizationId: org.data.id }, payload: { emails: [bea.email], role: "read" } })
        const result = yield* Effect.promise(async () => {
          const space = await gitbook.orgs.createSpace(org.data.id, { title: "Shared" })
          await gitbook.spaces.updateSpaceById(space.data.id, { defaultLevel: null })
          const before = await gitbook.spaces.listPermissionsAggregateInSpace(space.data.id)
          const invited = await gitbook.spaces.inviteToSpace(space.data.id, { role: "edit", users: [bea.user.id] })
          const after = await gitbook.spaces.listPermissionsAggregateInSpace(space.data.id)
          const editors = await gitbook.spaces.listPermissionsAggregateInSpace(space.data.id, { role: "edit" })
          const removed = await gitbook.spaces.removeUserFromSpace(space.data.id, bea.user.id)
          return { before, invited, after, editors, removed }
        })
        assert.deepStrictEqual(result.before.data.items.map((p) => p.user.id).includes(bea.user.id), false)
        assert.strictEqual(result.invited.status, 204)
        assert.isTrue(roles(result.after.data.items).some(([id, role]) => id === bea.user.id && role === "edit"))
        assert.strictEqual(result.after.data.items.every((p) => p.user.object === "user"), true)
        assert.deepStrictEqual(roles(result.editors.data.items), [[bea.user.id, "edit"]])
        assert.strictEqual(result.removed.status, 205)
      }))
  })
}
