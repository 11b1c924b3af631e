import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { LocalServer } from "@quire/testkit"
import {
  isPublicAddress,
  OutboundFetch,
  type OutboundFetchOptions,
  parseAllowList,
  permittedAddresses
} from "../src/OutboundFetch.ts"

const limits = { maxBytes: 64 * 1024, timeout: "5 seconds" } as const

const get = (url: string, options: OutboundFetchOptions, fetchLimits: { maxBytes: number; timeout: `${number} ${"millis" | "seconds"}` } = limits) =>
  OutboundFetch.use((fetcher) => fetcher.get(url, fetchLimits)).pipe(Effect.provide(OutboundFetch.layer(options)))

const reasonOf = (effect: Effect.Effect<unknown, { readonly reason: string }>) =>
  effect.pipe(Effect.flip, Effect.map((error) => error.reason))

const resolveToMetadata = () => Promise.resolve([{ address: "169.254.169.254", family: 4 as const }])

describe("isPublicAddress", () => {
  it("refuses every kind of non-public address, IPv4 and IPv6", () => {
    for (
      const address of [
        "127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
        "0.0.0.0", "224.0.0.1", "255.255.255.255", "192.0.2.1", "240.0.0.1",
        "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
        "::127.0.0.1", "64:ff9b::a00:1", "2001:db8::1", "not-an-address"
      ]
    ) {
      assert.isFalse(isPublicAddress(address), address)
    }
  })

  it("accepts public addresses", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:93.184.216.34"]) {
      assert.isTrue(isPublicAddress(address), address)
    }
  })

  it("lets an allow-list open names, addresses and networks", () => {
    const allow = parseAllowList(["127.0.0.1", "10.0.0.0/8", "docs.internal", "*.corp.test", "[::1]"])
    const addresses = [{ address: "127.0.0.1" }, { address: "10.9.9.9" }, { address: "192.168.0.1" }, { address: "::1" }]
    assert.deepStrictEqual(permittedAddresses("wiki.example", addresses, allow).map((a) => a.address), ["127.0.0.1", "10.9.9.9", "::1"])
    assert.strictEqual(permittedAddresses("docs.internal", addresses, allow).length, 4)
    assert.strictEqual(permittedAddresses("a.corp.test", [{ address: "192.168.0.1" }], allow).length, 1)
    assert.deepStrictEqual(permittedAddresses("x", [{ address: "::ffff:127.0.0.1" }], allow).length, 1)
    assert.strictEqual(permittedAddresses("x", [{ address: "192.168.0.1" }], parseAllowList([])).length, 0)
  })
})

describe("OutboundFetch", () => {
  it.live("refuses loopback, private and link-local destinations before connecting", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serveRoutes({ "/": { body: "secret" } })
      for (
        const url of [
          `${server.origin}/`,
          `http://localhost:${server.port}/`,
          `http://[::1]:${server.port}/`,
          `http://[::ffff:127.0.0.1]:${server.port}/`,
          `http://2130706433:${server.port}/`,
          "http://10.0.0.1/",
          "http://169.254.169.254/latest/meta-data/",
          "http://[fd00::1]/"
        ]
      ) {
        assert.strictEqual(yield* reasonOf(get(url, { allow: [] })), "blocked", url)
      }
      assert.strictEqual(server.connections(), 0)
    }))

  it.live("refuses a host whose name resolves to a private address", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* reasonOf(get("http://metadata.quire.test/", { allow: [], resolve: resolveToMetadata })), "blocked")
    }))

  it.live("checks a URL without connecting: what get would refuse, and what it would let through", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serveRoutes({ "/": { body: "secret" } })
      const check = (url: string, options: OutboundFetchOptions) =>
        OutboundFetch.use((fetcher) => fetcher.check(url)).pipe(Effect.provide(OutboundFetch.layer(options)))
      assert.strictEqual(yield* reasonOf(check(`${server.origin}/mcp`, { allow: [] })), "blocked")
      assert.strictEqual(yield* reasonOf(check("http://metadata.quire.test/", { allow: [], resolve: resolveToMetadata })), "blocked")
      assert.strictEqual(yield* reasonOf(check("ftp://example.com/", { allow: [] })), "invalid-url")
      yield* check(`${server.origin}/mcp`, { allow: ["127.0.0.1"] })
      yield* check("https://mcp.quire.test/", { allow: [], resolve: () => Promise.resolve([{ address: "93.184.215.14", family: 4 as const }]) })
      assert.strictEqual(server.connections(), 0)
    }))

  it.live("fetches an allow-listed local server and follows redirects", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serveRoutes({
        "/old": { status: 301, headers: { location: "/new" } },
        "/new": { body: "<h1>New</h1>" }
      })
      const resource = yield* get(`${server.origin}/old`, { allow: ["127.0.0.1"] })
      assert.strictEqual(resource.url, `${server.origin}/new`)
      assert.strictEqual(resource.status, 200)
      assert.strictEqual(resource.contentType, "text/html; charset=utf-8")
      assert.strictEqual(new TextDecoder().decode(resource.body), "<h1>New</h1>")
    }))

  it.live("checks every redirect again", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serveRoutes({ "/": { status: 302, headers: { location: "http://169.254.169.254/latest/" } } })
      assert.strictEqual(yield* reasonOf(get(`${server.origin}/`, { allow: ["127.0.0.1"] })), "blocked")
    }))

  it.live("connects to the address it checked, without asking DNS again", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serveRoutes({ "/": { body: "pinned" } })
      const asked: Array<string> = []
      const resolve = (hostname: string) => {
        asked.push(hostname)
        return Promise.resolve([{ address: "127.0.0.1", family: 4 as const }])
      }
      // The name exists only in this resolver: a second, system lookup before connecting would fail.
      const resource = yield* get(`http://docs.quire.test:${server.port}/`, { allow: ["127.0.0.0/8"], resolve })
      assert.strictEqual(new TextDecoder().decode(resource.body), "pinned")
      assert.deepStrictEqual(asked, ["docs.quire.test"])
    }))

  it.live("gives up after 5 redirects", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serveRoutes({ "/loop": { status: 302, headers: { location: "/loop" } } })
      assert.strictEqual(yield* reasonOf(get(`${server.origin}/loop`, { allow: ["127.0.0.1"] })), "http")
      assert.strictEqual(server.connections(), 6)
    }))

  it.live("fails on error statuses and on non-http URLs", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serveRoutes({})
      assert.strictEqual(yield* reasonOf(get(`${server.origin}/missing`, { allow: ["127.0.0.1"] })), "http")
      assert.strictEqual(yield* reasonOf(get("file:///etc/passwd", { allow: [] })), "invalid-url")
      assert.strictEqual(yield* reasonOf(get("not a url", { allow: [] })), "invalid-url")
    }))

  it.live("aborts bodies larger than the limit, declared or streamed", () =>
    Effect.gen(function*() {
      const declared = yield* LocalServer.serveRoutes({ "/": { type: "application/octet-stream", body: "x".repeat(5000) } })
      assert.strictEqual(yield* reasonOf(get(`${declared.origin}/`, { allow: ["127.0.0.1"] }, { maxBytes: 1000, timeout: "5 seconds" })), "too-large")
      const streamed = yield* LocalServer.serve((_req, res) => {
        res.writeHead(200, { "content-type": "application/octet-stream" })
        const chunk = Buffer.alloc(1024, 1)
        let sent = 0
        const timer = setInterval(() => {
          if (sent++ >= 1000 || res.destroyed) {
            clearInterval(timer)
            return res.end()
          }
          res.write(chunk)
        }, 1)
      })
      assert.strictEqual(yield* reasonOf(get(`${streamed.origin}/`, { allow: ["127.0.0.1"] }, { maxBytes: 10_000, timeout: "5 seconds" })), "too-large")
    }))

  it.live("times out on a server that does not answer", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serve(() => {})
      assert.strictEqual(yield* reasonOf(get(`${server.origin}/`, { allow: ["127.0.0.1"] }, { maxBytes: 1000, timeout: "200 millis" })), "timeout")
    }))

  it.live("reads its allow-list from QUIRE_FETCH_ALLOW", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serveRoutes({ "/": { body: "ok" } })
      const fetchWith = (env: Record<string, string>) =>
        OutboundFetch.use((fetcher) => fetcher.get(`${server.origin}/`, limits)).pipe(
          Effect.provide(OutboundFetch.layerConfig.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))), Layer.orDie))
        )
      const resource = yield* fetchWith({ QUIRE_FETCH_ALLOW: "docs.internal, 127.0.0.1" })
      assert.strictEqual(resource.status, 200)
      assert.strictEqual(yield* reasonOf(fetchWith({})), "blocked")
    }))
})
