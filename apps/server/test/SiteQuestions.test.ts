/**
 * A site's questions (GitBook's AI insights) end to end: questions put to the site's Ask (its page,
 * its MCP server, the API) are recorded with their outcome and sources, grouped, and read through
 * GitBook's eight operations, by our client and GitBook's own, for members of the site's
 * organization only; bad filters are 400s naming the field. A fake OpenAI-compatible model answers.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { GitBookAPI } from "@gitbook/api"
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { SiteQuestion, SiteQuestionAnswer, SiteQuestionAnswerSource, SiteQuestionAnswerWithResponse } from "@quire/api"
import { backends, baseUrl, errorCode, newUser, raw, withSettings } from "./Harness.ts"
import { get, publishedSite } from "./SiteFixtures.ts"

/** The fake provider: cites the first source, says the sources do not answer "nocite" questions, fails "broken" ones. */
const provider = http.createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString()))
  request.on("end", () => {
    const parsed = JSON.parse(body) as { messages: Array<{ role: string; content: string }> }
    const question = parsed.messages.find((m) => m.role === "user")?.content ?? ""
    if (question.includes("broken")) {
      response.writeHead(400, { "content-type": "application/json" })
      response.end(JSON.stringify({ error: { message: "the model refused" } }))
      return
    }
    const content = question.includes("nocite") ? "The sources do not say." : "Run the giraffe installer [1]."
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content } }] }))
  })
})
await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve))
const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`

const assistant = { ai: { mode: "assistant" } } as never

const askOn = (path: string, q: string) =>
  Effect.map(get(`${path}~ask?q=${encodeURIComponent(q)}`, { accept: "application/json", "accept-language": "fr-CA,fr;q=0.8" }), (got) => got.status)

/** The part of GitBook's client this test uses (its published typings do not resolve under NodeNext). */
interface GitBookQuestions {
  readonly orgs: {
    listSiteQuestions(org: string, site: string, query?: Record<string, unknown>): Promise<{ data: { items: Array<SiteQuestion>; next?: { page: string } } }>
    getSiteQuestionStats(org: string, site: string, query?: Record<string, unknown>): Promise<{ data: { total: number; answers: number; answered: { yes: number; no: number } } }>
    listSiteQuestionAnswers(org: string, site: string, query?: Record<string, unknown>): Promise<{ data: { items: Array<SiteQuestionAnswer> } }>
    getSiteQuestionAnswerById(org: string, site: string, id: string): Promise<{ data: SiteQuestionAnswerWithResponse }>
  }
}

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: providerUrl, QUIRE_AI_MODEL: "fake-model" }), { timeout: 120_000, excludeTestServices: true })(
    `a site's questions (${backend.name})`,
    (it) => {
      it.effect("records each question asked with its outcome and sources, grouped, and reads them in GitBook's shapes", () =>
        Effect.gen(function*() {
          const site = yield* publishedSite("public", assistant)
          const params = site.siteParams
          assert.strictEqual(yield* askOn(site.path, "Where do I read about the giraffes?"), 200)
          assert.strictEqual(yield* askOn(site.path, "where do I read about giraffes"), 200)
          assert.strictEqual(yield* askOn(site.path, "giraffes nocite"), 200)
          assert.strictEqual(yield* askOn(site.path, "zqxjv"), 200)
          assert.strictEqual(yield* askOn(site.path, "giraffes broken"), 502)
          // An empty question is no question.
          assert.strictEqual(yield* askOn(site.path, "  "), 400)

          // Most asked first: the two giraffe askings are one question.
          const listed = yield* site.api.siteQuestions.listSiteQuestions({ params, query: { sort: "stats.answers" } })
          assert.strictEqual(listed.count, 4)
          const top = listed.items[0]!
          assert.deepStrictEqual([top.question, top.stats.answers, top.stats.answered.yes, top.type], ["Where do I read about the giraffes?", 2, 2, "unknown"])
          assert.strictEqual(top.stats.weeklyPulse.length, 13)
          assert.strictEqual(top.urls.location, `http://quire.test/v1/orgs/${params.organizationId}/sites/${params.siteId}/questions/${top.id}`)

          // Unanswered: no page found, the model citing none, the model failing.
          const unanswered = yield* site.api.siteQuestions.listSiteQuestions({ params, query: { answered: "no" } })
          assert.sameMembers(unanswered.items.map((q) => q.question), ["giraffes nocite", "zqxjv", "giraffes broken"])
          const answers = yield* site.api.siteQuestions.listSiteQuestionAnswers({ params, query: { answered: ["no"] } })
          assert.sameDeepMembers(answers.items.map((a) => [a.input.text, a.outcome, a.answered, a.via, a.channel.type, a.language]), [
            ["giraffes nocite", "not-in-pages", "no", "site", "site", "fr-CA"],
            ["zqxjv", "no-pages", "no", "site", "site", "fr-CA"],
            ["giraffes broken", "failed", "no", "site", "site", "fr-CA"]
          ])

          // The question's askings and the pages they drew on.
          const askings = yield* site.api.siteQuestions.listSiteQuestionAnswers({ params, query: { question: top.id } })
          assert.deepStrictEqual(askings.items.map((a) => a.input.raw), ["where do I read about giraffes", "Where do I read about the giraffes?"])
          const sources = yield* site.api.siteQuestions.listSiteQuestionSources({ params: { ...params, siteQuestionId: top.id }, query: {} })
          assert.deepStrictEqual(sources.items.map((s: SiteQuestionAnswerSource) => [s.type, s.title, s.space, s.weight, s.answers]), [["page", "Docker", site.guides.id, 1, 2]])
          const first = askings.items[0]!
          const own = yield* site.api.siteQuestions.listSiteQuestionAnswerSources({ params: { ...params, siteQuestionAnswerId: first.id }, query: {} })
          assert.deepStrictEqual(own.items.map((s) => [s.title, s.cited, s.weight]), [["Docker", true, 1]])
          const one = yield* site.api.siteQuestions.getSiteQuestionAnswerById({ params: { ...params, siteQuestionAnswerId: first.id } })
          assert.strictEqual(one.output.markdown, "Run the giraffe installer [1].")
          assert.deepStrictEqual([one.response.role, one.response.steps[0]?.phase], ["assistant", "final_answer"])
          const thread = yield* site.api.siteQuestions.getSiteQuestionAnswerThreadById({ params: { ...params, siteQuestionAnswerId: first.id } })
          assert.deepStrictEqual(thread.map((a) => a.id), [first.id])
          const got = yield* site.api.siteQuestions.getSiteQuestionById({ params: { ...params, siteQuestionId: top.id }, query: { answered: "no" } })
          assert.deepStrictEqual([got.id, got.stats.answers], [top.id, 0])

          const stats = yield* site.api.siteQuestions.getSiteQuestionStats({ params, query: {} })
          assert.deepStrictEqual([stats.total, stats.answers, stats.answered.yes, stats.answered.no, stats.channelTypes["site"]], [4, 5, 2, 3, 5])
          // A topic filter keeps nothing: Quire keeps no topics.
          assert.strictEqual((yield* site.api.siteQuestions.getSiteQuestionStats({ params, query: { topic: "t1" } })).answers, 0)

          // Pages of one question at a time, by cursor.
          const page1 = yield* site.api.siteQuestions.listSiteQuestions({ params, query: { limit: 3 } })
          const page2 = yield* site.api.siteQuestions.listSiteQuestions({ params, query: { limit: 3, page: page1.next!.page } })
          assert.deepStrictEqual([page1.count, page2.count, page2.next], [3, 1, undefined])
          assert.strictEqual(new Set([...page1.items, ...page2.items].map((q) => q.id)).size, 4)
        }))

      it.effect("records the MCP server's and the API's questions as theirs, and GitBook's client reads them", () =>
        Effect.gen(function*() {
          const base = yield* baseUrl
          const site = yield* publishedSite("public", assistant)
          yield* Effect.promise(async () => {
            const client = new McpClient({ name: "questions-test", version: "1.0.0" })
            await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${site.path}~gitbook/mcp`)))
            try {
              await client.callTool({ name: "askQuestion", arguments: { question: "Where are the giraffes, agent?" } })
            } finally {
              await client.close()
            }
          })
          const streamed = yield* Effect.promise(() =>
            fetch(`${base}/v1/orgs/${site.organizationId}/sites/${site.siteId}/ask`, {
              method: "POST",
              headers: { "content-type": "application/json", authorization: `Bearer ${site.token}` },
              body: JSON.stringify({ question: "Where are the giraffes, program?", scope: { mode: "all" } })
            }).then((response) => response.text())
          )
          assert.include(streamed, "giraffe installer")

          const gitbook = new GitBookAPI({ endpoint: base, authToken: site.token }) as unknown as GitBookQuestions
          const { listed, stats, answers } = yield* Effect.promise(async () => ({
            listed: (await gitbook.orgs.listSiteQuestions(site.organizationId, site.siteId, { sort: "askedAt", answered: ["yes"] })).data,
            stats: (await gitbook.orgs.getSiteQuestionStats(site.organizationId, site.siteId, { channelType: ["api"] })).data,
            answers: (await gitbook.orgs.listSiteQuestionAnswers(site.organizationId, site.siteId, { channelType: ["api"] })).data
          }))
          assert.deepStrictEqual(listed.items.map((q) => q.question), ["Where are the giraffes, program?", "Where are the giraffes, agent?"])
          assert.deepStrictEqual([stats.total, stats.answers, stats.answered.yes], [2, 2, 2])
          // An agent asks as a program does (GitBook's channel `api`); Quire says which.
          assert.sameDeepMembers(answers.items.map((a) => [a.channel.type, a.via]), [["api", "mcp"], ["api", "api"]])
          const full = yield* Effect.promise(() => gitbook.orgs.getSiteQuestionAnswerById(site.organizationId, site.siteId, answers.items[0]!.id))
          assert.strictEqual(full.data.object, "site-question-answer")
          assert.strictEqual(full.data.response.steps.length, 1)
        }))

      it.effect("answers only members of the site's organization, and 400s name the bad filter", () =>
        Effect.gen(function*() {
          const site = yield* publishedSite("public", assistant)
          assert.strictEqual(yield* askOn(site.path, "Where are the giraffes?"), 200)
          const outsider = yield* newUser("Mallory")
          const refused = yield* outsider.api.siteQuestions.listSiteQuestions({ params: site.siteParams, query: {} }).pipe(Effect.flip)
          assert.strictEqual(errorCode(refused), 404)
          const answers = yield* site.api.siteQuestions.listSiteQuestionAnswers({ params: site.siteParams, query: {} })
          const theirs = yield* outsider.api.siteQuestions.getSiteQuestionAnswerById({ params: { ...site.siteParams, siteQuestionAnswerId: answers.items[0]!.id } }).pipe(Effect.flip)
          assert.strictEqual(errorCode(theirs), 404)
          const missing = yield* site.api.siteQuestions.getSiteQuestionById({ params: { ...site.siteParams, siteQuestionId: "nope" }, query: {} }).pipe(Effect.flip)
          assert.strictEqual(errorCode(missing), 404)

          const path = `/v1/orgs/${site.organizationId}/sites/${site.siteId}`
          for (const [query, field] of [
            ["questions?limit=0", "limit"],
            ["questions?limit=1001", "limit"],
            ["questions?answered=maybe", "answered"],
            ["questions?sort=popular", "sort"],
            ["questions?from=yesterday", "from"],
            ["questions?page=forged", "page"],
            ["question-stats?channelType=fax", "channelType"],
            ["answers?helpfulness=great", "helpfulness"],
            ["questions?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z", "to"]
          ] as const) {
            const got = yield* raw("GET", `${path}/${query}`, { token: site.token })
            assert.strictEqual(got.status, 400, query)
            const body = got.body as { error: { message: string; field?: string } }
            assert.include(`${body.error.field ?? ""} ${body.error.message}`, field, query)
          }
          // A cursor of the answers' listing is not one of the questions'.
          const next = (yield* site.api.siteQuestions.listSiteQuestionAnswers({ params: site.siteParams, query: { limit: 1 } })).next
          if (next !== undefined) assert.strictEqual((yield* raw("GET", `${path}/questions?sort=stats.answers&page=${next.page}`, { token: site.token })).status, 400)
        }))
    }
  )

  layer(backend.layer, { timeout: 120_000 })(`a site's questions without a model (${backend.name})`, (it) => {
    it.effect("records a question asked while no model is configured", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", assistant)
        assert.strictEqual(yield* askOn(site.path, "Where are the giraffes?"), 501)
        const answers = yield* site.api.siteQuestions.listSiteQuestionAnswers({ params: site.siteParams, query: {} })
        assert.deepStrictEqual(answers.items.map((a) => [a.input.text, a.outcome, a.answered]), [["Where are the giraffes?", "no-model", "no"]])
      }))
  })
}
