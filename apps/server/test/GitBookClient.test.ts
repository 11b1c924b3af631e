/** GitBook's own client (`@gitbook/api`) pointed at Quire: the compatibility promise. */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { adminEmail, adminToken, memoryAndPostgres, baseUrl } from "./Harness.ts"

/**
 * The part of GitBook's client this test uses. Its published typings import `./client` without an
 * extension, which NodeNext resolution cannot follow, so the methods are typed here.
 */
interface GitBookClient {
  readonly user: { getAuthenticatedUser(): Promise<{ data: { id: string; email?: string } }> }
  readonly orgs: {
    createOrganization(body: { title: string }): Promise<{ data: { id: string; title: string } }>
    getOrganizationById(id: string): Promise<{ data: { id: string } }>
    listMembersInOrganizationById(id: string): Promise<{ data: { items: Array<{ user: { id: string }; role: string | null }> } }>
    listOrganizationsForAuthenticatedUser(): Promise<{ data: { items: Array<{ id: string }> } }>
  }
}

const connect = (endpoint: string): GitBookClient =>
  new GitBookAPI({ endpoint, authToken: adminToken }) as unknown as GitBookClient

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`@gitbook/api on ${backend.name}`, (it) => {
    it.effect("creates an organization and lists its members", () =>
      Effect.gen(function*() {
        const endpoint = yield* baseUrl
        const gitbook = connect(endpoint)
        const result = yield* Effect.promise(async () => {
          const { data: user } = await gitbook.user.getAuthenticatedUser()
          const { data: org } = await gitbook.orgs.createOrganization({ title: "Compat Docs" })
          const { data: members } = await gitbook.orgs.listMembersInOrganizationById(org.id)
          const { data: orgs } = await gitbook.orgs.listOrganizationsForAuthenticatedUser()
          return { user, org, members, orgs }
        })
        assert.strictEqual(result.user.email, adminEmail)
        assert.strictEqual(result.org.title, "Compat Docs")
        assert.deepStrictEqual(result.members.items.map((m) => [m.user.id, m.role]), [[result.user.id, "admin"]])
        assert.isTrue(result.orgs.items.some((o) => o.id === result.org.id))
      }))

    it.effect("surfaces Quire's error message through GitBookAPIError", () =>
      Effect.gen(function*() {
        const endpoint = yield* baseUrl
        const gitbook = connect(endpoint)
        const message = yield* Effect.promise(() =>
          gitbook.orgs.getOrganizationById("doesNotExist").then(() => "no error", (error: Error) => error.message)
        )
        assert.match(message, /not found/i)
      }))
  })
}
