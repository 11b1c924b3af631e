/**
 * The change request's agent asked as a reviewer through GitBook's own operation and client
 * (`requestReviewersForChangeRequest` with the user `agent`): it is listed among the requested
 * reviewers with where its review stands, its review runs in the background as the person who
 * asked (comments anchored on the page, marked as the agent's, posted as them, audited), and it can
 * be withdrawn as a person's request. A member who may not edit is refused; without a model the
 * request is a 400 naming the field and saying what to set, never a 500.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect, Schedule } from "effect"
import { type ModelRequest, type ModelReply, startModelServer } from "@quire/testkit/ModelServer"
import { baseUrl, memoryAndPostgres, organizationWith, raw, withSettings } from "./Harness.ts"

interface Requested {
  readonly kind: string
  readonly user: { readonly id: string; readonly displayName: string }
  readonly requestedBy: { readonly id: string }
  readonly agentReview?: { readonly status: string; readonly comments: number; readonly message?: string }
}

/** The part of GitBook's own client used here (its published typings do not resolve under NodeNext). */
interface GitBookReviewers {
  readonly spaces: {
    requestReviewersForChangeRequest(spaceId: string, changeRequestId: string, body: { users: Array<string> }): Promise<{ data: { users: Array<Requested> } }>
    getRequestedReviewersByChangeRequestId(spaceId: string, changeRequestId: string): Promise<{ data: { items: Array<Requested> } }>
    removeRequestedReviewerFromChangeRequest(spaceId: string, changeRequestId: string, userId: string): Promise<{ status: number }>
  }
}

const gitbook = (endpoint: string, token: string) => new GitBookAPI({ endpoint, authToken: token }) as unknown as GitBookReviewers

const script = (request: ModelRequest): ModelReply => {
  const system = request.messages[0]?.content ?? ""
  if (request.messages.at(-1)?.role === "tool") return { text: "One point to fix; the rest reads well." }
  const page = /Added the page "Backups" \(id ([^,]+),/.exec(system)?.[1] ?? "missing"
  return { toolCalls: [{ name: "comment", arguments: { pageId: page, quote: "every night at", comment: "Say which time zone." } }] }
}
const model = await startModelServer(script)

const setup = Effect.gen(function*() {
  const { alice, organizationId, members } = yield* organizationWith(["edit", "read", "review"])
  const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Runbook" } })
  const writer = members.edit!
  const cr = yield* writer.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Backups" } })
  yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
    token: writer.token,
    body: JSON.stringify({ changes: [{ operation: "insert_page", title: "Backups", document: { markdown: "# Backups\n\nThe database is backed up **every night at** two.\n" } }] })
  })
  return { alice, organizationId, space, cr, writer, reader: members.read!, reviewer: members.review! }
})

for (const backend of memoryAndPostgres) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model" }), { timeout: 120_000, excludeTestServices: true })(`the agent as a requested reviewer (${backend.name})`, (it) => {
    it.effect("GitBook's client asks the agent beside a person; its review runs in the background as the asker and is listed with its status", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space, cr, writer, reviewer } = yield* setup
        const asWriter = gitbook(yield* baseUrl, writer.token)
        const requested = yield* Effect.promise(() => asWriter.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: ["agent", reviewer.user.id] }))
        const asked = requested.data.users.find((r) => r.user.id === "agent")
        assert.deepStrictEqual([asked?.kind, asked?.user.displayName, asked?.requestedBy.id], ["user", "Agent", writer.user.id])
        assert.include(["pending", "running", "done"], asked?.agentReview?.status)
        assert.isTrue(requested.data.users.some((r) => r.user.id === reviewer.user.id))

        // Wait on what /v1 holds: the agent's request, done.
        const done = yield* Effect.promise(() => asWriter.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).pipe(
          Effect.map((listed) => listed.data.items.find((r) => r.user.id === "agent")),
          Effect.flatMap((agent) => agent?.agentReview?.status === "done" || agent?.agentReview?.status === "failed" ? Effect.succeed(agent) : Effect.fail("not yet")),
          Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 })
        )
        assert.deepStrictEqual(done.agentReview, { status: "done", comments: 1, message: "One point to fix; the rest reads well." })

        const listed = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, { token: writer.token })
        const comments = (listed.body as { items: ReadonlyArray<{ body: unknown; postedBy: { id: string }; target?: { node?: { id: string } } }> }).items
        const anchored = comments.find((c) => JSON.stringify(c.body).includes("Say which time zone."))
        assert.include(JSON.stringify(anchored?.body), "Agent review:")
        assert.strictEqual(anchored?.postedBy.id, writer.user.id)
        assert.match(anchored?.target?.node?.id ?? "", /every%20night%20at$/)

        const events = yield* raw("GET", `/v1/orgs/${organizationId}/audit-events?action=change-request.agent-reviewed`, { token: alice.token })
        const items = (events.body as { items: ReadonlyArray<{ actor: { id: string }; target: { id: string }; payload?: Record<string, unknown> }> }).items
        assert.deepStrictEqual(items.map((e) => [e.actor.id, e.target.id, e.payload?.["comments"], e.payload?.["agent"]]), [[writer.user.id, cr.id, 1, "change-request-agent"]])

        // Withdrawn as a person's request is: 205, then gone from the list.
        const removed = yield* Effect.promise(() => asWriter.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, "agent"))
        assert.strictEqual(removed.status, 205)
        const after = yield* Effect.promise(() => asWriter.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id))
        assert.deepStrictEqual(after.data.items.map((r) => r.user.id), [reviewer.user.id])
      }))

    it.effect("a member who may not edit the change request may not ask the agent", () =>
      Effect.gen(function*() {
        const { space, cr, reader } = yield* setup
        const refused = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, { token: reader.token, body: JSON.stringify({ users: ["agent"] }) })
        assert.strictEqual(refused.status, 403, JSON.stringify(refused.body))
      }))
  })

  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`the agent as a requested reviewer without a model (${backend.name})`, (it) => {
    it.effect("asking the agent is a 400 naming the field and what to set; nothing is requested", () =>
      Effect.gen(function*() {
        const { space, cr, writer, reviewer } = yield* setup
        const refused = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, {
          token: writer.token,
          body: JSON.stringify({ users: [reviewer.user.id, "agent"] })
        })
        assert.strictEqual(refused.status, 400, JSON.stringify(refused.body))
        const error = (refused.body as { error: { code: number; message: string } }).error
        assert.strictEqual(error.code, 400)
        assert.include(error.message, "users[1]")
        assert.include(error.message, "QUIRE_AI_URL")
        const listed = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, { token: writer.token })
        assert.deepStrictEqual((listed.body as { items: ReadonlyArray<unknown> }).items, [])
      }))
  })
}
