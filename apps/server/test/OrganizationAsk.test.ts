/**
 * The organization's Ask (GitBook's askInOrganization, its stream and the recommended questions),
 * called with GitBook's own client and as server-sent events: with a fake OpenAI-compatible model,
 * the answer stands on the pages of the spaces the asker may read and no others; without a model,
 * the answer is the passages found, with their pages; bad questions and outsiders are refused.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { backends, baseUrl, type ContentChanges, mergeIntoMain, newUser, organizationWith, raw, withSettings } from "./Harness.ts"

interface Prompt { readonly system: string; readonly question: string }

/** The fake provider: cites the first source and lists the titles it was given; embeds, keeping what it was given. */
const prompts: Array<Prompt> = []
const embedded: Array<{ readonly model: string; readonly input: ReadonlyArray<string> }> = []
const provider = http.createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString()))
  request.on("end", () => {
    if (request.url?.endsWith("/embeddings") === true) {
      // An embedding model: a vector per input, from the words it holds (the VPN's, the canteen's).
      const { model, input } = JSON.parse(body) as { model: string; input: ReadonlyArray<string> }
      embedded.push({ model, input })
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify({ data: input.map((text, index) => ({ index, embedding: [/vpn|connect/i.test(text) ? 1 : 0, /canteen|lunch/i.test(text) ? 1 : 0, 0.1] })) }))
      return
    }
    const parsed = JSON.parse(body) as { messages: Array<{ role: string; content: string }> }
    const system = parsed.messages.find((m) => m.role === "system")?.content ?? ""
    const question = parsed.messages.find((m) => m.role === "user")?.content ?? ""
    prompts.push({ system, question })
    const titles = [...system.matchAll(/<source n="(\d+)" title=("[^"]*")/g)].map((m) => `${m[1]}: ${JSON.parse(m[2]!) as string}`)
    // Asked for questions, it writes two; asked a question, it answers from the first source.
    const content = question === "The five questions."
      ? "1. How do I connect to the VPN?\n2. When does the canteen open?"
      : `Install the client [1]. Given: ${titles.join("; ")}.`
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content } }] }))
  })
})
await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve))
const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`

interface Answer {
  readonly answer?: unknown
  readonly followupQuestions: ReadonlyArray<string>
  readonly sources: ReadonlyArray<{ readonly type: string; readonly page: string; readonly space: string; readonly revision: string; readonly sections: ReadonlyArray<string>; readonly title?: string; readonly url?: string }>
}

/** The part of GitBook's client used here (its typings cannot be followed under NodeNext). */
interface GitBookOrgs {
  readonly orgs: {
    askInOrganization(organizationId: string, body: { query: string }, query?: { format?: string }): Promise<{ data: { answer?: Answer } }>
    getRecommendedQuestionsInOrganization(organizationId: string): Promise<{ data: { questions: ReadonlyArray<string> } }>
  }
}

const gitbook = (endpoint: string, token: string) => new GitBookAPI({ endpoint, authToken: token }) as unknown as GitBookOrgs

/** The VPN page in the handbook every member reads, and the board's page only admins read. */
const handbook: ContentChanges = [
  { operation: "insert_page", title: "Remote access", document: { markdown: "Work from anywhere.\n\n## Connect to the VPN\n\nInstall the VPN client, then sign in with your badge number.\n" } },
  { operation: "insert_page", title: "Lunch", document: { markdown: "The canteen opens at noon.\n" } }
]
const board: ContentChanges = [
  { operation: "insert_page", title: "VPN budget", document: { markdown: "The VPN contract costs 40,000 a year.\n" } }
]

/** An organization with a reader, its handbook and its board (hidden from members), both searchable. */
const organization = Effect.gen(function*() {
  const { alice, organizationId, members } = yield* organizationWith(["read"])
  const open = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Handbook" } })
  const closed = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Board" } })
  yield* alice.api.spaces.updateSpaceById({ params: { spaceId: closed.id }, payload: { defaultLevel: null } })
  yield* mergeIntoMain(alice.api, open.id, handbook)
  yield* mergeIntoMain(alice.api, closed.id, board)
  // The index follows a merge in the background: both spaces are found before any question.
  for (let i = 0; i < 100; i++) {
    const found = yield* alice.api.search.searchOrganizationContent({ params: { organizationId }, query: { query: "vpn" } })
    if (found.items.length === 2) break
    yield* Effect.sleep("100 millis")
  }
  return { alice, organizationId, reader: members.read!, open, closed }
})

/** The events of a server-sent stream's body. */
const events = (text: string): ReadonlyArray<unknown> =>
  text.split("\n").filter((line) => line.startsWith("data:")).map((line) => JSON.parse(line.slice(5)) as unknown)

const stream = Effect.fnUntraced(function*(path: string, token: string) {
  const base = yield* baseUrl
  const response = yield* Effect.promise(() => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } }))
  return { status: response.status, type: response.headers.get("content-type") ?? "", text: yield* Effect.promise(() => response.text()) }
})

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: providerUrl, QUIRE_AI_MODEL: "fake-model", QUIRE_AI_MODEL_EMBEDDINGS: "fake-embed" }), { timeout: 120_000, excludeTestServices: true })(
    `the organization's Ask with an embedding model (${backend.name})`,
    (it) => {
      it.effect("embeds the question and the passages the reader may read, once, with the model named", () =>
        Effect.gen(function*() {
          const { organizationId, reader } = yield* organization
          const endpoint = yield* baseUrl
          embedded.length = 0
          const ask = () => gitbook(endpoint, reader.token).orgs.askInOrganization(organizationId, { query: "How do I connect to the VPN?" }, { format: "markdown" })
          const { data } = yield* Effect.promise(ask)
          assert.deepStrictEqual(data.answer!.sources.map((s) => s.title), ["Remote access"])
          assert.isAbove(embedded.length, 0)
          assert.isTrue(embedded.every((e) => e.model === "fake-embed"))
          const sent = embedded.flatMap((e) => e.input)
          assert.include(sent, "How do I connect to the VPN?")
          assert.isTrue(sent.some((text) => text.includes("badge number")))
          // The board's page, which the reader cannot open, never left for the model.
          assert.isFalse(sent.some((text) => text.includes("40,000")))
          // Asked again, only the question is embedded: the passages' vectors are kept.
          const before = embedded.length
          yield* Effect.promise(ask)
          assert.deepStrictEqual(embedded.slice(before).flatMap((e) => e.input), ["How do I connect to the VPN?"])
        }))
    }
  )

  layer(withSettings(backend.layer, { QUIRE_AI_URL: providerUrl, QUIRE_AI_MODEL: "fake-model", QUIRE_AI_TOKEN_BUDGET: 100 }), { timeout: 120_000, excludeTestServices: true })(
    `the organization's Ask within the organization's AI budget (${backend.name})`,
    (it) => {
      it.effect("answers until the organization has spent its tokens, then says so, and other organizations still ask", () =>
        Effect.gen(function*() {
          const endpoint = yield* baseUrl
          const first = yield* organization
          const ask = (token: string, organizationId: string) =>
            Effect.promise(() => gitbook(endpoint, token).orgs.askInOrganization(organizationId, { query: "How do I connect to the VPN?" }, { format: "markdown" }).then(
              (answer) => ({ ok: true as const, answer: answer.data.answer }),
              // GitBook's client throws its GitBookAPIError: the status as `code`, the message in the error.
              (error: { code?: number; errorMessage?: string }) => ({ ok: false as const, status: error.code, message: error.errorMessage ?? String(error) })
            ))
          // The first answer is written (its prompt alone is past 100 tokens); the next is refused before the model is called.
          const answered = yield* ask(first.reader.token, first.organizationId)
          assert.isTrue(answered.ok)
          const before = prompts.length
          const refused = yield* ask(first.reader.token, first.organizationId)
          assert.isFalse(refused.ok)
          assert.match(refused.ok ? "" : refused.message, /used its AI budget \(100 tokens\); it renews in \d+ hours/)
          // Too many requests: the budget, not the model, refused (429, where a model's failure is 502).
          assert.strictEqual(refused.ok ? 0 : refused.status, 429)
          assert.strictEqual(prompts.length, before)
          // Another organization has its own budget.
          const second = yield* organization
          assert.isTrue((yield* ask(second.reader.token, second.organizationId)).ok)
        }))
    }
  )

  layer(withSettings(backend.layer, { QUIRE_AI_URL: providerUrl, QUIRE_AI_MODEL: "fake-model" }), { timeout: 120_000, excludeTestServices: true })(
    `the organization's Ask with a model (${backend.name})`,
    (it) => {
      it.effect("answers a reader from the spaces they may read, through GitBook's client and as a stream", () =>
        Effect.gen(function*() {
          const { organizationId, reader, open } = yield* organization
          const endpoint = yield* baseUrl
          prompts.length = 0
          const { data } = yield* Effect.promise(() => gitbook(endpoint, reader.token).orgs.askInOrganization(organizationId, { query: "How do I connect to the VPN?" }, { format: "markdown" }))
          const answer = data.answer!
          assert.include((answer.answer as { markdown: string }).markdown, "Install the client [1]")
          assert.deepStrictEqual(answer.sources.map((s) => [s.type, s.space, s.title]), [["page", open.id, "Remote access"]])
          assert.deepStrictEqual(answer.sources[0]!.sections, ["connect-to-the-vpn"])
          assert.match(answer.sources[0]!.url!, new RegExp(`/s/${open.id}/remote-access#connect-to-the-vpn$`))
          // The model read the handbook, never the board the reader cannot open.
          assert.include(prompts[0]!.system, "badge number")
          assert.notInclude(prompts[0]!.system, "40,000")
          assert.strictEqual(prompts[0]!.question, "How do I connect to the VPN?")

          // The default format is GitBook's document.
          const asDocument = yield* Effect.promise(() => gitbook(endpoint, reader.token).orgs.askInOrganization(organizationId, { query: "How do I connect to the VPN?" }))
          assert.strictEqual((asDocument.data.answer!.answer as { document?: { object?: string } }).document?.object, "document")

          const streamed = yield* stream(`/v1/orgs/${organizationId}/ask/stream?query=${encodeURIComponent("vpn client")}&format=markdown`, reader.token)
          assert.strictEqual(streamed.status, 200, streamed.text)
          assert.include(streamed.type, "text/event-stream")
          const [event] = events(streamed.text) as ReadonlyArray<{ type: string; answer: Answer }>
          assert.strictEqual(event!.type, "answer")
          assert.deepStrictEqual(event!.answer.sources.map((s) => s.title), ["Remote access"])
        }))

      it.effect("recommends the model's questions, as JSON and as a stream", () =>
        Effect.gen(function*() {
          const { organizationId, reader } = yield* organization
          const endpoint = yield* baseUrl
          const { data } = yield* Effect.promise(() => gitbook(endpoint, reader.token).orgs.getRecommendedQuestionsInOrganization(organizationId))
          assert.deepStrictEqual(data.questions, ["How do I connect to the VPN?", "When does the canteen open?"])
          const streamed = yield* stream(`/v1/orgs/${organizationId}/ask/questions/stream`, reader.token)
          assert.deepStrictEqual(events(streamed.text), [{ question: "How do I connect to the VPN?" }, { question: "When does the canteen open?" }])
        }))

      it.effect("refuses an empty or overlong question naming the field, and an outsider", () =>
        Effect.gen(function*() {
          const { organizationId, reader } = yield* organization
          const empty = yield* raw("POST", `/v1/orgs/${organizationId}/ask`, { body: JSON.stringify({ query: "" }), token: reader.token })
          assert.strictEqual(empty.status, 400)
          assert.include(JSON.stringify(empty.body), "query")
          const long = yield* raw("POST", `/v1/orgs/${organizationId}/ask`, { body: JSON.stringify({ query: "x".repeat(513) }), token: reader.token })
          assert.strictEqual(long.status, 400)
          const stranger = yield* newUser("Stranger")
          const outside = yield* raw("POST", `/v1/orgs/${organizationId}/ask`, { body: JSON.stringify({ query: "vpn" }), token: stranger.token })
          assert.strictEqual(outside.status, 404)
          const questions = yield* raw("GET", `/v1/orgs/${organizationId}/ask/questions`, { token: stranger.token })
          assert.strictEqual(questions.status, 404)
        }))
    }
  )

  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`the organization's Ask without a model (${backend.name})`, (it) => {
    it.effect("answers with the passages found and their pages, and recommends questions of the pages", () =>
      Effect.gen(function*() {
        const { organizationId, reader, open } = yield* organization
        const endpoint = yield* baseUrl
        const { data } = yield* Effect.promise(() => gitbook(endpoint, reader.token).orgs.askInOrganization(organizationId, { query: "vpn client badge" }, { format: "markdown" }))
        const answer = data.answer!
        assert.include((answer.answer as { markdown: string }).markdown, "No language model is set up on this server")
        assert.include((answer.answer as { markdown: string }).markdown, "[1] **Remote access**, Connect to the VPN: Install the VPN client")
        assert.deepStrictEqual(answer.sources.map((s) => [s.space, s.title]), [[open.id, "Remote access"]])
        const { data: recommended } = yield* Effect.promise(() => gitbook(endpoint, reader.token).orgs.getRecommendedQuestionsInOrganization(organizationId))
        assert.includeMembers([...recommended.questions], ["What does “Remote access” explain?", "What does “Lunch” explain?"])
        assert.notInclude(recommended.questions.join(" "), "VPN budget")
      }))
  })
}
