/**
 * A site's assistant through GitBook's client: the questions it suggests (its customization's, the
 * model's, or without a model the pages'), its response events to a conversation's last message
 * (start, step, document, finish; 501 without a model), and an agent's feedback about a page,
 * which the site's insights list with the page.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { lastOf, type ModelRequest, startModelServer } from "@quire/testkit/ModelServer"
import { backends, baseUrl, newUser, raw, withSettings } from "./Harness.ts"
import { publishedSite } from "./SiteFixtures.ts"

const model = await startModelServer((request: ModelRequest) =>
  lastOf(request, "user") === "The five questions."
    ? { text: "1. How do I install the tool?\n2. Where are the giraffes?" }
    : { text: "Follow the Docker steps [1]." })

interface Event { readonly type: string; readonly messageId?: string; readonly blocks?: ReadonlyArray<unknown>; readonly response?: { readonly id?: string; readonly previous?: string } }
/** The part of GitBook's client used here (its typings cannot be followed under NodeNext). */
interface GitBookSiteAgent {
  readonly orgs: {
    streamRecommendedQuestionsInSite(organizationId: string, siteId: string, query?: { siteSpaceId?: string }): AsyncIterable<{ question: string }>
    streamAiResponseInSite(organizationId: string, siteId: string, body: { input: ReadonlyArray<{ role: string; content: unknown }>; previousResponseId?: string }): AsyncIterable<Event>
    submitSiteAgentFeedback(organizationId: string, siteId: string, body: { feedback: string; url: string; spaceId: string; pageId: string; goal?: string; source?: string }): Promise<{ status: number }>
  }
}
const gitbook = (endpoint: string, token: string) => new GitBookAPI({ endpoint, authToken: token }) as unknown as GitBookSiteAgent

const collect = <A>(iterable: AsyncIterable<A>) =>
  Effect.promise(async () => {
    const out: Array<A> = []
    for await (const item of iterable) out.push(item)
    return out
  })

const textOf = (blocks: ReadonlyArray<unknown>) => JSON.stringify(blocks).match(/"text":"([^"]*)"/g)?.map((m) => m.slice(8, -1)).join(" ") ?? ""

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model" }), { timeout: 120_000, excludeTestServices: true })(`a site's assistant with a model (${backend.name})`, (it) => {
    it.effect("suggests the model's questions, or the customization's, and answers a conversation's last message as response events", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public")
        const client = gitbook(yield* baseUrl, site.token)
        const suggested = yield* collect(client.orgs.streamRecommendedQuestionsInSite(site.organizationId, site.siteId))
        assert.deepStrictEqual(suggested, [{ question: "How do I install the tool?" }, { question: "Where are the giraffes?" }])
        // The model was given the titles of the pages readers meet first.
        assert.include(model.requests.at(-1)!.messages[0]!.content ?? "", "- Install")

        yield* site.api.sites.updateSiteCustomizationById({ params: site.siteParams, payload: { ai: { mode: "assistant", suggestions: ["What is Quire?"] } } as never })
        yield* site.api.sites.publishSite({ params: site.siteParams })
        const set = yield* collect(client.orgs.streamRecommendedQuestionsInSite(site.organizationId, site.siteId))
        assert.deepStrictEqual(set, [{ question: "What is Quire?" }])

        const events = yield* collect(client.orgs.streamAiResponseInSite(site.organizationId, site.siteId, {
          input: [{ role: "user", content: "Hello" }, { role: "assistant", content: "Hi." }, { role: "user", content: "Where are the giraffes?" }],
          previousResponseId: "r0"
        }))
        assert.deepStrictEqual(events.map((e) => e.type), ["response_start", "response_step_start", "response_document", "response_finish"])
        assert.isTrue(events.every((e) => e.messageId === events[0]!.messageId))
        assert.include(textOf(events[2]!.blocks!), "Follow the Docker steps [1].")
        assert.include(textOf(events[2]!.blocks!), "Docker (")
        assert.strictEqual(events[3]!.response?.previous, "r0")
        assert.isString(events[3]!.response?.id)
        assert.strictEqual(lastOf(model.requests.at(-1)!, "user"), "Where are the giraffes?")
        // A document's text is read as the question too.
        const asDocument = yield* collect(client.orgs.streamAiResponseInSite(site.organizationId, site.siteId, {
          input: [{ role: "user", content: { object: "document", data: {}, nodes: [{ object: "block", type: "paragraph", data: {}, nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Where are the giraffes?", marks: [] }] }] }] } }]
        }))
        assert.strictEqual(asDocument.at(-1)!.type, "response_finish")
        // The question is on the site's questions, as asked through the API.
        const asked = yield* site.api.siteQuestions.listSiteQuestionAnswers({ params: site.siteParams, query: {} })
        assert.isTrue(asked.items.some((a) => a.input.text === "Where are the giraffes?" && a.via === "api"))
      }))

    it.effect("refuses an input without a user message naming the field, and callers outside the organization", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public")
        const path = `/v1/orgs/${site.organizationId}/sites/${site.siteId}/ai/response`
        const none = yield* raw("POST", path, { body: JSON.stringify({ input: [{ role: "assistant", content: "Hi." }] }), token: site.token })
        assert.strictEqual(none.status, 400)
        assert.include(JSON.stringify(none.body), "input[0].content")
        const empty = yield* raw("POST", path, { body: JSON.stringify({ input: [] }), token: site.token })
        assert.strictEqual(empty.status, 400)
        const stranger = yield* newUser("Stranger")
        assert.strictEqual((yield* raw("POST", path, { body: JSON.stringify({ input: [{ role: "user", content: "Hi" }] }), token: stranger.token })).status, 404)
        assert.strictEqual((yield* raw("GET", `/v1/orgs/${site.organizationId}/sites/${site.siteId}/ask/questions`, { token: stranger.token })).status, 404)
      }))
  })

  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`a site's assistant without a model (${backend.name})`, (it) => {
    it.effect("suggests questions of the pages, refuses a response with 501 saying how to set a model, and records agent feedback", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public")
        const client = gitbook(yield* baseUrl, site.token)
        const suggested = yield* collect(client.orgs.streamRecommendedQuestionsInSite(site.organizationId, site.siteId, { siteSpaceId: site.apiSection.siteSpaces[0]!.id }))
        assert.deepStrictEqual(suggested, [{ question: "What does “Endpoints” explain?" }])

        const refused = yield* raw("POST", `/v1/orgs/${site.organizationId}/sites/${site.siteId}/ai/response`, { body: JSON.stringify({ input: [{ role: "user", content: "Where are the giraffes?" }] }), token: site.token })
        assert.strictEqual(refused.status, 501)
        assert.include(JSON.stringify(refused.body), "QUIRE_AI_URL")

        const pages = yield* raw("GET", `/v1/spaces/${site.guides.id}/content/pages`, { token: site.token })
        const pageId = (pages.body as { pages: ReadonlyArray<{ id: string; title: string }> }).pages.find((p) => p.title === "Install")!.id
        const sent = yield* Effect.promise(() => client.orgs.submitSiteAgentFeedback(site.organizationId, site.siteId, {
          feedback: "The install page does not say which versions are supported.",
          goal: "Install the tool on an old server",
          url: "https://docs.example.com/install",
          spaceId: site.guides.id,
          pageId,
          source: "assistant"
        }))
        assert.strictEqual(sent.status, 204)
        const listed = yield* raw("GET", `/v1/orgs/${site.organizationId}/sites/${site.siteId}/agents/feedback`, { token: site.token })
        const items = (listed.body as { items: ReadonlyArray<{ subject: { kind: string; url?: string }; feedback: { category: string; summary: string; goal?: string } }> }).items
        assert.deepStrictEqual(items.map((i) => [i.subject.kind, i.subject.url, i.feedback.category, i.feedback.summary, i.feedback.goal]), [
          ["documentation", "https://docs.example.com/install", "documentation", "The install page does not say which versions are supported.", "Install the tool on an old server"]
        ])
        const bad = yield* raw("POST", `/v1/orgs/${site.organizationId}/sites/${site.siteId}/agent-feedback`, { body: JSON.stringify({ feedback: "", url: "x", spaceId: "s", pageId: "p" }), token: site.token })
        assert.strictEqual(bad.status, 400)
        assert.include(JSON.stringify(bad.body), "feedback")
      }))
  })
}
