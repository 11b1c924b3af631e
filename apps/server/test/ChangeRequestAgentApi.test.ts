/**
 * The agent in a change request through the API: with the test kit's scripted model, a writer asks
 * and the agent adds a page to the change request as them; GitBook's client lists, renames and
 * deletes the conversation; the answer streamed as server-sent events ends with the conversation as
 * stored; "Write with AI" and "Improve" get text from the agent without writing; a reader may list
 * but not ask, an outsider finds nothing, and a server without a model answers 501 saying how to
 * set one.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { lastOf, type ModelReply, type ModelRequest, startModelServer } from "@quire/testkit/ModelServer"
import { backends, baseUrl, newUser, organizationWith, raw, withSettings } from "./Harness.ts"

const script = (request: ModelRequest): ModelReply =>
  (request.tools ?? []).length === 0 ? { text: lastOf(request, "user").startsWith("Rewrite") ? "Back up nightly." : "Restore from the last backup." }
    : request.messages.at(-1)?.role === "tool" ? { text: "I added the page Backups." }
    : lastOf(request, "user").includes("backups") ? { toolCalls: [{ name: "createPage", arguments: { title: "Backups", markdown: "Back up every night.\n" } }] }
    : { text: "Ask me to write something." }
const model = await startModelServer(script)

interface Conversation { readonly object: string; readonly id: string; readonly title?: string; readonly shared: boolean }
interface GitBookConversations {
  readonly spaces: {
    listChangeRequestConversations(spaceId: string, changeRequestId: string): Promise<{ data: { items: ReadonlyArray<Conversation> } }>
    updateChangeRequestConversation(spaceId: string, changeRequestId: string, conversationId: string, body: { title: string }): Promise<{ data: Conversation }>
    deleteChangeRequestConversation(spaceId: string, changeRequestId: string, conversationId: string): Promise<{ status: number }>
  }
}
const gitbook = (endpoint: string, token: string) => new GitBookAPI({ endpoint, authToken: token }) as unknown as GitBookConversations

/** An organization with a writer and a reader, a space and the writer's change request. */
const setup = Effect.gen(function*() {
  const { alice, organizationId, members } = yield* organizationWith(["edit", "read"])
  const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Runbook" } })
  const writer = members.edit!
  const cr = yield* writer.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Backups" } })
  return { space, cr, writer, reader: members.read! }
})

const ask = (spaceId: string, crId: string, token: string, message: string, conversation = "default") =>
  raw("POST", `/v1/spaces/${spaceId}/change-requests/${crId}/conversations/${conversation}/messages`, { body: JSON.stringify({ message }), token })

const stream = (spaceId: string, crId: string, token: string, message: string) =>
  raw("POST", `/v1/spaces/${spaceId}/change-requests/${crId}/conversations/default/messages/stream`, { body: JSON.stringify({ message }), token })

const compose = (spaceId: string, crId: string, token: string, body: object) =>
  raw("POST", `/v1/spaces/${spaceId}/change-requests/${crId}/agent/compose`, { body: JSON.stringify(body), token })

/** The `data:` events of a server-sent stream, parsed. */
const eventsOf = (text: unknown) =>
  String(text).split("\n\n").flatMap((block) => block.split("\n").filter((line) => line.startsWith("data:")).map((line) => JSON.parse(line.slice(5)) as { type: string; text?: string; tool?: string; reply?: { text: string }; conversation?: { messages: ReadonlyArray<unknown> } }))

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model" }), { timeout: 120_000, excludeTestServices: true })(`the change request's agent (${backend.name})`, (it) => {
    it.effect("adds a page as the writer who asked; GitBook's client lists, renames and deletes the conversation", () =>
      Effect.gen(function*() {
        const { space, cr, writer } = yield* setup
        const sent = yield* ask(space.id, cr.id, writer.token, "Please add a page about backups")
        assert.strictEqual(sent.status, 200, JSON.stringify(sent.body))
        const body = sent.body as { reply: { text: string; edits: ReadonlyArray<{ kind: string; page: string; title: string }> }; conversation: { id: string; messages: ReadonlyArray<unknown> } }
        assert.strictEqual(body.reply.text, "I added the page Backups.")
        assert.deepStrictEqual(body.reply.edits.map((e) => [e.kind, e.title]), [["created", "Backups"]])
        assert.strictEqual(body.conversation.messages.length, 2)
        const page = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${body.reply.edits[0]!.page}?format=markdown`, { token: writer.token })
        assert.strictEqual((page.body as { markdown?: string }).markdown, "Back up every night.\n")

        const endpoint = yield* baseUrl
        const client = gitbook(endpoint, writer.token)
        const listed = yield* Effect.promise(() => client.spaces.listChangeRequestConversations(space.id, cr.id))
        assert.deepStrictEqual(listed.data.items.map((c) => [c.object, c.id, c.title, c.shared]), [["agent-conversation", "default", "Please add a page about backups", true]])
        const renamed = yield* Effect.promise(() => client.spaces.updateChangeRequestConversation(space.id, cr.id, "default", { title: "Backups page" }))
        assert.strictEqual(renamed.data.title, "Backups page")
        const deleted = yield* Effect.promise(() => client.spaces.deleteChangeRequestConversation(space.id, cr.id, "default"))
        assert.strictEqual(deleted.status, 205)
        const after = yield* Effect.promise(() => client.spaces.listChangeRequestConversations(space.id, cr.id))
        assert.deepStrictEqual(after.data.items, [])
        // The agent's page stays in the change request.
        const pages = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: writer.token })
        assert.include(JSON.stringify(pages.body), "Backups")
      }))

    it.effect("streams the answer's words, then the conversation as stored; composes text for an editor only", () =>
      Effect.gen(function*() {
        const { space, cr, writer, reader } = yield* setup
        const streamed = yield* stream(space.id, cr.id, writer.token, "Please add a page about backups")
        assert.strictEqual(streamed.status, 200)
        const events = eventsOf(streamed.body)
        assert.deepStrictEqual(events.filter((e) => e.type === "tool").map((e) => e.tool), ["createPage"])
        const words = events.flatMap((e) => (e.type === "text" ? [e.text!] : []))
        assert.isAbove(words.length, 1)
        assert.strictEqual(words.at(-1), "I added the page Backups.")
        const done = events.at(-1)!
        assert.strictEqual(done.type, "done")
        assert.strictEqual(done.reply!.text, "I added the page Backups.")
        // The same conversation as stored, read back.
        const stored = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}/conversations/default`, { token: writer.token })
        assert.deepStrictEqual((stored.body as { messages: ReadonlyArray<unknown> }).messages, done.conversation!.messages)
        // Refused before the model is asked: an answer, not an event.
        assert.strictEqual((yield* stream(space.id, cr.id, reader.token, "hello")).status, 403)

        const written = yield* compose(space.id, cr.id, writer.token, { prompt: "how to restore", page: "# Backups\n" })
        assert.strictEqual(written.status, 200, JSON.stringify(written.body))
        assert.deepStrictEqual(written.body, { markdown: "Restore from the last backup." })
        const improved = yield* compose(space.id, cr.id, writer.token, { prompt: "Improve", selection: "backups are done nightly" })
        assert.deepStrictEqual(improved.body, { markdown: "Back up nightly." })
        assert.strictEqual((yield* compose(space.id, cr.id, reader.token, { prompt: "how to restore" })).status, 403)
        const empty = yield* compose(space.id, cr.id, writer.token, { prompt: "" })
        assert.strictEqual(empty.status, 400)
        assert.include(JSON.stringify(empty.body), "prompt")
      }))

    it.effect("lets a reader list but not ask, finds nothing for an outsider, and refuses bad input naming the field", () =>
      Effect.gen(function*() {
        const { space, cr, writer, reader } = yield* setup
        yield* ask(space.id, cr.id, writer.token, "hello")
        const refused = yield* ask(space.id, cr.id, reader.token, "Please add a page about backups")
        assert.strictEqual(refused.status, 403)
        const listed = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}/conversations`, { token: reader.token })
        assert.strictEqual(listed.status, 200)
        assert.strictEqual((listed.body as { items: ReadonlyArray<unknown> }).items.length, 1)
        const outsider = yield* newUser("Outsider")
        const hidden = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}/conversations`, { token: outsider.token })
        assert.strictEqual(hidden.status, 404)
        const empty = yield* ask(space.id, cr.id, writer.token, "")
        assert.strictEqual(empty.status, 400)
        assert.include(JSON.stringify(empty.body), "message")
        const badId = yield* ask(space.id, cr.id, writer.token, "hello", "not%20an%20id")
        assert.strictEqual(badId.status, 400)
      }))
  })

  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`the change request's agent without a model (${backend.name})`, (it) => {
    it.effect("answers 501 saying how to set a model", () =>
      Effect.gen(function*() {
        const { space, cr, writer } = yield* setup
        const refused = yield* ask(space.id, cr.id, writer.token, "Please add a page about backups")
        assert.strictEqual(refused.status, 501)
        assert.include(JSON.stringify(refused.body), "QUIRE_AI_URL")
        const streamed = yield* stream(space.id, cr.id, writer.token, "Please add a page about backups")
        assert.strictEqual(streamed.status, 501)
        assert.include(JSON.stringify(streamed.body), "QUIRE_AI_URL")
        const composed = yield* compose(space.id, cr.id, writer.token, { prompt: "how to restore" })
        assert.strictEqual(composed.status, 501)
        assert.include(JSON.stringify(composed.body), "QUIRE_AI_URL")
      }))
  })
}
