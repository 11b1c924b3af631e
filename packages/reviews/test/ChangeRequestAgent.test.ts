/**
 * The agent in a change request over the memory adapters and the test kit's scripted model: asked
 * to add a page, it calls its tool and the page is in the change request, written as the person who
 * asked; asked to edit one, it reads it first and writes it; each answer keeps its edits; a reader
 * may not send, another's private conversation is not there, and without a model sending says how
 * to set one.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { as, errorTag } from "@quire/testkit"
import { lastOf, type ModelReply, type ModelRequest, startModelServer } from "@quire/testkit/ModelServer"
import { OpenAiCompatible } from "@quire/outbound"
import { AgentInstructions, AgentModel, type AgentProgress, AgentReviewQueue, AgentReviews, ChangeRequestAgent, ChangeRequestReviews, ChangeRequests, ReviewsLayers } from "../src/index.ts"
import { layer as useCases, newChangeRequest, newSpace } from "./UseCases.ts"

/** The model: "add" creates a page, "fix" reads then writes the first page, anything else is answered in words. */
const script = (request: ModelRequest): ModelReply => {
  const last = request.messages.at(-1)!
  const asked = lastOf(request, "user")
  if (last.role === "tool") {
    if (asked.startsWith("fix") && last.content?.startsWith("Intro") === true) {
      // The page's id, from the listing the model was given before it read the page.
      const listing = request.messages.find((m) => m.role === "tool" && m.content?.includes("\t") === true)
      const pageId = listing?.content?.split("\t")[0] ?? ""
      return { toolCalls: [{ name: "writePage", arguments: { pageId, markdown: `${last.content}\n\nFixed by the agent.\n` } }] }
    }
    if (asked.startsWith("fix") && last.content?.includes("\t") === true) {
      return { toolCalls: [{ name: "readPage", arguments: { pageId: last.content.split("\t")[0] } }] }
    }
    return { text: "Done: the pages are written." }
  }
  if (asked.startsWith("Write what to insert")) return { text: "```markdown\nRestore from the last nightly backup.\n```" }
  if (asked.startsWith("Rewrite the selected text")) return { text: "Back up every night." }
  if (asked.startsWith("add")) return { toolCalls: [{ name: "createPage", arguments: { title: "Backups", markdown: "Back up the database every night.\n" } }] }
  if (asked.startsWith("fix")) return { toolCalls: [{ name: "listPages", arguments: {} }] }
  return { text: `You asked: ${asked}` }
}

const model = await startModelServer(script)
/** The organization asks its agent to sign its answers. */
const instructions = Layer.succeed(AgentInstructions)({ forOrganization: () => Effect.succeed("Sign every answer with — Agent.") })
const withModel = ReviewsLayers.layerAgent.pipe(
  Layer.provideMerge(useCases),
  Layer.provide(AgentModel.layerFrom(OpenAiCompatible.layer({ url: model.url, model: "test-model", retries: 0 }))),
  Layer.provide(instructions),
  Layer.provide(AgentReviewQueue.layerNone)
)
const withoutModel = ReviewsLayers.layerAgent.pipe(Layer.provideMerge(useCases), Layer.provide([AgentModel.layerNone, AgentInstructions.layerNone, AgentReviewQueue.layerNone]))

it.layer(withModel, { timeout: "60 seconds" })("ChangeRequestAgent with a model", (it) => {
  describe("send", () => {
    it.effect("adds a page when asked, as the person who asked, and keeps the edit with its answer", () =>
      Effect.gen(function*() {
        const agent = yield* ChangeRequestAgent
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Operations", "erin")
        const sent = yield* agent.send(space.id, cr.id, "default", "add a page about backups").pipe(as("erin"))
        assert.strictEqual(sent.reply.text, "Done: the pages are written.")
        assert.deepStrictEqual(sent.reply.edits?.map((e) => [e.kind, e.title]), [["created", "Backups"]])
        assert.strictEqual(sent.conversation.title, "add a page about backups")
        const page = yield* changeRequests.page(space.id, cr.id, sent.reply.edits![0]!.pageId).pipe(as("erin"))
        assert.strictEqual(page.markdown, "Back up the database every night.\n")
        // Written as erin: she is the change request's contributor.
        const listed = yield* changeRequests.list(space.id, { status: "draft", contributor: "erin" }).pipe(as("alice"))
        assert.deepStrictEqual(listed.items.items.map((c) => c.id), [cr.id])
        // The model was told what it may do, in the change request's words, and the organization's instructions.
        assert.include(model.requests.at(-1)!.messages[0]!.content ?? "", "\"Operations\"")
        assert.include(model.requests.at(-1)!.messages[0]!.content ?? "", "Sign every answer with — Agent.")
      }))

    it.effect("reads a page before writing it, and the conversation keeps both turns", () =>
      Effect.gen(function*() {
        const agent = yield* ChangeRequestAgent
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Intro", "erin")
        yield* changeRequests.updateContent(space.id, cr.id, [{ operation: "insert_page", title: "Intro", markdown: "Intro text.\n" }]).pipe(as("erin"))
        yield* agent.send(space.id, cr.id, "c1", "hello").pipe(as("erin"))
        const sent = yield* agent.send(space.id, cr.id, "c1", "fix the intro").pipe(as("erin"))
        assert.deepStrictEqual(sent.reply.edits?.map((e) => [e.kind, e.title]), [["updated", "Intro"]])
        const page = yield* changeRequests.page(space.id, cr.id, sent.reply.edits![0]!.pageId).pipe(as("erin"))
        assert.include(page.markdown, "Fixed by the agent.")
        assert.deepStrictEqual(sent.conversation.messages.map((m) => m.role), ["user", "agent", "user", "agent"])
        assert.strictEqual(sent.conversation.messages[1]!.text, "You asked: hello")
        // The earlier turn reached the model with the new question.
        const request = model.requests.find((r) => lastOf(r, "user") === "fix the intro")!
        assert.deepStrictEqual(request.messages.slice(1, 3).map((m) => [m.role, m.content]), [["user", "hello"], ["assistant", "You asked: hello"]])
        assert.deepStrictEqual((yield* agent.list(space.id, cr.id).pipe(as("rhea"))).map((c) => c.id), ["c1"])
      }))

    it.effect("tells its words as they come, and the stored answer is the whole of them", () =>
      Effect.gen(function*() {
        const agent = yield* ChangeRequestAgent
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Streams", "erin")
        const heard: Array<AgentProgress> = []
        const sent = yield* agent.send(space.id, cr.id, "default", "hello there, agent", (p) => Effect.sync(() => void heard.push(p))).pipe(as("erin"))
        const texts = heard.flatMap((p) => (p.type === "text" ? [p.text] : []))
        assert.isAbove(texts.length, 1)
        assert.strictEqual(texts.at(-1), "You asked: hello there, agent")
        assert.strictEqual(sent.reply.text, "You asked: hello there, agent")
        // Each is the words so far.
        texts.forEach((text, i) => i > 0 && assert.isTrue(text.startsWith(texts[i - 1]!)))
        const tools: Array<AgentProgress> = []
        yield* agent.send(space.id, cr.id, "default", "add a page", (p) => Effect.sync(() => void tools.push(p))).pipe(as("erin"))
        assert.deepStrictEqual(tools.filter((p) => p.type === "tool"), [{ type: "tool", tool: "createPage" }])
      }))

    it.effect("writes text to insert and rewrites a selection, for an editor only, without writing the page", () =>
      Effect.gen(function*() {
        const agent = yield* ChangeRequestAgent
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Compose", "erin")
        const inserted = yield* agent.compose(space.id, cr.id, { instruction: "how to restore", page: "# Backups\n" }).pipe(as("erin"))
        // The fence the model put around it is taken off.
        assert.strictEqual(inserted, "Restore from the last nightly backup.")
        assert.include(lastOf(model.requests.at(-1)!, "user"), "# Backups")
        const improved = yield* agent.compose(space.id, cr.id, { instruction: "Improve the writing", selection: "backups is done nightly" }).pipe(as("erin"))
        assert.strictEqual(improved, "Back up every night.")
        assert.include(lastOf(model.requests.at(-1)!, "user"), "backups is done nightly")
        assert.strictEqual(yield* errorTag(agent.compose(space.id, cr.id, { instruction: "x" }).pipe(as("rhea"))), "Forbidden")
        assert.strictEqual(yield* errorTag(agent.compose(space.id, cr.id, { instruction: " " }).pipe(as("erin"))), "InvalidInput")
      }))

    it.effect("lets a reader list but not send, hides a private conversation, renames and removes", () =>
      Effect.gen(function*() {
        const agent = yield* ChangeRequestAgent
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Roles", "erin")
        assert.strictEqual(yield* errorTag(agent.send(space.id, cr.id, "default", "hello").pipe(as("rhea"))), "Forbidden")
        assert.strictEqual(yield* errorTag(agent.send(space.id, cr.id, "bad id!", "hello").pipe(as("erin"))), "InvalidInput")
        assert.strictEqual(yield* errorTag(agent.send(space.id, cr.id, "default", " ").pipe(as("erin"))), "InvalidInput")
        yield* agent.send(space.id, cr.id, "default", "hello").pipe(as("erin"))
        const renamed = yield* agent.rename(space.id, cr.id, "default", "Greetings").pipe(as("erin"))
        assert.strictEqual(renamed.title, "Greetings")
        assert.strictEqual(yield* errorTag(agent.rename(space.id, cr.id, "default", "x").pipe(as("rhea"))), "Forbidden")
        assert.strictEqual(yield* errorTag(agent.list(space.id, cr.id).pipe(as("otto"))), "NotFound")
        yield* agent.remove(space.id, cr.id, "default").pipe(as("erin"))
        assert.deepStrictEqual(yield* agent.list(space.id, cr.id).pipe(as("erin")), [])
        assert.strictEqual(yield* errorTag(agent.remove(space.id, cr.id, "default").pipe(as("erin"))), "NotFound")
      }))
  })
})

it.layer(withoutModel, { timeout: "60 seconds" })("ChangeRequestAgent without a model", (it) => {
  it.effect("refuses to send, saying how to set a model, and stores nothing", () =>
    Effect.gen(function*() {
      const agent = yield* ChangeRequestAgent
      const space = yield* newSpace()
      const cr = yield* newChangeRequest(space.id, "No model", "erin")
      const refused = yield* Effect.flip(agent.send(space.id, cr.id, "default", "hello").pipe(as("erin")))
      assert.strictEqual(refused._tag, "AgentNotConfigured")
      assert.include((refused as { readonly message: string }).message, "QUIRE_AI_URL")
      assert.deepStrictEqual(yield* agent.list(space.id, cr.id).pipe(as("erin")), [])
      const composing = yield* Effect.flip(agent.compose(space.id, cr.id, { instruction: "write the intro" }).pipe(as("erin")))
      assert.strictEqual(composing._tag, "AgentNotConfigured")
    }))
})

it.layer(withModel, { timeout: "60 seconds" })("the agent as a requested reviewer", (it) => {
  it.effect("is asked beside nobody else, waits while queued, and a review the queue gives up says it failed", () =>
    Effect.gen(function*() {
      const reviews = yield* AgentReviews
      const space = yield* newSpace()
      const cr = yield* newChangeRequest(space.id, "Operations", "erin")
      const [asked] = yield* reviews.requestReviewers(space.id, cr.id, { users: ["agent"] }).pipe(as("erin"))
      assert.deepStrictEqual([asked?.userId, asked?.requestedBy, asked?.agentReview?.status], ["agent", "erin", "pending"])
      const job = { spaceId: space.id, changeRequestId: cr.id, requestedBy: "erin", requestedAt: asked!.createdAt.toISOString() }
      // A job for another request (renewed or withdrawn since) changes nothing.
      yield* reviews.giveUp({ ...job, requestedAt: new Date(0).toISOString() }, "the worker stopped")
      yield* reviews.giveUp(job, "the worker stopped")
      const listed = yield* (yield* ChangeRequestReviews).requestedReviewers(space.id, cr.id, {}).pipe(as("erin"))
      assert.deepStrictEqual(listed.items.map((r) => [r.userId, r.agentReview]), [["agent", { status: "failed", comments: 0, message: "The review stopped: the worker stopped" }]])
      // A reader may not ask it.
      assert.strictEqual(yield* errorTag(reviews.requestReviewers(space.id, cr.id, { users: ["agent"] }).pipe(as("rhea"))), "Forbidden")
    }))
})
