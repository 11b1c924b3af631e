/**
 * `GET /metrics`: Prometheus's text format with requests by route template and status, their
 * durations, cache lookups, the job queue's depth and the database client's connections; open to
 * this machine only, or to `QUIRE_METRICS_TOKEN`'s bearer when it is set.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminToken, everyBackend, baseUrl, client, memory, mergeIntoMain, raw, spaceWith, withSettings } from "./Harness.ts"
import { parse, valueOf } from "./Prometheus.ts"

const scrape = Effect.fnUntraced(function*(headers: Record<string, string> = {}) {
  const base = yield* baseUrl
  const response = yield* Effect.promise(() => fetch(`${base}/metrics`, { headers }))
  return { status: response.status, type: response.headers.get("content-type"), text: yield* Effect.promise(() => response.text()) }
})

for (const backend of everyBackend) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`/metrics on ${backend.name}`, (it) => {
    it.effect("counts requests by route template and status, their durations and the token cache, in Prometheus's format", () =>
      Effect.gen(function*() {
        const admin = yield* client(adminToken)
        const org = yield* admin.organizations.createOrganization({ payload: { title: "Metrics" } })
        for (const _ of [1, 2]) assert.strictEqual((yield* raw("GET", `/v1/orgs/${org.id}`, { token: adminToken })).status, 200)
        assert.strictEqual((yield* raw("GET", "/v1/orgs/nope-nope", { token: adminToken })).status, 404)
        assert.strictEqual((yield* raw("GET", "/no/such/route")).status, 404)
        yield* raw("GET", "/health")

        const answer = yield* scrape()
        assert.strictEqual(answer.status, 200)
        assert.strictEqual(answer.type, "text/plain; version=0.0.4; charset=utf-8")
        const samples = parse(answer.text)
        const route = "/v1/orgs/:organizationId"
        assert.strictEqual(valueOf(samples, "quire_http_requests_total", { method: "GET", route, status: "200" }), 2)
        assert.strictEqual(valueOf(samples, "quire_http_requests_total", { method: "GET", route, status: "404" }), 1)
        assert.strictEqual(valueOf(samples, "quire_http_requests_total", { route: "(unmatched)", status: "404" }), 1)
        assert.strictEqual(valueOf(samples, "quire_http_request_duration_seconds_count", { method: "GET", route }), 3)
        assert.strictEqual(valueOf(samples, "quire_http_request_duration_seconds_bucket", { method: "GET", route, le: "+Inf" }), 3)
        // Probes are counted (only the request log leaves them out).
        assert.strictEqual(valueOf(samples, "quire_http_requests_total", { route: "/health", status: "200" }), 1)
        // The admin's token was looked up on the first request and found kept on the next ones.
        assert.isAtLeast(valueOf(samples, "quire_cache_lookups_total", { cache: "token_owners", result: "hit" }) ?? 0, 2)
        assert.isAtLeast(valueOf(samples, "quire_cache_lookups_total", { cache: "token_owners", result: "miss" }) ?? 0, 1)
        if (backend.name !== "memory") assert.isAtLeast(valueOf(samples, "quire_db_pool_max_connections") ?? 0, 1)
        if (backend.name === "pglite") {
          // The embedded queue's table (the test servers' own queue is in memory: it holds none).
          assert.strictEqual(valueOf(samples, "quire_jobs_queued", { state: "running" }), 0)
          assert.strictEqual(valueOf(samples, "quire_jobs_queued", { state: "waiting" }), 0)
        }
        if (backend.name === "postgres") {
          // The scrape's own query is one active connection of this server's client.
          assert.isAtLeast(valueOf(samples, "quire_db_pool_connections", { state: "active" }) ?? 0, 1)
        }
        // A scrape is counted (by the next one), never logged nor traced.
        const again = parse((yield* scrape()).text)
        assert.strictEqual(valueOf(again, "quire_http_requests_total", { route: "/metrics", status: "200" }), 1)
      }))
  })
}

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("/metrics of the bounded caches", (it) => {
  it.effect("shows each named cache's entries, capacity, hits, misses and evictions", () =>
    Effect.gen(function*() {
      const setup = yield* spaceWith()
      const spaceId = setup.space.id
      yield* mergeIntoMain(setup.alice.api, spaceId, [
        { operation: "insert_page", title: "Home", document: { markdown: "Some code:\n\n```js\nconst answer = 42\n```\n" } }
      ])
      const { pages } = yield* setup.alice.api.spaceContent.listPages({ params: { spaceId }, query: {} })
      const read = setup.alice.api.spaceContent.getPageById({ params: { spaceId, pageId: pages[0]!.id }, query: { format: "html" } })
      // Drawn once, then read from the server's cache of page bodies.
      for (const _ of [1, 2]) assert.include((yield* read).html ?? "", "shiki")
      // GitBook's document likewise: built once, then the same answer from the cache.
      const asDocument = setup.alice.api.spaceContent.getPageById({ params: { spaceId, pageId: pages[0]!.id }, query: {} })
      const [first, second] = [yield* asDocument, yield* asDocument]
      assert.include(JSON.stringify(first.document), "const answer = 42")
      assert.deepStrictEqual(second.document, first.document)

      const samples = parse((yield* scrape()).text)
      assert.strictEqual(valueOf(samples, "quire_cache_lookups_total", { cache: "page_bodies", result: "miss" }), 1)
      assert.strictEqual(valueOf(samples, "quire_cache_lookups_total", { cache: "page_bodies", result: "hit" }), 1)
      assert.strictEqual(valueOf(samples, "quire_cache_entries", { cache: "page_bodies" }), 1)
      assert.strictEqual(valueOf(samples, "quire_cache_max_weight", { cache: "page_bodies" }), 8_000_000)
      assert.strictEqual(valueOf(samples, "quire_cache_evictions_total", { cache: "page_bodies" }), 0)
      // Kept as the JSON the answer sends, weighed in bytes.
      assert.strictEqual(valueOf(samples, "quire_cache_lookups_total", { cache: "page_document_json", result: "miss" }), 1)
      assert.strictEqual(valueOf(samples, "quire_cache_lookups_total", { cache: "page_document_json", result: "hit" }), 1)
      assert.strictEqual(valueOf(samples, "quire_cache_weight", { cache: "page_document_json" }), Buffer.byteLength(JSON.stringify(first.document)))
      // The code block was highlighted once, by the server's one highlighter.
      assert.strictEqual(valueOf(samples, "quire_cache_entries", { cache: "highlighted_code" }), 1)
      // Every cache of the server is listed by name with its bound, used or not.
      for (const cache of ["fast_pages", "fast_posts", "published_sites", "site_themes", "site_answers", "site_revisions", "site_place_trees", "spec_documents", "revision_specs", "link_graphs", "highlighted_code"]) {
        assert.isAbove(valueOf(samples, "quire_cache_capacity", { cache }) ?? 0, 0, cache)
      }
    }))
})

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("/metrics of the page trees", (it) => {
  it.effect("keeps a revision's page tree as the JSON bytes it answers, weighed in bytes, and answers them again as they are", () =>
    Effect.gen(function*() {
      const setup = yield* spaceWith()
      const spaceId = setup.space.id
      // Titles past ASCII: their JSON's bytes are more than its characters.
      yield* mergeIntoMain(setup.alice.api, spaceId, [{ operation: "insert_page", title: "Café – 文書 📚", document: { markdown: "Hi." } }])
      const base = yield* baseUrl
      const read = Effect.promise(async () => {
        const response = await fetch(`${base}/v1/spaces/${spaceId}/content/pages`, { headers: { authorization: `Bearer ${setup.alice.token}` } })
        return { type: response.headers.get("content-type"), bytes: new Uint8Array(await response.arrayBuffer()) }
      })
      const [first, second] = [yield* read, yield* read]
      assert.strictEqual(first.type, "application/json")
      assert.deepStrictEqual(second.bytes, first.bytes)
      const { pages } = JSON.parse(new TextDecoder().decode(first.bytes)) as { pages: ReadonlyArray<{ title: string }> }
      assert.deepStrictEqual(pages.map((page) => page.title), ["Café – 文書 📚"])
      assert.deepStrictEqual((yield* setup.alice.api.spaceContent.listPages({ params: { spaceId }, query: {} })).pages.map((page) => page.title), ["Café – 文書 📚"])

      const samples = parse((yield* scrape()).text)
      assert.strictEqual(valueOf(samples, "quire_cache_lookups_total", { cache: "page_trees", result: "miss" }), 1)
      assert.strictEqual(valueOf(samples, "quire_cache_lookups_total", { cache: "page_trees", result: "hit" }), 2)
      assert.strictEqual(valueOf(samples, "quire_cache_weight", { cache: "page_trees" }), first.bytes.byteLength)
    }))
})

layer(withSettings(memory.layer, { QUIRE_METRICS_TOKEN: "scrape-secret" }), { excludeTestServices: true })("/metrics with QUIRE_METRICS_TOKEN", (it) => {
  it.effect("answers 401 without the bearer token or with another, 200 with it", () =>
    Effect.gen(function*() {
      const none = yield* scrape()
      assert.strictEqual(none.status, 401)
      assert.deepStrictEqual(JSON.parse(none.text), {
        error: { code: 401, message: "The metrics need the token of QUIRE_METRICS_TOKEN: Authorization: Bearer <token>" }
      })
      assert.strictEqual((yield* scrape({ authorization: "Bearer wrong" })).status, 401)
      assert.strictEqual((yield* scrape({ authorization: adminToken })).status, 401)
      const ok = yield* scrape({ authorization: "Bearer scrape-secret" })
      assert.strictEqual(ok.status, 200)
      parse(ok.text)
    }))
})

layer(withSettings(memory.layer, { QUIRE_TRUST_PROXY: true }), { excludeTestServices: true })("/metrics without a token", (it) => {
  it.effect("answers only this machine: 403 to a client a proxy forwards from elsewhere", () =>
    Effect.gen(function*() {
      const remote = yield* scrape({ "x-forwarded-for": "203.0.113.9" })
      assert.strictEqual(remote.status, 403)
      assert.match(JSON.parse(remote.text).error.message, /only on this machine/)
      assert.strictEqual((yield* scrape({ "x-forwarded-for": "127.0.0.1" })).status, 200)
    }))
})
