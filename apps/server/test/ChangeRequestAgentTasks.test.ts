/**
 * The change request's agent writing its subject and description, and reviewing it, through the
 * API with the test kit's scripted model: the details come from the diff and are written as the
 * person who asked; the review's comments are anchored on the quoted words of the page, marked as
 * the agent's, posted through the comments' own path as the person, and in the audit log. Without a
 * model both answer 501 saying how to set one; a reader may not have the details written.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { lastOf, type ModelRequest, type ModelReply, startModelServer } from "@quire/testkit/ModelServer"
import { backends, newUser, organizationWith, raw, withSettings } from "./Harness.ts"

const script = (request: ModelRequest): ModelReply => {
  const system = request.messages[0]?.content ?? ""
  const tool = request.messages.at(-1)?.role === "tool"
  if (request.tools?.some((t) => t.function.name === "setChangeRequestDetails") === true) {
    return tool ? { text: "Done." } : { toolCalls: [{ name: "setChangeRequestDetails", arguments: { subject: "Document nightly backups", description: "Adds a page on **backups**: when they run and where they go." } }] }
  }
  if (tool) return { text: "One point to fix; the rest reads well." }
  const page = /Added the page "Backups" \(id ([^,]+),/.exec(system)?.[1] ?? "missing"
  return { toolCalls: [{ name: "comment", arguments: { pageId: page, quote: "every night at", comment: "Say which time zone." } }] }
}
const model = await startModelServer(script)

const setup = Effect.gen(function*() {
  const { alice, organizationId, members } = yield* organizationWith(["edit", "read", "review"])
  const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Runbook" } })
  const writer = members.edit!
  const cr = yield* writer.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "" } })
  yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
    token: writer.token,
    body: JSON.stringify({ changes: [{ operation: "insert_page", title: "Backups", document: { markdown: "# Backups\n\nThe database is backed up **every night at** two.\n" } }] })
  })
  return { alice, organizationId, space, cr, writer, reader: members.read!, reviewer: members.review! }
})

const post = (path: string, token: string) => raw("POST", path, { token })

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model" }), { timeout: 120_000, excludeTestServices: true })(`the change request's agent tasks (${backend.name})`, (it) => {
    it.effect("writes the subject and description from the diff, as the writer who asked", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space, cr, writer, reader } = yield* setup
        const written = yield* post(`/v1/spaces/${space.id}/change-requests/${cr.id}/agent/details`, writer.token)
        assert.strictEqual(written.status, 200, JSON.stringify(written.body))
        assert.strictEqual((written.body as { subject: string }).subject, "Document nightly backups")
        // The model read the diff: the page added and its text.
        assert.include(model.requests.at(-2)!.messages[0]!.content ?? "", "every night at")
        const read = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}`, { token: reader.token })
        assert.include(JSON.stringify((read.body as { description?: unknown }).description), "when they run and where they go")
        const refused = yield* post(`/v1/spaces/${space.id}/change-requests/${cr.id}/agent/details`, reader.token)
        assert.strictEqual(refused.status, 403)
        const events = yield* raw("GET", `/v1/orgs/${organizationId}/audit-events?action=change-request.agent-described`, { token: alice.token })
        const items = (events.body as { items: ReadonlyArray<{ actor: { id: string }; target: { id: string } }> }).items
        assert.deepStrictEqual(items.map((e) => [e.actor.id, e.target.id]), [[writer.user.id, cr.id]])
      }))

    it.effect("reviews: comments anchored on the quoted words, marked as the agent's, posted as the person, in the audit log", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space, cr, reviewer: reader } = yield* setup
        const reviewed = yield* post(`/v1/spaces/${space.id}/change-requests/${cr.id}/agent/review`, reader.token)
        assert.strictEqual(reviewed.status, 200, JSON.stringify(reviewed.body))
        const result = reviewed.body as { comments: ReadonlyArray<{ id: string; page: string; quote: string }>; summary: string }
        assert.strictEqual(result.comments.length, 1)
        assert.strictEqual(result.summary, "One point to fix; the rest reads well.")
        const listed = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, { token: reader.token })
        const comments = (listed.body as { items: ReadonlyArray<{ id: string; body: unknown; postedBy: { id: string }; target?: { page?: { id: string }; node?: { id: string } } }> }).items
        const anchored = comments.find((c) => c.id === result.comments[0]!.id)!
        assert.include(JSON.stringify(anchored.body), "Agent review:")
        assert.include(JSON.stringify(anchored.body), "Say which time zone.")
        assert.strictEqual(anchored.postedBy.id, reader.user.id)
        assert.strictEqual(anchored.target?.page?.id, result.comments[0]!.page)
        assert.match(anchored.target?.node?.id ?? "", /^qa1:0:[0-9a-z]+:26:14:every%20night%20at$/)
        assert.isTrue(comments.some((c) => JSON.stringify(c.body).includes("One point to fix")))
        const events = yield* raw("GET", `/v1/orgs/${organizationId}/audit-events?action=change-request.agent-reviewed`, { token: alice.token })
        const items = (events.body as { items: ReadonlyArray<{ actor: { id: string }; payload?: Record<string, unknown> }> }).items
        assert.deepStrictEqual(items.map((e) => [e.actor.id, e.payload?.["comments"]]), [[reader.user.id, 1]])
        const outsider = yield* newUser("Outsider")
        assert.strictEqual((yield* post(`/v1/spaces/${space.id}/change-requests/${cr.id}/agent/review`, outsider.token)).status, 404)
        assert.strictEqual(lastOf(model.requests.at(-1)!, "user"), "Review this change request.")
      }))
  })

  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`the change request's agent tasks without a model (${backend.name})`, (it) => {
    it.effect("answers 501 saying how to set a model", () =>
      Effect.gen(function*() {
        const { space, cr, writer } = yield* setup
        for (const task of ["details", "review"]) {
          const refused = yield* post(`/v1/spaces/${space.id}/change-requests/${cr.id}/agent/${task}`, writer.token)
          assert.strictEqual(refused.status, 501, task)
          assert.include(JSON.stringify(refused.body), "QUIRE_AI_URL")
        }
      }))
  })
}
