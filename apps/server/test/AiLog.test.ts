/**
 * The organization's AI log: every model call made on its behalf is kept for its admins, with the
 * prompt it was sent (the instructions and the passages retrieved), what the model answered and
 * the conversation it was part of; a member who is not an admin is refused, an outsider finds
 * nothing, and another organization's calls are never listed.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { lastOf, type ModelRequest, startModelServer } from "@quire/testkit/ModelServer"
import { backends, type ContentChanges, errorCode, mergeIntoMain, newUser, organizationWith, raw, withSettings } from "./Harness.ts"

const model = await startModelServer((request: ModelRequest) => ({ text: `About "${lastOf(request, "user")}": install the client [1].` }))

const handbook: ContentChanges = [
  { operation: "insert_page", title: "Remote access", document: { markdown: "## Connect to the VPN\n\nInstall the VPN client, then sign in with your badge number.\n" } }
]

interface Call {
  readonly object: string
  readonly conversation?: string
  readonly purpose: string
  readonly model: string
  readonly prompt: ReadonlyArray<{ readonly role: string; readonly content: string }>
  readonly answer: string
  readonly tokens: number
  readonly createdAt: string
}
interface Calls { readonly items: ReadonlyArray<Call>; readonly next?: { readonly page: string } }

const calls = (organizationId: string, token: string, query = "") => raw("GET", `/v1/orgs/${organizationId}/ai/calls${query}`, { token })

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "log-model" }), { timeout: 120_000, excludeTestServices: true })(`the AI log (${backend.name})`, (it) => {
    it.effect("keeps each call for the organization's admins: its prompt with the passages, its answer, its conversation", () =>
      Effect.gen(function*() {
        const { alice, organizationId, members } = yield* organizationWith(["read"])
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Handbook" } })
        yield* mergeIntoMain(alice.api, space.id, handbook)
        for (let i = 0; i < 100; i++) {
          const found = yield* alice.api.search.searchOrganizationContent({ params: { organizationId }, query: { query: "vpn" } })
          if (found.items.length > 0) break
          yield* Effect.sleep("100 millis")
        }
        const reader = members.read!
        // The organization's agent, in a conversation of the reader's; then the organization's Ask, once.
        const sent = yield* raw("POST", `/v1/orgs/${organizationId}/agent/conversations/c1/messages`, { body: JSON.stringify({ message: "How do I connect to the VPN?" }), token: reader.token })
        assert.strictEqual(sent.status, 200, JSON.stringify(sent.body))
        const asked = yield* raw("POST", `/v1/orgs/${organizationId}/ask?format=markdown`, { body: JSON.stringify({ query: "Where is the VPN client?" }), token: reader.token })
        assert.strictEqual(asked.status, 200, JSON.stringify(asked.body))

        const listed = yield* calls(organizationId, alice.token)
        assert.strictEqual(listed.status, 200, JSON.stringify(listed.body))
        const all = (listed.body as Calls).items
        assert.deepStrictEqual(all.map((c) => c.purpose), ["ask", "organization-agent"])
        const [ask, agent] = all
        assert.strictEqual(agent!.conversation, `${reader.user.id}:c1`)
        assert.isUndefined(ask!.conversation)
        assert.strictEqual(agent!.model, "log-model")
        // What reached the model: the passage retrieved and the question; what it answered.
        const sentText = agent!.prompt.map((m) => m.content).join("\n")
        assert.include(sentText, "badge number")
        assert.include(sentText, "How do I connect to the VPN?")
        assert.strictEqual(agent!.answer, `About "How do I connect to the VPN?": install the client [1].`)
        assert.isAbove(agent!.tokens, 0)
        assert.isAtLeast(Date.parse(ask!.createdAt), Date.parse(agent!.createdAt))

        // One conversation's calls; a page at a time.
        const one = yield* calls(organizationId, alice.token, `?conversation=${encodeURIComponent(`${reader.user.id}:c1`)}`)
        assert.deepStrictEqual((one.body as Calls).items.map((c) => c.purpose), ["organization-agent"])
        const first = yield* calls(organizationId, alice.token, "?limit=1")
        const page = (first.body as Calls).next?.page
        assert.isDefined(page)
        const rest = yield* calls(organizationId, alice.token, `?limit=1&page=${encodeURIComponent(page!)}`)
        assert.deepStrictEqual((rest.body as Calls).items.map((c) => c.purpose), ["organization-agent"])

        // A member who is not an admin is refused; an outsider finds nothing; another organization's log is its own.
        assert.strictEqual(errorCode((yield* calls(organizationId, reader.token)).body), 403)
        const outsider = yield* newUser("Mallory")
        assert.strictEqual((yield* calls(organizationId, outsider.token)).status, 404)
        const other = yield* organizationWith([])
        const theirs = yield* calls(other.organizationId, other.alice.token)
        assert.deepStrictEqual((theirs.body as Calls).items, [])
        assert.strictEqual((yield* calls(organizationId, alice.token, "?limit=0")).status, 400)
      }))
  })
}
