/**
 * Adaptive content is computed for each reader in every view of a page: a `{% if %}` block a
 * visitor's claims do not open is in none of its HTML, `.md`, search results and snippets,
 * llms-full.txt, Ask's sources or the site MCP's tools; a visitor whose claims open it reads it in all.
 */
import { assert, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { VisitorToken } from "@quire/sites"
import { backends, baseUrl, withSettings } from "./Harness.ts"
import { cookiesOf, get, publishedSite, write } from "./SiteFixtures.ts"

/** The fake model: keeps the system prompts it is sent. */
const prompts: Array<string> = []
const provider = http.createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString()))
  request.on("end", () => {
    const parsed = JSON.parse(body) as { messages: Array<{ role: string; content: string }> }
    prompts.push(parsed.messages.find((m) => m.role === "system")?.content ?? "")
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "See [1]." } }] }))
  })
})
await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve))
const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`

const hidden = "SAML okapis"
const markdown = [
  "Every plan gets pricing tables.",
  "",
  "{% if visitor.claims.plan == \"enterprise\" %}",
  "## Enterprise pricing",
  "",
  "Enterprise pricing adds SAML okapis and a dedicated manager.",
  "{% endif %}"
].join("\n")

const titles = (text: string) => (JSON.parse(text) as { items: ReadonlyArray<{ title: string; snippet: string }> }).items

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: providerUrl, QUIRE_AI_MODEL: "fake-model" }), { timeout: 120_000, excludeTestServices: true })(
    `adaptive content on a published site (${backend.name})`,
    (it) => {
      it.effect("a block the visitor's claims do not open is in none of the page's views; one they open is in all", () =>
        Effect.gen(function*() {
          const s = yield* publishedSite("visitor-auth", { ai: { mode: "assistant" } } as never)
          yield* write(s.api, s.guides.id, [{ operation: "insert_page", title: "Pricing", slug: "pricing", document: { markdown } }])
          // A reusable content with an enterprise-only block, included in a page.
          const cr = yield* s.api.changeRequests.createChangeRequest({ params: { spaceId: s.guides.id }, payload: { subject: "Support" } })
          const reusable = yield* s.api.reusableContents.createReusableContentInChangeRequest({
            params: { spaceId: s.guides.id, changeRequestId: cr.id },
            payload: { title: "Support", markdown: "Write to the desk.\n\n{% if visitor.claims.plan == \"enterprise\" %}\nCall the narwhal hotline.\n{% endif %}\n" }
          })
          yield* s.api.changeRequestContent.updateChangeRequestContent({
            params: { spaceId: s.guides.id, changeRequestId: cr.id },
            payload: { changes: [{ operation: "insert_page", title: "Support", slug: "support", document: { markdown: `Help.\n\n{% include "/reusable-content/${reusable.id}" %}\n` } }] }
          })
          yield* s.api.changeRequests.mergeChangeRequest({ params: { spaceId: s.guides.id, changeRequestId: cr.id } })
          // Publishing again shows the new page's revision.
          yield* s.api.sites.publishSite({ params: s.siteParams })
          const visitor = Effect.fnUntraced(function*(plan: string) {
            const token = yield* VisitorToken.sign({ plan }, s.key, 3600)
            return cookiesOf(yield* get(`${s.path}?jwt_token=${token}`))
          })
          const free = yield* visitor("free")
          const enterprise = yield* visitor("enterprise")

          const html = yield* get(`${s.path}pricing`, { cookie: free })
          assert.strictEqual(html.status, 200)
          assert.include(html.text, "Every plan gets pricing tables.")
          assert.notInclude(html.text, hidden)

          const md = yield* get(`${s.path}pricing.md`, { cookie: free })
          assert.strictEqual(md.status, 200)
          assert.include(md.text, "Every plan gets pricing tables.")
          assert.notInclude(md.text, hidden)
          assert.notInclude(md.text, "{% if")
          assert.notInclude((yield* get(`${s.path}llms-full.txt`, { cookie: free })).text, hidden)
          // Included reusable content is the reader's too.
          const support = yield* get(`${s.path}support.md`, { cookie: free })
          assert.include(support.text, "Write to the desk.")
          assert.notInclude(support.text, "narwhal")
          assert.notInclude((yield* get(`${s.path}support`, { cookie: free })).text, "narwhal")
          assert.deepStrictEqual(titles((yield* get(`${s.path}~search?q=narwhal`, { cookie: free, accept: "application/json" })).text), [])

          // A search whose only match is hidden finds nothing; one that matches both shows only what the visitor sees.
          assert.deepStrictEqual(titles((yield* get(`${s.path}~search?q=okapis`, { cookie: free, accept: "application/json" })).text), [])
          const both = titles((yield* get(`${s.path}~search?q=pricing`, { cookie: free, accept: "application/json" })).text)
          assert.deepStrictEqual(both.map((item) => item.title), ["Pricing"])
          assert.notInclude(JSON.stringify(both), hidden)
          assert.notInclude(JSON.stringify(both), "Enterprise pricing")

          // Ask: the hidden block never reaches the model.
          const before = prompts.length
          const asked = yield* get(`${s.path}~ask?q=${encodeURIComponent("What does enterprise pricing add with okapis?")}`, { cookie: free, accept: "application/json" })
          assert.strictEqual(asked.status, 200, asked.text)
          assert.isFalse(prompts.slice(before).some((prompt) => prompt.includes(hidden)), "the hidden block reached the model")

          // The site's MCP server reads with the visitor's cookies.
          const base = yield* baseUrl
          const mcp = (cookie: string) =>
            Effect.promise(async () => {
              const client = new Client({ name: "adaptive-test", version: "1.0.0" })
              await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${s.path}~gitbook/mcp`), { requestInit: { headers: { cookie } } }))
              try {
                const text = (answer: unknown) => (answer as { content: Array<{ text: string }> }).content.map((part) => part.text).join("\n")
                return {
                  page: text(await client.callTool({ name: "getPage", arguments: { url: "pricing" } })),
                  search: text(await client.callTool({ name: "searchDocumentation", arguments: { query: "okapis" } }))
                }
              } finally {
                await client.close()
              }
            })
          const agent = yield* mcp(free)
          assert.include(agent.page, "Every plan gets pricing tables.")
          assert.notInclude(agent.page, hidden)
          assert.notInclude(agent.search, hidden)
          assert.include(agent.search, "Nothing on this site matches")

          // GitBook's renderer searches with the site reader's token it resolved for the visitor: their claims hold there too.
          const searchAs = (plan: string) =>
            Effect.gen(function*() {
              const jwtToken = yield* VisitorToken.sign({ plan }, s.key, 3600)
              return yield* Effect.promise(async () => {
                const post = async (path: string, token: string, body: unknown) => {
                  const response = await fetch(`${base}${path}`, {
                    method: "POST",
                    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
                    body: JSON.stringify(body)
                  })
                  return await response.json() as any
                }
                const found = await post("/v1/urls/published", s.token, { url: `http://quire.test${s.path}pricing`, visitor: { jwtToken } })
                const search = JSON.stringify(await post(`/v1/orgs/${s.organizationId}/sites/${s.siteId}/search`, found.apiToken, { query: "okapis" }))
                const page = await fetch(`${base}/v1/spaces/${found.space}/revisions/${found.revision}/path/pricing?format=markdown`, {
                  headers: { authorization: `Bearer ${found.apiToken}` }
                })
                const included = await fetch(`${base}/v1/spaces/${found.space}/revisions/${found.revision}/reusable-contents/${reusable.id}?format=markdown`, {
                  headers: { authorization: `Bearer ${found.apiToken}` }
                })
                return { search, markdown: await page.text(), reusable: await included.text() }
              })
            })
          const freeReader = yield* searchAs("free")
          assert.notInclude(freeReader.search, "Pricing")
          assert.notInclude(freeReader.search, "okapis\"")
          assert.include(freeReader.markdown, "Every plan gets pricing tables.")
          assert.notInclude(freeReader.markdown, hidden)
          assert.include(freeReader.reusable, "Write to the desk.")
          assert.notInclude(freeReader.reusable, "narwhal")
          const enterpriseReader = yield* searchAs("enterprise")
          assert.include(enterpriseReader.search, "Pricing")
          assert.include(enterpriseReader.markdown, hidden)
          assert.include(enterpriseReader.reusable, "narwhal")

          // The enterprise visitor reads it everywhere.
          assert.include((yield* get(`${s.path}pricing`, { cookie: enterprise })).text, hidden)
          assert.include((yield* get(`${s.path}pricing.md`, { cookie: enterprise })).text, hidden)
          assert.include((yield* get(`${s.path}llms-full.txt`, { cookie: enterprise })).text, hidden)
          const found = titles((yield* get(`${s.path}~search?q=okapis`, { cookie: enterprise, accept: "application/json" })).text)
          assert.deepStrictEqual(found.map((item) => item.title), ["Pricing"])
          assert.include(found[0]!.snippet, "okapis")
          // And the free visitor, after them, still does not (nothing kept for one is answered to the other).
          assert.notInclude((yield* get(`${s.path}pricing.md`, { cookie: free })).text, hidden)
          assert.notInclude((yield* get(`${s.path}llms-full.txt`, { cookie: free })).text, hidden)
        }))
    }
  )
}
