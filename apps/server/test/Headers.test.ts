/**
 * Security headers and CORS as a browser meets them, through the real router: on every backend
 * with CORS off (the default), and on a server whose QUIRE_CORS_ORIGINS allows one origin.
 */
import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import * as NodeServer from "../src/NodeServer.ts"
import { CollabStoredMarkdown } from "@quire/live"
import { Queue, Services, Storage } from "@quire/platform"
import { createHash } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Http from "../src/Http.ts"
import { PublicUrl } from "../src/PublicUrl.ts"
import { adminToken, backends, baseUrl, newUser, publicUrl } from "./Harness.ts"

/** A request with the headers a browser would send; answers the status, the headers and the text. */
const send = Effect.fnUntraced(function*(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const base = yield* baseUrl
  const response = yield* Effect.promise(() =>
    fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
  )
  const text = yield* Effect.promise(() => response.text())
  return { status: response.status, headers: response.headers, text }
})

const assertHardened = (headers: Headers, what: string) => {
  assert.strictEqual(headers.get("x-content-type-options"), "nosniff", what)
  assert.strictEqual(headers.get("referrer-policy"), "no-referrer", what)
  assert.include(headers.get("content-security-policy") ?? "", "frame-ancestors 'none'", what)
}

const origin = "https://app.example.com"

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`security headers on ${backend.name}`, (it) => {
    it.effect("every answer is nosniff, no-referrer, unframeable; authenticated ones are never stored", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const me = yield* send("GET", "/v1/user", { authorization: `Bearer ${alice.token}` })
        assert.strictEqual(me.status, 200)
        assertHardened(me.headers, "GET /v1/user")
        assert.strictEqual(me.headers.get("cache-control"), "no-store")
        assert.include(me.headers.get("content-security-policy") ?? "", "default-src 'none'")

        const token = yield* send("POST", `/v1/users/${alice.user.id}/tokens`, {
          authorization: `Bearer ${adminToken}`,
          "content-type": "application/json"
        }, JSON.stringify({ label: "ci" }))
        assert.strictEqual(token.status, 201)
        assert.include(token.text, "token")
        assert.strictEqual(token.headers.get("cache-control"), "no-store")
        assertHardened(token.headers, "token creation")

        for (const [method, path, headers] of [
          ["GET", "/v1/user", {}],
          ["GET", "/v1/no/such/route", { authorization: `Bearer ${alice.token}` }],
          ["GET", "/health", {}],
          ["GET", "/openapi.json", {}]
        ] as const) {
          const answer = yield* send(method, path, headers)
          assertHardened(answer.headers, `${method} ${path} (${answer.status})`)
        }
        const file = yield* send("GET", "/files/not-a-link")
        assert.strictEqual(file.status, 404)
        assertHardened(file.headers, "/files/")
        assert.include(file.headers.get("content-security-policy") ?? "", "img-src 'self'")
        assert.notInclude(file.headers.get("content-security-policy") ?? "", "script-src")
        const refused = yield* send("GET", "/v1/user")
        assert.strictEqual(refused.status, 401)
        assert.strictEqual(refused.headers.get("cache-control"), "no-store")
      }))

    // From the sources, the first /docs has a worker thread make the reference's document: tens of seconds on a loaded machine.
    it.effect("the docs page may run exactly its own inline scripts", () =>
      Effect.gen(function*() {
        const docs = yield* send("GET", "/docs")
        assert.strictEqual(docs.status, 200)
        assertHardened(docs.headers, "/docs")
        const policy = docs.headers.get("content-security-policy") ?? ""
        const scriptSrc = policy.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src")) ?? ""
        assert.notInclude(scriptSrc, "unsafe-inline")
        const inline = Array.from(docs.text.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g), (m) => m[1]!)
        assert.isAbove(inline.length, 0)
        for (const script of inline) {
          assert.include(scriptSrc, `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`)
        }
      }), { timeout: 240_000 })

    it.effect("CORS is off by default: no preflight is answered, no origin is allowed", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const preflight = yield* send("OPTIONS", "/v1/user", {
          origin,
          "access-control-request-method": "GET",
          "access-control-request-headers": "authorization"
        })
        assert.strictEqual(preflight.status, 403)
        assert.isNull(preflight.headers.get("access-control-allow-origin"))
        const read = yield* send("GET", "/v1/user", { origin, authorization: `Bearer ${alice.token}` })
        assert.strictEqual(read.status, 200)
        assert.isNull(read.headers.get("access-control-allow-origin"))
      }))
  })
}

/** The in-memory server with QUIRE_CORS_ORIGINS set (CORS does not depend on storage). */
const withCors = Layer.unwrap(Effect.map(
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "quire-cors-"))),
    (dataDir) => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))
  ),
  (dataDir) =>
    Http.serve.pipe(
      Layer.provideMerge(Services.layerMemory.pipe(Layer.provide([Queue.layerEnqueueOnly, CollabStoredMarkdown.layer]))),
      Layer.provide([PublicUrl.layer(publicUrl), Storage.layer("memory")]),
      Layer.provideMerge(NodeServer.layerTest),
      Layer.provide(ConfigProvider.layerAdd(
        ConfigProvider.fromUnknown({ QUIRE_CORS_ORIGINS: `${origin}, https://admin.example.com/`, QUIRE_DATA_DIR: dataDir }),
        { asPrimary: true }
      ))
    )
))

layer(withCors, { timeout: 120_000, excludeTestServices: true })("CORS with QUIRE_CORS_ORIGINS", (it) => {
  it.effect("answers preflights and allows requests from the listed origins only", () =>
    Effect.gen(function*() {
      const preflight = yield* send("OPTIONS", "/v1/orgs", {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type"
      })
      assert.strictEqual(preflight.status, 204)
      assert.strictEqual(preflight.headers.get("access-control-allow-origin"), origin)
      assert.include(preflight.headers.get("access-control-allow-methods") ?? "", "POST")
      assert.include(preflight.headers.get("access-control-allow-headers") ?? "", "authorization")
      assert.include(preflight.headers.get("vary") ?? "", "Origin")

      const trailingSlash = yield* send("OPTIONS", "/v1/orgs", {
        origin: "https://admin.example.com",
        "access-control-request-method": "GET"
      })
      assert.strictEqual(trailingSlash.status, 204)

      const other = yield* send("OPTIONS", "/v1/orgs", { origin: "https://evil.example.com", "access-control-request-method": "POST" })
      assert.strictEqual(other.status, 403)
      assert.isNull(other.headers.get("access-control-allow-origin"))

      const read = yield* send("GET", "/v1/user", { origin })
      assert.strictEqual(read.status, 401)
      assert.strictEqual(read.headers.get("access-control-allow-origin"), origin)
      const foreign = yield* send("GET", "/v1/user", { origin: "https://evil.example.com" })
      assert.isNull(foreign.headers.get("access-control-allow-origin"))
    }))
})
