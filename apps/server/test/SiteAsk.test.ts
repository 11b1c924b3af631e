/**
 * A site's Ask (`<site>/~ask?q=` and GitBook's streamAskInSite) against a fake OpenAI-compatible
 * endpoint started here: the answer cites the pages the sources came from; a visitor never gets
 * sources from a section or site they may not see; a server without a model refuses plainly.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { backends, baseUrl, everyBackend, publicUrl, withSettings } from "./Harness.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { get, publishedSite } from "./SiteFixtures.ts"

interface Prompt { readonly system: string; readonly question: string; readonly model: string; readonly auth: string | undefined }

/** The fake provider: answers with the titles it was given, citing the first source. */
const prompts: Array<Prompt> = []
const provider = http.createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString()))
  request.on("end", () => {
    const parsed = JSON.parse(body) as { model: string; messages: Array<{ role: string; content: string }> }
    const system = parsed.messages.find((m) => m.role === "system")?.content ?? ""
    const question = parsed.messages.find((m) => m.role === "user")?.content ?? ""
    prompts.push({ system, question, model: parsed.model, auth: request.headers.authorization })
    const titles = [...system.matchAll(/<source n="(\d+)" title=("[^"]*")/g)].map((m) => `${m[1]}: ${JSON.parse(m[2]!) as string}`)
    const content = `The answer is on that page [1]. Given: ${titles.join("; ")}.`
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content } }] }))
  })
})
await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve))
const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`

interface AskJson {
  readonly answer?: string
  readonly sources?: Array<{ n: number; title: string; url: string; section?: string }>
  readonly error?: { code: number; message: string }
}
const askOn = (path: string, q: string, extra = "") =>
  Effect.map(get(`${path}~ask?q=${encodeURIComponent(q)}${extra}`, { accept: "application/json" }), (got) => ({
    status: got.status,
    json: (got.headers.get("content-type")?.includes("json") === true ? JSON.parse(got.text) : {}) as AskJson
  }))

const assistant = { ai: { mode: "assistant" } } as never

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: providerUrl, QUIRE_AI_MODEL: "fake-model", QUIRE_AI_KEY: "sk-test" }), { timeout: 120_000 })(
    `a site's Ask with a model (${backend.name})`,
    (it) => {
      it.effect("answers from the visitor's pages and cites the page the answer came from", () =>
        Effect.gen(function*() {
          const site = yield* publishedSite("public", assistant)
          const asked = yield* askOn(site.path, "Where do I read about the giraffes?")
          assert.strictEqual(asked.status, 200, JSON.stringify(asked.json))
          assert.deepStrictEqual(asked.json.sources?.map((s) => s.title), ["Docker"])
          assert.isTrue(asked.json.sources![0]!.url.includes(`${site.path}install/docker`), asked.json.sources![0]!.url)
          assert.include(asked.json.answer, "1: Docker")
          const prompt = prompts.at(-1)!
          assert.deepStrictEqual([prompt.model, prompt.auth, prompt.question], ["fake-model", "Bearer sk-test", "Where do I read about the giraffes?"])
          assert.include(prompt.system, "Docker steps with giraffes.")
          // The site's pages offer Ask beside the search box.
          assert.include((yield* get(site.path)).text, `data-ask="${site.path}~ask"`)
        }))

      it.effect("the site's MCP server offers askQuestion where the site has Ask, answering with its sources' whole URLs", () =>
        Effect.gen(function*() {
          const base = yield* baseUrl
          const site = yield* publishedSite("public", assistant)
          const plain = yield* publishedSite("public")
          const { names, answer, plainNames } = yield* Effect.promise(async () => {
            const client = new Client({ name: "ask-test", version: "1.0.0" })
            await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${site.path}~gitbook/mcp`)))
            const other = new Client({ name: "ask-test", version: "1.0.0" })
            await other.connect(new StreamableHTTPClientTransport(new URL(`${base}${plain.path}~gitbook/mcp`)))
            try {
              return {
                names: (await client.listTools()).tools.map((tool) => tool.name),
                answer: await client.callTool({ name: "askQuestion", arguments: { question: "Where do I read about the giraffes?" } }) as unknown as { content: Array<{ text: string }>; structuredContent: { sources: Array<{ title: string; url: string }> } },
                plainNames: (await other.listTools()).tools.map((tool) => tool.name)
              }
            } finally {
              await client.close()
              await other.close()
            }
          })
          // Feedback is taken by both sites; Ask only where the site has it.
          assert.deepStrictEqual(names, ["searchDocumentation", "getPage", "askQuestion", "sendFeedback"])
          assert.deepStrictEqual(plainNames.filter((name) => name !== "sendFeedback"), ["searchDocumentation", "getPage"])
          assert.include(answer.content[0]!.text, "The answer is on that page [1].")
          assert.deepStrictEqual(answer.structuredContent.sources.map((source) => source.title), ["Docker"])
          assert.isTrue(answer.structuredContent.sources[0]!.url.startsWith(`${publicUrl}${site.path}`), answer.structuredContent.sources[0]!.url)
        }))

      it.effect("never passes the model a section the visitor's claims do not open", () =>
        Effect.gen(function*() {
          const site = yield* publishedSite("public", assistant)
          const before = prompts.length
          const hidden = yield* askOn(site.path, "What are the okapis?")
          assert.strictEqual(hidden.status, 200)
          assert.deepStrictEqual(hidden.json.sources, [])
          assert.isFalse(prompts.slice(before).some((p) => p.system.includes("okapis")), "the beta page reached the model")
          const beta = yield* askOn(site.path, "What are the okapis?", "&visitor.beta=true")
          assert.deepStrictEqual(beta.json.sources?.map((s) => [s.title, s.section]), [["Beta features", "Beta"]])
        }))

      it.effect("a share-link site answers only with the link's key; a site not in assistant mode offers no Ask", () =>
        Effect.gen(function*() {
          const shared = yield* publishedSite("share-link", assistant)
          const before = prompts.length
          const refused = yield* askOn(shared.path, "Where are the giraffes?")
          assert.include([401, 403], refused.status)
          assert.strictEqual(prompts.length, before, "a refused visitor's question reached the model")
          const link = yield* shared.api.siteShareLinks.createSiteShareLink({ params: shared.siteParams, payload: { name: "Readers" } })
          const key = new URL(link.urls.published!).searchParams.get("share")!
          const admitted = yield* askOn(shared.path, "Where are the giraffes?", `&share=${key}`)
          assert.deepStrictEqual(admitted.json.sources?.map((s) => s.title), ["Docker"])

          const plain = yield* publishedSite("public")
          const off = yield* askOn(plain.path, "Where are the giraffes?")
          assert.deepStrictEqual([off.status, off.json.error?.message], [404, "This site does not offer Ask"])
          const open = yield* publishedSite("public", assistant)
          const empty = yield* askOn(open.path, "   ")
          assert.deepStrictEqual([empty.status, empty.json.error?.message], [400, "Ask a question"])
        }))

      it.effect("streamAskInSite streams one answer event with the page sources, for members only", () =>
        Effect.gen(function*() {
          const site = yield* publishedSite("public")
          const base = yield* baseUrl
          const post = (token: string | undefined, body: unknown, format = "") =>
            Effect.promise(async () => {
              const response = await fetch(`${base}/v1/orgs/${site.organizationId}/sites/${site.siteId}/ask${format}`, {
                method: "POST",
                headers: { "content-type": "application/json", ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
                body: JSON.stringify(body)
              })
              return { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() }
            })
          const answered = yield* post(site.token, { question: "Where are the giraffes?", scope: { mode: "all" } }, "?format=markdown")
          assert.strictEqual(answered.status, 200, answered.text)
          assert.include(answered.type, "text/event-stream")
          const data = answered.text.split("\n").filter((line) => line.startsWith("data:")).map((line) => JSON.parse(line.slice(5)))
          assert.strictEqual(data.length, 1)
          assert.strictEqual(data[0].type, "answer")
          assert.include(data[0].answer.answer.markdown, "1: Docker")
          assert.deepStrictEqual(data[0].answer.sources.map((s: { title: string; type: string; space: string }) => [s.type, s.title, s.space]), [["page", "Docker", site.guides.id]])
          // Scoped to the API section's site space: the Docker page is not read.
          const scoped = yield* post(site.token, { question: "Where are the giraffes?", scope: { mode: "specific", siteSpaceIds: [site.apiSection.siteSpaces[0]!.id] } })
          assert.strictEqual(scoped.status, 200, scoped.text)
          assert.notInclude(scoped.text, "Docker")
          const anonymous = yield* post(undefined, { question: "Where are the giraffes?", scope: { mode: "all" } })
          assert.strictEqual(anonymous.status, 401)
          const tooLong = yield* post(site.token, { question: "x".repeat(600), scope: { mode: "all" } })
          assert.strictEqual(tooLong.status, 400)
        }))
    }
  )

  layer(backend.layer, { timeout: 120_000 })(`a site's Ask without a model (${backend.name})`, (it) => {
    it.effect("refuses with 501 and says how to configure it", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", assistant)
        const asked = yield* askOn(site.path, "Where are the giraffes?")
        assert.strictEqual(asked.status, 501)
        assert.include(asked.json.error?.message, "QUIRE_AI_URL")
        // Nor do its pages offer it.
        assert.notInclude((yield* get(site.path)).text, "data-ask=\"")
      }))
  })
}

// The budgets on PostgreSQL (shared by replicas) and on the embedded server (in the process).
for (const backend of everyBackend) {
  // Budgets of 3 questions a visitor and 5 a site, a minute.
  const limited = { QUIRE_AI_URL: providerUrl, QUIRE_AI_MODEL: "fake-model", QUIRE_AI_KEY: "sk-test", QUIRE_ASK_LIMIT: 3, QUIRE_ASK_SITE_LIMIT: 5 }
  layer(withSettings(backend.layer, limited), { timeout: 120_000 })(`a site's Ask within its limits (${backend.name})`, (it) => {
    it.effect("a visitor past its budget, then any visitor past the site's, is answered 429 and the model is not asked", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", assistant)
        const base = yield* baseUrl
        const from = (address: "127.0.0.1" | "::1") =>
          Effect.promise(async () => {
            const origin = address === "::1" ? base.replace("127.0.0.1", "[::1]") : base
            const response = await fetch(`${origin}${site.path}~ask?q=${encodeURIComponent("Where are the giraffes?")}`, { headers: { accept: "application/json" } })
            return { status: response.status, retryAfter: response.headers.get("retry-after"), json: await response.json() as AskJson }
          })
        const before = prompts.length
        const first = yield* Effect.all([from("127.0.0.1"), from("127.0.0.1"), from("127.0.0.1"), from("127.0.0.1")])
        assert.deepStrictEqual(first.map((answer) => answer.status), [200, 200, 200, 429])
        const refused = first[3]!
        assert.strictEqual(refused.json.error?.code, 429)
        assert.include(refused.json.error?.message, "Too many questions from you")
        assert.isTrue(Number(refused.retryAfter) >= 1 && Number(refused.retryAfter) <= 60, String(refused.retryAfter))
        // Another visitor has a budget of its own, until the site's is spent.
        const other = yield* Effect.all([from("::1"), from("::1"), from("::1")])
        assert.deepStrictEqual(other.map((answer) => answer.status), [200, 200, 429])
        assert.include(other[2]!.json.error?.message, "Too many questions on this site")
        assert.strictEqual(prompts.length - before, 5, "only the admitted questions reached the model")
      }))

    it.effect("the site MCP's askQuestion and streamAskInSite spend the same budgets", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const site = yield* publishedSite("public", assistant)
        const before = prompts.length
        const answers = yield* Effect.promise(async () => {
          const client = new Client({ name: "ask-test", version: "1.0.0" })
          await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${site.path}~gitbook/mcp`)))
          try {
            const out: Array<{ isError?: boolean; content: Array<{ text: string }> }> = []
            for (let i = 0; i < 4; i++) out.push(await client.callTool({ name: "askQuestion", arguments: { question: "Where are the giraffes?" } }) as never)
            return out
          } finally {
            await client.close()
          }
        })
        assert.deepStrictEqual(answers.map((answer) => answer.isError === true), [false, false, false, true])
        assert.include(answers[3]!.content[0]!.text, "Too many questions")
        assert.strictEqual(prompts.length - before, 3)

        const api = yield* publishedSite("public", assistant)
        const post = Effect.promise(async () => {
          const response = await fetch(`${base}/v1/orgs/${api.organizationId}/sites/${api.siteId}/ask`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${api.token}` },
            body: JSON.stringify({ question: "Where are the giraffes?", scope: { mode: "all" } })
          })
          return { status: response.status, text: await response.text(), retryAfter: response.headers.get("retry-after") }
        })
        const streamed = yield* Effect.all([post, post, post, post])
        assert.deepStrictEqual(streamed.map((answer) => answer.status), [200, 200, 200, 429], streamed.at(-1)!.text)
        assert.strictEqual((JSON.parse(streamed[3]!.text) as AskJson).error?.code, 429)
        assert.isNotNull(streamed[3]!.retryAfter)
      }))
  })
}
