/**
 * Rate limits as a client meets them, on servers whose budget is 4 requests a minute (set here
 * only, with QUIRE_TRUST_PROXY): GitBook's headers on every API answer, 429 with Retry-After past the budget, and one
 * budget per token and one per address (127.0.0.1, ::1) for anonymous requests and refused tokens.
 */
import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { baseUrl, newUser, serverOn } from "./Harness.ts"

const limit = 4

const lowLimit = ConfigProvider.layerAdd(
  ConfigProvider.fromUnknown({ QUIRE_RATE_LIMIT: limit, QUIRE_RATE_LIMIT_WINDOW: 60, QUIRE_TRUST_PROXY: true }),
  { asPrimary: true }
)

const everyBackend = Backends.make({
  memory: serverOn(Services.layerMemory, "memory").pipe(Layer.provide(lowLimit)),
  migrations: Services.migrations,
  sql: (database) => serverOn(Services.layerSql, database === "pglite" ? "embedded" : "postgres").pipe(Layer.provide(lowLimit))
})

/** A GET from 127.0.0.1, or from `::1` (another address: the test server listens on both). */
const get = Effect.fnUntraced(function*(path: string, token?: string, from: "127.0.0.1" | "::1" = "127.0.0.1", forwardedFor?: string) {
  const base = from === "::1" ? (yield* baseUrl).replace("127.0.0.1", "[::1]") : yield* baseUrl
  const response = yield* Effect.promise(() =>
    fetch(`${base}${path}`, {
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor })
      }
    })
  )
  const text = yield* Effect.promise(() => response.text())
  return {
    status: response.status,
    body: text === "" ? undefined : JSON.parse(text) as unknown,
    header: (name: string) => response.headers.get(name)
  }
})

for (const backend of everyBackend) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`rate limits on ${backend.name}`, (it) => {
    it.effect("each token has its budget, counted down in the headers, then 429 with Retry-After", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const bob = yield* newUser("Bob")
        const now = Math.floor(Date.now() / 1000)

        const remaining: Array<string | null> = []
        for (let i = 0; i < limit; i++) {
          const answer = yield* get("/v1/user", alice.token)
          assert.strictEqual(answer.status, 200)
          assert.strictEqual(answer.header("x-ratelimit-limit"), String(limit))
          const reset = Number(answer.header("x-ratelimit-reset"))
          assert.isTrue(reset >= now && reset <= now + 62, `reset ${reset} is within the window from ${now}`)
          remaining.push(answer.header("x-ratelimit-remaining"))
        }
        assert.deepStrictEqual(remaining, ["3", "2", "1", "0"])

        const refused = yield* get("/v1/user", alice.token)
        assert.strictEqual(refused.status, 429)
        assert.strictEqual((refused.body as { error: { code: number } }).error.code, 429)
        assert.strictEqual(refused.header("x-ratelimit-remaining"), "0")
        const retryAfter = Number(refused.header("retry-after"))
        assert.isTrue(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`)

        // Bob's budget is his own.
        const other = yield* get("/v1/user", bob.token)
        assert.strictEqual(other.status, 200)
        assert.strictEqual(other.header("x-ratelimit-remaining"), "3")

        // Anonymous requests draw on their address's budget, not on a token's; errors carry the headers too.
        const anonymous = yield* get("/v1/user")
        assert.strictEqual(anonymous.status, 401)
        assert.strictEqual(anonymous.header("x-ratelimit-remaining"), "3")
        for (let i = 0; i < limit - 1; i++) yield* get("/v1/user")
        const anonymousRefused = yield* get("/v1/user")
        assert.strictEqual(anonymousRefused.status, 429)
        assert.isNotNull(anonymousRefused.header("retry-after"))

        // Another address has a budget of its own.
        const elsewhere = yield* get("/v1/user", undefined, "::1")
        assert.strictEqual(elsewhere.status, 401)
        assert.strictEqual(elsewhere.header("x-ratelimit-remaining"), "3")

        // Made-up tokens are no way around an address's budget: once it has sent as many refused
        // tokens as the limit, its bearer requests are 429 for the window; other addresses are served.
        for (let i = 0; i < limit; i++) assert.strictEqual((yield* get("/v1/user", `made-up-${i}`, "::1")).status, 401)
        const madeUp = yield* get("/v1/user", "made-up-again", "::1")
        assert.strictEqual(madeUp.status, 429)
        assert.isNotNull(madeUp.header("retry-after"))
        assert.strictEqual((yield* get("/v1/user", bob.token, "::1")).status, 429)
        assert.strictEqual((yield* get("/v1/user", bob.token)).status, 200)

        // Behind the trusted proxy (QUIRE_TRUST_PROXY), the address it appended to X-Forwarded-For is the caller.
        const proxied = yield* get("/v1/user", undefined, "127.0.0.1", "198.51.100.1, 203.0.113.7")
        assert.strictEqual(proxied.status, 401)
        assert.strictEqual(proxied.header("x-ratelimit-remaining"), "3")
        const spoofed = yield* get("/v1/user", undefined, "127.0.0.1", "203.0.113.7, 203.0.113.8")
        assert.strictEqual(spoofed.header("x-ratelimit-remaining"), "3")
        const again = yield* get("/v1/user", undefined, "127.0.0.1", "203.0.113.7")
        assert.strictEqual(again.header("x-ratelimit-remaining"), "2")

        // Outside the API nothing is counted: /health answers while every budget is spent.
        const health = yield* get("/health")
        assert.strictEqual(health.status, 200)
        assert.isNull(health.header("x-ratelimit-limit"))
      }))
  })
}
