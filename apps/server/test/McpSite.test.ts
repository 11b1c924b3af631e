/**
 * A published site's MCP server (`<site>/~gitbook/mcp`) through the official MCP client: GitBook's
 * tools see what the site's visitor sees (adaptive sections by the visitor's claims, a share-link
 * site only with its key) and nothing of another site; a site can turn it off.
 */
import { assert, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { backends, baseUrl, publicUrl } from "./Harness.ts"
import { publishedSite } from "./SiteFixtures.ts"

interface ToolAnswer { readonly content: Array<{ type: string; text: string }>; readonly structuredContent?: any; readonly isError?: boolean }

/** `run` with an MCP client connected to `url`, and a way to call its tools. */
const withClient = async <A>(url: string, run: (call: (name: string, args: Record<string, unknown>) => Promise<ToolAnswer>, client: Client) => Promise<A>) => {
  const client = new Client({ name: "quire-site-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  try {
    return await run(async (name, args) => await client.callTool({ name, arguments: args }) as ToolAnswer, client)
  } finally {
    await client.close()
  }
}

const textOf = (answer: ToolAnswer) => answer.content.map((part) => part.text).join("\n")

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
})
const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" }

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000 })(`a published site's MCP server (${backend.name})`, (it) => {
    it.effect("searches and reads the site as its visitor, adaptive sections by the visitor's claims", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const site = yield* publishedSite("public")
        const other = yield* publishedSite("public")
        const mcp = `${base}${site.path}~gitbook/mcp`
        yield* Effect.promise(() =>
          withClient(mcp, async (call, client) => {
            assert.strictEqual(client.getServerVersion()?.name, "Handbook")
            assert.deepStrictEqual((await client.listTools()).tools.map((tool) => tool.name), ["searchDocumentation", "getPage", "sendFeedback"])
            const found = await call("searchDocumentation", { query: "giraffes" })
            assert.isUndefined(found.isError, textOf(found))
            const docker = (found.structuredContent.results as Array<{ title: string; url: string }>).find((result) => result.title === "Docker")
            assert.isDefined(docker, textOf(found))
            assert.isTrue(docker!.url.startsWith(`${publicUrl}${site.path}`), docker!.url)
            assert.include(textOf(await call("getPage", { url: docker!.url })), "Docker steps with giraffes.")
            assert.include(textOf(await call("getPage", { url: "install" })), "Install the **tool**.")
            // The beta section is for visitors with the claim: not this one.
            assert.strictEqual(textOf(await call("searchDocumentation", { query: "okapis" })), "Nothing on this site matches \"okapis\".")
            const missing = await call("getPage", { url: "no-such-page" })
            assert.deepStrictEqual([missing.isError, textOf(missing)], [true, "url no-such-page: no such page on this site"])
            // Feedback for the site's editors, kept on its insights; a bad category is refused by name.
            const sent = await call("sendFeedback", { category: "documentation", summary: "Docker needs a compose example.", url: "install/docker" })
            assert.isUndefined(sent.isError, textOf(sent))
            assert.isString(sent.structuredContent.id, JSON.stringify(sent))
            const wrong = await call("sendFeedback", { category: "rant", summary: "x" })
            assert.isTrue(wrong.isError)
            assert.include(textOf(wrong), "category")
            const elsewhere = await call("getPage", { url: `${publicUrl}${other.path}install` })
            assert.isTrue(elsewhere.isError)
            assert.include(textOf(elsewhere), "is not a page of this site")
          })
        )
        const feedback = yield* site.api.siteInsights.aggregateSiteEvents({
          params: site.siteParams,
          payload: { range: "last24Hours", where: [{ column: "eventType", values: ["agent_feedback"] }], select: [{ column: "url" }, { column: "displayContext" }] }
        })
        assert.deepStrictEqual(feedback.columns.map((c) => c.values[0]), [`${publicUrl}${site.path}install/docker`, "mcp"], JSON.stringify(feedback))
        // A visitor whose claims meet the beta section's condition finds it.
        const beta = yield* Effect.promise(() =>
          withClient(`${mcp}?visitor.beta=true`, async (call) => textOf(await call("searchDocumentation", { query: "okapis" })))
        )
        assert.include(beta, "Beta features")
        // GET is the site's: no page there.
        const stream = yield* Effect.promise(() => fetch(mcp))
        assert.strictEqual(stream.status, 404)
      }))

    it.effect("a share-link site's server answers only with the link's key; a site without the mcp page action offers none", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const shared = yield* publishedSite("share-link")
        const link = yield* shared.api.siteShareLinks.createSiteShareLink({ params: shared.siteParams, payload: { name: "Agents" } })
        const mcp = `${base}${shared.path}~gitbook/mcp`
        const without = yield* Effect.promise(() => fetch(mcp, { method: "POST", headers: mcpHeaders, body: initialize }))
        assert.strictEqual(without.status, 401)
        const key = new URL(link.urls.published!).searchParams.get("share")
        assert.isNotNull(key)
        const admitted = yield* Effect.promise(() =>
          withClient(`${mcp}?share=${key}`, async (call) => textOf(await call("getPage", { url: "install" })))
        )
        assert.include(admitted, "Install the **tool**.")

        const closed = yield* publishedSite("public", { pageActions: { items: ["markdown"] } } as never)
        const off = yield* Effect.promise(() => fetch(`${base}${closed.path}~gitbook/mcp`, { method: "POST", headers: mcpHeaders, body: initialize }))
        assert.strictEqual(off.status, 404)
        const unknown = yield* Effect.promise(() => fetch(`${base}/~sites/site_nope/~gitbook/mcp`, { method: "POST", headers: mcpHeaders, body: initialize }))
        assert.strictEqual(unknown.status, 404)
      }))

    it.effect("getPage reads only pages of its own site: an encoded path climbing out of it reaches neither another site nor the server", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const site = yield* publishedSite("public")
        // A site whose MCP server is off: its pages must not be read through another site's.
        const closed = yield* publishedSite("public", { pageActions: { items: ["markdown"] } } as never)
        const answers = yield* Effect.promise(() =>
          withClient(`${base}${site.path}~gitbook/mcp`, async (call) => {
            const out: Array<ToolAnswer> = []
            for (
              const url of [
                `..%2F${closed.siteId}%2Finstall`,
                `..%2f${closed.siteId}%2finstall`,
                `%2E%2E%2F${closed.siteId}%2Finstall`,
                `install%2F..%2F..%2F${closed.siteId}%2Finstall`,
                "..%2F..%2Fhealth%3F",
                "..%2F..%2Fv1%2Fuser%3F",
                "install%3Fx=1"
              ]
            ) out.push(await call("getPage", { url }))
            // Its own pages still read, by path and by an encoded path.
            out.push(await call("getPage", { url: "install%2Fdocker" }))
            return out
          })
        )
        const own = answers.pop()!
        assert.include(textOf(own), "Docker steps with giraffes.")
        for (const answer of answers) {
          assert.isTrue(answer.isError, textOf(answer))
          assert.notInclude(textOf(answer), "Install the **tool**.")
          assert.notInclude(textOf(answer), "\"status\"")
        }
      }))
  })
}
