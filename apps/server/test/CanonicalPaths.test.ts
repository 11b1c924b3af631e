/**
 * Every spelling of an API path, sent as it is written (node:http: fetch would clean `.` and `..`
 * segments up) to a real server with a budget of 20 requests a minute: refused 404 before any
 * middleware or handler, or a `/v1/...` path that passes the rate limiter, the made-up-token
 * lockout, idempotency and `no-store`.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { request } from "node:http"
import { Services } from "@quire/platform"
import { baseUrl, newUser, serverOn, withSettings } from "./Harness.ts"
import { nonCanonical, routeKey } from "../src/CanonicalPaths.ts"

const limit = 20

type Answer = { readonly status: number; readonly body: string; readonly header: (name: string) => string | undefined }

/** A request whose target is `path` byte for byte. */
const send = Effect.fnUntraced(function*(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const port = Number(new URL(yield* baseUrl).port)
  return yield* Effect.callback<Answer>((resume) => {
    const outgoing = request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () =>
        resume(Effect.succeed({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          header: (name: string) => {
            const value = response.headers[name]
            return Array.isArray(value) ? value.join(", ") : value
          }
        })))
    })
    outgoing.on("error", (error) => resume(Effect.die(error)))
    outgoing.end(body)
  })
})

/** Spellings of `/v1/<rest>` the router sends to the same handler, or near enough to try. */
const variants = (rest: string) => [
  `//v1/${rest}`,
  `///v1/${rest}`,
  `/V1/${rest}`,
  `/v1//${rest}`,
  `/v1/./${rest}`,
  `/v1/%2e/${rest}`,
  `/v1/%2E%2E/v1/${rest}`,
  `/v1/../v1/${rest}`,
  `/%761/${rest}`,
  `/%2Fv1/${rest}`,
  `/v1%2F${rest}`,
  `http://quire.test//V1/${rest}`,
  `/v1;x/${rest}`
]

const server = withSettings(serverOn(Services.layerMemory, "memory"), {
  QUIRE_RATE_LIMIT: limit,
  QUIRE_RATE_LIMIT_WINDOW: 60,
  QUIRE_TRUST_PROXY: true
})

layer(Layer.fresh(server), { timeout: 120_000, excludeTestServices: true })("canonical API paths", (it) => {
  it("the router's view of a path, and which spellings are canonical", () => {
    assert.strictEqual(routeKey("//V1//Orgs/?x=1"), "/v1/orgs")
    assert.strictEqual(routeKey("http://h/%761/user"), "/v1/user")
    assert.isUndefined(nonCanonical("/v1/orgs"))
    assert.isUndefined(nonCanonical("/v1/spaces/s/content/path/guides%2Fsetup/"))
    assert.isUndefined(nonCanonical("/o/org/s/space"))
    assert.isUndefined(nonCanonical("/~sites/abc/Guides//Setup"))
    for (const path of variants("orgs")) {
      if (routeKey(path).startsWith("/v1/")) assert.isDefined(nonCanonical(path), path)
    }
  })

  it.effect("a spelling other than /v1/... reaches no handler: 404 with the envelope and no-store", () =>
    Effect.gen(function*() {
      const alice = yield* newUser("Alice")
      for (const path of variants("user")) {
        const answer = yield* send("GET", path, { authorization: `Bearer ${alice.token}`, "x-forwarded-for": `10.7.0.${variants("user").indexOf(path)}` })
        assert.strictEqual(answer.status, 404, `${path}: ${answer.body}`)
        assert.strictEqual((JSON.parse(answer.body) as { error: { code: number } }).error.code, 404, path)
        assert.strictEqual(answer.header("cache-control"), "no-store", path)
        assert.strictEqual(answer.header("x-content-type-options"), "nosniff", path)
        assert.strictEqual(answer.header("content-security-policy")?.startsWith("default-src 'none'"), true, path)
      }
    }))

  it.effect("a trailing slash, or an absolute target (read as its path), is /v1/...: it draws on the budget and is answered no-store", () =>
    Effect.gen(function*() {
      const alice = yield* newUser("Alice")
      const headers = { authorization: `Bearer ${alice.token}` }
      const remaining: Array<string | undefined> = []
      for (let i = 0; i < limit; i++) {
        const answer = yield* send("GET", i % 2 === 0 ? "/v1/user/" : "http://quire.test/v1/user", headers)
        assert.strictEqual(answer.status, 200, answer.body)
        assert.strictEqual(answer.header("cache-control"), "no-store")
        remaining.push(answer.header("x-ratelimit-remaining"))
      }
      assert.deepStrictEqual(remaining, Array.from({ length: limit }, (_, i) => String(limit - 1 - i)))
      assert.strictEqual((yield* send("GET", "/v1/user/", headers)).status, 429)
      assert.strictEqual((yield* send("GET", "/v1/user", headers)).status, 429)
    }))

  it.effect("an address locked out for made-up tokens stays locked out under every spelling", () =>
    Effect.gen(function*() {
      const from = { "x-forwarded-for": "10.9.9.9" }
      for (let i = 0; i < limit; i++) {
        const refused = yield* send("GET", "/v1/user", { ...from, authorization: `Bearer quire_made_up_${i}` })
        assert.strictEqual(refused.status, 401)
      }
      assert.strictEqual((yield* send("GET", "/v1/user", { ...from, authorization: "Bearer quire_made_up_x" })).status, 429)
      for (const path of [...variants("user"), "/v1/user/"]) {
        const answer = yield* send("GET", path, { ...from, authorization: `Bearer quire_made_up_${path}` })
        assert.include([404, 429], answer.status, `${path}: ${answer.body}`)
      }
    }))

  it.effect("an Idempotency-Key holds under every spelling: refused, or replayed", () =>
    Effect.gen(function*() {
      const bob = yield* newUser("Bob")
      const headers = { authorization: `Bearer ${bob.token}`, "content-type": "application/json", "idempotency-key": "one-org" }
      const body = JSON.stringify({ title: "Once" })
      for (const path of variants("orgs")) {
        assert.strictEqual((yield* send("POST", path, { ...headers, "x-forwarded-for": "10.8.0.1" }, body)).status, 404, path)
      }
      const first = yield* send("POST", "/v1/orgs/", { ...headers, "x-forwarded-for": "10.8.0.2" }, body)
      assert.strictEqual(first.status, 201, first.body)
      const again = yield* send("POST", "/v1/orgs/", { ...headers, "x-forwarded-for": "10.8.0.3" }, body)
      assert.strictEqual(again.status, 201)
      assert.strictEqual(again.header("idempotent-replayed"), "true")
      assert.strictEqual(again.body, first.body)
      const orgs = yield* send("GET", "/v1/orgs", { authorization: `Bearer ${bob.token}`, "x-forwarded-for": "10.8.0.4" })
      assert.deepStrictEqual((JSON.parse(orgs.body) as { items: ReadonlyArray<{ title: string }> }).items.map((org) => org.title), ["Once"])
    }))
})
