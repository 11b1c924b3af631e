/**
 * The organization's agent through the API: with the test kit's scripted model, a member's
 * question is answered from the pages they may read, with the conversation so far and the
 * organization's agent instructions; GitBook's client provisions, lists, renames and deletes the
 * conversation; another member sees none of it, an outsider finds nothing; without a model the
 * answer quotes the passages found, with their pages.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { lastOf, type ModelRequest, startModelServer } from "@quire/testkit/ModelServer"
import { backends, baseUrl, type ContentChanges, inviteAndAccept, mergeIntoMain, newUser, organizationWith, raw, withSettings } from "./Harness.ts"

const model = await startModelServer((request: ModelRequest) =>
  ({ text: `You asked: ${lastOf(request, "user")} Install the client [1].` }))

interface Conversation { readonly object: string; readonly id: string; readonly title?: string; readonly shared: boolean }
interface GitBookOrganizationAgent {
  readonly orgs: {
    listOrganizationAgentConversations(organizationId: string): Promise<{ data: { items: ReadonlyArray<Conversation> } }>
    provisionOrganizationAgentConversation(organizationId: string, conversationId: string): Promise<{ status: number }>
    updateOrganizationAgentConversation(organizationId: string, conversationId: string, body: { title: string }): Promise<{ data: Conversation }>
    deleteOrganizationAgentConversation(organizationId: string, conversationId: string): Promise<{ status: number }>
  }
}
const gitbook = (endpoint: string, token: string) => new GitBookAPI({ endpoint, authToken: token }) as unknown as GitBookOrganizationAgent

interface Message { readonly role: string; readonly text: string; readonly byModel?: boolean; readonly sources?: ReadonlyArray<{ readonly space: string; readonly title: string }> }
interface Sent { readonly conversation: { readonly id: string; readonly title?: string; readonly messages: ReadonlyArray<Message> }; readonly reply: Message }

const handbook: ContentChanges = [
  { operation: "insert_page", title: "Remote access", document: { markdown: "## Connect to the VPN\n\nInstall the VPN client, then sign in with your badge number.\n" } }
]
const board: ContentChanges = [{ operation: "insert_page", title: "VPN budget", document: { markdown: "The VPN contract costs 40,000 a year.\n" } }]

/** An organization with a reader and an editor, its handbook and a board only admins read, both indexed. */
const organization = Effect.gen(function*() {
  const { alice, organizationId, members } = yield* organizationWith(["read", "edit"])
  const open = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Handbook" } })
  const closed = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Board" } })
  yield* alice.api.spaces.updateSpaceById({ params: { spaceId: closed.id }, payload: { defaultLevel: null } })
  yield* mergeIntoMain(alice.api, open.id, handbook)
  yield* mergeIntoMain(alice.api, closed.id, board)
  for (let i = 0; i < 100; i++) {
    const found = yield* alice.api.search.searchOrganizationContent({ params: { organizationId }, query: { query: "vpn" } })
    if (found.items.length === 2) break
    yield* Effect.sleep("100 millis")
  }
  return { alice, organizationId, open, reader: members.read!, colleague: members.edit! }
})

const send = (organizationId: string, token: string, message: string, conversation = "c1") =>
  raw("POST", `/v1/orgs/${organizationId}/agent/conversations/${conversation}/messages`, { body: JSON.stringify({ message }), token })

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model" }), { timeout: 120_000, excludeTestServices: true })(`the organization's agent (${backend.name})`, (it) => {
    it.effect("answers a member from what they may read; GitBook's client provisions, lists, renames and deletes the conversation", () =>
      Effect.gen(function*() {
        const { alice, organizationId, open, reader } = yield* organization
        yield* raw("PUT", `/v1/orgs/${organizationId}/agent-instructions`, { body: JSON.stringify({ instructions: { object: "document", data: {}, nodes: [{ object: "block", type: "paragraph", data: {}, nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Answer in one sentence.", marks: [] }] }] }] } }), token: alice.token })
        const endpoint = yield* baseUrl
        const client = gitbook(endpoint, reader.token)
        const provisioned = yield* Effect.promise(() => client.orgs.provisionOrganizationAgentConversation(organizationId, "c1"))
        assert.strictEqual(provisioned.status, 204)
        // Provisioning records nothing: the conversation is kept from its first message.
        assert.deepStrictEqual((yield* Effect.promise(() => client.orgs.listOrganizationAgentConversations(organizationId))).data.items, [])

        const first = yield* send(organizationId, reader.token, "How do I connect to the VPN?")
        assert.strictEqual(first.status, 200, JSON.stringify(first.body))
        const sent = first.body as Sent
        assert.strictEqual(sent.reply.text, "You asked: How do I connect to the VPN? Install the client [1].")
        assert.isTrue(sent.reply.byModel)
        assert.deepStrictEqual(sent.reply.sources?.map((s) => [s.space, s.title]), [[open.id, "Remote access"]])
        const prompt = model.requests.at(-1)!.messages[0]!.content ?? ""
        assert.include(prompt, "badge number")
        assert.notInclude(prompt, "40,000")
        assert.include(prompt, "Answer in one sentence.")

        // A second message is sent with what was said before.
        const second = yield* send(organizationId, reader.token, "And then?")
        assert.strictEqual(second.status, 200, JSON.stringify(second.body))
        const asked = model.requests.at(-1)!.messages.map((m) => [m.role, m.content])
        assert.deepStrictEqual(asked.slice(1), [
          ["user", "How do I connect to the VPN?"],
          ["assistant", "You asked: How do I connect to the VPN? Install the client [1]."],
          ["user", "And then?"]
        ])
        const read = yield* raw("GET", `/v1/orgs/${organizationId}/agent/conversations/c1`, { token: reader.token })
        assert.strictEqual((read.body as Sent["conversation"]).messages.length, 4)

        const listed = yield* Effect.promise(() => client.orgs.listOrganizationAgentConversations(organizationId))
        assert.deepStrictEqual(listed.data.items.map((c) => [c.object, c.id, c.title, c.shared]), [["agent-conversation", "c1", "How do I connect to the VPN?", false]])
        const renamed = yield* Effect.promise(() => client.orgs.updateOrganizationAgentConversation(organizationId, "c1", { title: "VPN" }))
        assert.strictEqual(renamed.data.title, "VPN")
        const deleted = yield* Effect.promise(() => client.orgs.deleteOrganizationAgentConversation(organizationId, "c1"))
        assert.strictEqual(deleted.status, 205)
        assert.deepStrictEqual((yield* Effect.promise(() => client.orgs.listOrganizationAgentConversations(organizationId))).data.items, [])
        const again = yield* raw("DELETE", `/v1/orgs/${organizationId}/agent/conversations/c1`, { token: reader.token })
        assert.strictEqual(again.status, 404)
      }))

    it.effect("keeps a conversation its member's own, finds nothing for an outsider, and refuses bad input naming the field", () =>
      Effect.gen(function*() {
        const { organizationId, reader, colleague } = yield* organization
        yield* send(organizationId, reader.token, "How do I connect to the VPN?", "mine")
        const theirs = yield* raw("GET", `/v1/orgs/${organizationId}/agent/conversations`, { token: colleague.token })
        assert.deepStrictEqual((theirs.body as { items: ReadonlyArray<unknown> }).items, [])
        for (const [method, body] of [["GET", undefined], ["PATCH", JSON.stringify({ title: "Mine now" })], ["DELETE", undefined]] as const) {
          const tried = yield* raw(method, `/v1/orgs/${organizationId}/agent/conversations/mine`, { token: colleague.token, ...(body === undefined ? {} : { body }) })
          assert.strictEqual(tried.status, 404, `${method} ${JSON.stringify(tried.body)}`)
        }
        // The same id is the colleague's own conversation, apart from the reader's.
        const own = yield* send(organizationId, colleague.token, "Where is the canteen?", "mine")
        assert.strictEqual((own.body as Sent).conversation.messages.length, 2)
        const still = yield* raw("GET", `/v1/orgs/${organizationId}/agent/conversations/mine`, { token: reader.token })
        assert.strictEqual((still.body as Sent["conversation"]).title, "How do I connect to the VPN?")

        const outsider = yield* newUser("Outsider")
        assert.strictEqual((yield* raw("GET", `/v1/orgs/${organizationId}/agent/conversations`, { token: outsider.token })).status, 404)
        assert.strictEqual((yield* raw("PUT", `/v1/orgs/${organizationId}/agent/conversations/x`, { token: outsider.token })).status, 404)
        assert.strictEqual((yield* send(organizationId, outsider.token, "vpn")).status, 404)
        const empty = yield* send(organizationId, reader.token, "")
        assert.strictEqual(empty.status, 400)
        assert.include(JSON.stringify(empty.body), "message")
        const badId = yield* raw("PUT", `/v1/orgs/${organizationId}/agent/conversations/not%20an%20id`, { token: reader.token })
        assert.strictEqual(badId.status, 400)
        assert.include(JSON.stringify(badId.body), "conversationId")
      }))

    it.effect("a member who leaves takes their conversations with them", () =>
      Effect.gen(function*() {
        const { alice, organizationId, reader } = yield* organization
        yield* send(organizationId, reader.token, "How do I connect to the VPN?", "gone")
        assert.strictEqual((yield* raw("DELETE", `/v1/orgs/${organizationId}/members/${reader.user.id}`, { token: alice.token })).status < 300, true)
        yield* inviteAndAccept(alice.api, organizationId, reader, "read")
        const listed = yield* raw("GET", `/v1/orgs/${organizationId}/agent/conversations`, { token: reader.token })
        assert.deepStrictEqual((listed.body as { items: ReadonlyArray<unknown> }).items, [])
      }))
  })

  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`the organization's agent without a model (${backend.name})`, (it) => {
    it.effect("answers with the passages found and their pages", () =>
      Effect.gen(function*() {
        const { organizationId, reader, open } = yield* organization
        const sent = yield* send(organizationId, reader.token, "vpn client badge")
        assert.strictEqual(sent.status, 200, JSON.stringify(sent.body))
        const { reply } = sent.body as Sent
        assert.isFalse(reply.byModel)
        assert.include(reply.text, "No language model is set up on this server")
        assert.deepStrictEqual(reply.sources?.map((s) => [s.space, s.title]), [[open.id, "Remote access"]])
      }))
  })
}
