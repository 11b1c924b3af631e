/**
 * The organization's agent making an edit a member asks for, with the test kit's scripted model:
 * a writer's "fix the typo" opens a change request in the space they may edit, as them, where the
 * change request's agent (its page tools, its write path) writes the fix; the answer links the
 * change request, GitBook's client lists the conversation with it, main is unchanged, and the
 * audit log has it on the writer's behalf. A reader who may edit no space is told so in words and
 * nothing is opened.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import type { ModelMessage, ModelReply, ModelRequest } from "@quire/testkit/ModelServer"
import { startModelServer } from "@quire/testkit/ModelServer"
import { baseUrl, type ContentChanges, memoryAndPostgres, mergeIntoMain, organizationWith, raw, withSettings } from "./Harness.ts"

const toolsOf = (request: ModelRequest) => new Set((request.tools ?? []).map((t) => t.function.name))
const toolResults = (request: ModelRequest): ReadonlyArray<ModelMessage> => request.messages.filter((m) => m.role === "tool")

/** The organization's agent picks the Runbook; the change request's agent lists, reads and writes the page. */
const script = (request: ModelRequest): ModelReply => {
  const tools = toolsOf(request)
  const results = toolResults(request)
  if (tools.has("editSpace")) {
    if (results.length > 0) return { text: "I fixed the typo in the Backups page." }
    const runbook = /- ([A-Za-z0-9_-]+): Runbook/.exec(request.messages[0]?.content ?? "")?.[1] ?? "missing"
    return { toolCalls: [{ name: "editSpace", arguments: { spaceId: runbook, subject: "Fix a typo in Backups", instructions: "In the page Backups, write \"night\" for \"nigth\"." } }] }
  }
  if (tools.has("writePage")) {
    const pageId = /^(\S+)\tBackups\t/m.exec(results[0]?.content ?? "")?.[1] ?? "missing"
    switch (results.length) {
      case 0:
        return { toolCalls: [{ name: "listPages", arguments: {} }] }
      case 1:
        return { toolCalls: [{ name: "readPage", arguments: { pageId } }] }
      case 2:
        return { toolCalls: [{ name: "writePage", arguments: { pageId, markdown: (results[1]?.content ?? "").replace("nigth", "night") } }] }
      default:
        return { text: "Fixed the typo." }
    }
  }
  return { text: "An answer from the pages." }
}
const model = await startModelServer(script)

const runbook: ContentChanges = [{ operation: "insert_page", title: "Backups", document: { markdown: "# Backups\n\nThe database is backed up every nigth at two.\n" } }]

interface Reply {
  readonly text: string
  readonly changeRequest?: { readonly space: string; readonly id: string; readonly number: number; readonly subject: string; readonly path: string }
}
interface Sent { readonly conversation: { readonly id: string }; readonly reply: Reply }

interface GitBookOrganizationAgent {
  readonly orgs: {
    listOrganizationAgentConversations(organizationId: string): Promise<{ data: { items: ReadonlyArray<{ readonly id: string; readonly changeRequest?: string }> } }>
  }
}
const gitbook = (endpoint: string, token: string) => new GitBookAPI({ endpoint, authToken: token }) as unknown as GitBookOrganizationAgent

const organization = Effect.gen(function*() {
  const { alice, organizationId, members } = yield* organizationWith(["read", "edit"])
  const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Runbook" } })
  yield* mergeIntoMain(alice.api, space.id, runbook)
  return { alice, organizationId, space, reader: members.read!, writer: members.edit! }
})

const send = (organizationId: string, token: string, message: string) =>
  raw("POST", `/v1/orgs/${organizationId}/agent/conversations/edits/messages`, { body: JSON.stringify({ message }), token })

for (const backend of memoryAndPostgres) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model" }), { timeout: 120_000, excludeTestServices: true })(`the organization's agent editing (${backend.name})`, (it) => {
    it.effect("makes a writer's edit in a change request it opens as them, and answers with its link", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space, writer } = yield* organization
        const sent = yield* send(organizationId, writer.token, "Fix the typo in the Backups page of the Runbook space")
        assert.strictEqual(sent.status, 200, JSON.stringify(sent.body))
        const { reply } = sent.body as Sent
        const cr = reply.changeRequest!
        assert.strictEqual(cr.space, space.id)
        assert.strictEqual(cr.subject, "Fix a typo in Backups")
        assert.strictEqual(cr.path, `/s/${space.id}/~/changes/${cr.number}`)
        assert.include(reply.text, `[#${cr.number} Fix a typo in Backups](/s/${space.id}/~/changes/${cr.number})`)

        // The change request is the writer's and holds the fix; main does not yet.
        const opened = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}`, { token: writer.token })
        assert.strictEqual((opened.body as { createdBy: { id: string } }).createdBy.id, writer.user.id)
        const inCr = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}/content/path/backups?format=markdown`, { token: writer.token })
        assert.include((inCr.body as { markdown: string }).markdown, "every night at two")
        const onMain = yield* raw("GET", `/v1/spaces/${space.id}/content/path/backups?format=markdown`, { token: writer.token })
        assert.include((onMain.body as { markdown: string }).markdown, "every nigth at two")

        // GitBook's client lists the conversation with the change request it edits in.
        const asWriter = gitbook(yield* baseUrl, writer.token)
        const listed = yield* Effect.promise(() => asWriter.orgs.listOrganizationAgentConversations(organizationId))
        assert.deepStrictEqual(listed.data.items.map((c) => [c.id, c.changeRequest]), [["edits", cr.id]])

        const events = yield* raw("GET", `/v1/orgs/${organizationId}/audit-events?action=organization.agent-edited`, { token: alice.token })
        const items = (events.body as { items: ReadonlyArray<{ actor: { id: string }; target: { id: string }; payload?: Record<string, unknown> }> }).items
        assert.deepStrictEqual(items.map((e) => [e.actor.id, e.target.id, e.payload?.["pages"], e.payload?.["agent"]]), [[writer.user.id, cr.id, 1, "organization-agent"]])
      }))

    it.effect("tells a reader who may edit no space that it changed nothing, and opens nothing", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space, reader } = yield* organization
        const sent = yield* send(organizationId, reader.token, "Fix the typo in the Backups page of the Runbook space")
        assert.strictEqual(sent.status, 200, JSON.stringify(sent.body))
        const { reply } = sent.body as Sent
        assert.isUndefined(reply.changeRequest)
        assert.include(reply.text, "I have changed nothing")
        const crs = yield* raw("GET", `/v1/spaces/${space.id}/change-requests?status=draft`, { token: alice.token })
        assert.deepStrictEqual((crs.body as { items: ReadonlyArray<unknown> }).items, [])
      }))
  })
}
