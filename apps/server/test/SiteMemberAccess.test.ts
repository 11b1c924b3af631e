/**
 * A member signed in to Quire reads a share-link site without its key, but only the spaces their
 * own permissions open: a space they are denied (`defaultLevel: null`) is not served to them through
 * the site, its search, its markdown, llms-full.txt, its MCP server, Ask (`~ask` and
 * streamAskInSite), the API's site search, or a change request's preview. With the site's share
 * key, anyone reads what the key grants.
 */
import { assert, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { call, cookieOf } from "./AuthCalls.ts"
import { backends, baseUrl, withSettings } from "./Harness.ts"
import { cookiesOf, get, localPath, publishedSite } from "./SiteFixtures.ts"

/** The fake model: keeps the system prompts it is sent, answers citing the first source. */
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

type Site = Effect.Success<ReturnType<typeof publishedSite>>

/** A session cookie of a new person who joined the site's organization with the `read` role. */
const joined = Effect.fnUntraced(function*(site: Site, name: string) {
  yield* site.api.organizations.updateOrganizationById({ params: { organizationId: site.organizationId }, payload: { inviteLinks: true } })
  const invite = yield* site.api.organizations.createOrganizationInvite({ params: { organizationId: site.organizationId }, payload: { role: "read" } })
  const email = `${name.toLowerCase()}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`
  const answer = yield* call("POST", `/auth/invites/${site.organizationId}.${invite.id}/accept`, {
    body: { displayName: name, email, password: "correct horse battery" }
  })
  assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
  return cookieOf(answer)
})

const titles = (text: string) => (JSON.parse(text) as { items: ReadonlyArray<{ title: string }> }).items.map((item) => item.title)

const secret = "The endpoints."

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: providerUrl, QUIRE_AI_MODEL: "fake-model" }), { timeout: 120_000, excludeTestServices: true })(
    `a member on a published site (${backend.name})`,
    (it) => {
      it.effect("reads through the site only the spaces their permissions open, everywhere the site's content goes", () =>
        Effect.gen(function*() {
          const s = yield* publishedSite("share-link", { ai: { mode: "assistant" } } as never)
          // The API space is closed to the organization's members: only those given it read it.
          yield* s.api.spaces.updateSpaceById({ params: { spaceId: s.apiSpace.id }, payload: { defaultLevel: null } })
          const cookie = yield* joined(s, "Reader")
          assert.strictEqual((yield* call("GET", `/v1/spaces/${s.apiSpace.id}`, { cookie })).status, 404)

          // The site, with their session and no key: the spaces they read, not the one they are denied.
          const install = yield* get(`${s.path}install`, { cookie })
          assert.strictEqual(install.status, 200)
          assert.include(install.text, "Install the <strong>tool</strong>")
          assert.notInclude(install.text, "Endpoints")
          assert.notInclude((yield* get(`${s.path}api/`, { cookie })).text, secret)
          assert.notInclude((yield* get(`${s.path}api/endpoints`, { cookie })).text, secret)
          assert.notInclude((yield* get(`${s.path}api/endpoints.md`, { cookie })).text, secret)
          assert.notInclude((yield* get(`${s.path}llms-full.txt`, { cookie })).text, secret)
          assert.notInclude((yield* get(`${s.path}llms.txt`, { cookie })).text, "Endpoints")
          const searched = yield* get(`${s.path}~search?q=endpoints`, { cookie, accept: "application/json" })
          assert.strictEqual(searched.status, 200)
          assert.notInclude(titles(searched.text), "Endpoints")
          assert.include(titles((yield* get(`${s.path}~search?q=giraffes`, { cookie, accept: "application/json" })).text), "Docker")

          // Ask on the site and through the API: the denied space never reaches the model.
          const before = prompts.length
          const asked = yield* get(`${s.path}~ask?q=${encodeURIComponent("What are the endpoints?")}`, { cookie, accept: "application/json" })
          assert.strictEqual(asked.status, 200, asked.text)
          assert.notInclude(asked.text, "Endpoints")
          const base = yield* baseUrl
          const streamed = yield* Effect.promise(async () => {
            const response = await fetch(`${base}/v1/orgs/${s.organizationId}/sites/${s.siteId}/ask?format=markdown`, {
              method: "POST",
              headers: { cookie, origin: "http://quire.test", "content-type": "application/json" },
              body: JSON.stringify({ question: "What are the endpoints?", scope: { mode: "all" } })
            })
            return { status: response.status, text: await response.text() }
          })
          assert.strictEqual(streamed.status, 200, streamed.text)
          assert.notInclude(streamed.text, "Endpoints")
          assert.isFalse(prompts.slice(before).some((prompt) => prompt.includes(secret)), "the denied space reached the model")

          // The API's site search covers the spaces they read.
          const apiSearch = yield* call("POST", `/v1/orgs/${s.organizationId}/sites/${s.siteId}/search`, { cookie, body: { query: "endpoints" } })
          assert.strictEqual(apiSearch.status, 200, JSON.stringify(apiSearch.body))
          assert.notInclude(JSON.stringify(apiSearch.body), "Endpoints")

          // The site's MCP server, with their session.
          const page = yield* Effect.promise(async () => {
            const client = new Client({ name: "member-test", version: "1.0.0" })
            await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${s.path}~gitbook/mcp`), { requestInit: { headers: { cookie } } }))
            try {
              const read = await client.callTool({ name: "getPage", arguments: { url: "api/endpoints" } }) as { content: Array<{ text: string }> }
              const found = await client.callTool({ name: "searchDocumentation", arguments: { query: "endpoints" } }) as { content: Array<{ text: string }> }
              const allowed = await client.callTool({ name: "getPage", arguments: { url: "install" } }) as { content: Array<{ text: string }> }
              return [read, found, allowed].map((answer) => answer.content.map((part) => part.text).join("\n"))
            } finally {
              await client.close()
            }
          })
          assert.notInclude(page[0], secret)
          assert.notInclude(page[1], "Endpoints")
          assert.include(page[2], "Install the **tool**.")

          // The preview of a change request of another space of the site (one they may read).
          const cr = yield* s.api.changeRequests.createChangeRequest({ params: { spaceId: s.guides.id }, payload: { subject: "Edit" } })
          const preview = yield* s.api.sitePreview.getSitePublishingPreviewById({ params: s.siteParams, query: { changeRequest: cr.id } })
          const root = localPath(preview.url)
          const previewed = yield* get(`${root}install`, { cookie })
          assert.strictEqual(previewed.status, 200)
          assert.notInclude(previewed.text, "Endpoints")
          assert.notInclude((yield* get(`${root}api/endpoints`, { cookie })).text, secret)
          assert.notInclude(titles((yield* get(`${root}~search?q=endpoints`, { cookie, accept: "application/json" })).text), "Endpoints")

          // With the site's share key, the key's audience reads the whole site, as anyone with it does.
          const link = yield* s.api.siteShareLinks.createSiteShareLink({ params: s.siteParams, payload: { name: "Readers" } })
          const key = new URL(link.urls.published!).searchParams.get("share")!
          const keyCookie = cookiesOf(yield* get(`${s.path}?share=${key}`))
          for (const path of ["api/", "api/endpoints.md", "llms-full.txt"]) {
            const keyed = yield* get(`${s.path}${path}`, { cookie: keyCookie })
            assert.strictEqual(keyed.status, 200, path)
            assert.include(keyed.text, secret, path)
          }
          // The same member with the key (their session and the key's cookie) reads what the key grants.
          assert.include((yield* get(`${s.path}api/`, { cookie: `${cookie}; ${keyCookie}` })).text, secret)
        }))
    }
  )
}
