/**
 * `Idempotency-Key` as a client retrying a write meets it: the same key and request replay the
 * first answer and create nothing new, another request under the key is a 422, a duplicate
 * sent while the first runs is a 409, concurrent duplicates create one resource, and keys are per
 * caller.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { LocalServer } from "@quire/testkit"
import { everyBackend, baseUrl, newUser, spaceWith } from "./Harness.ts"

const send = Effect.fnUntraced(function*(method: string, path: string, token: string, body?: unknown, key?: string) {
  const base = yield* baseUrl
  const response = yield* Effect.promise(() =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        ...(key === undefined ? {} : { "idempotency-key": key })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  )
  const text = yield* Effect.promise(() => response.text())
  return { status: response.status, text, replayed: response.headers.get("idempotent-replayed") }
})

/** The titles of the caller's organizations. */
const organizationTitles = Effect.fnUntraced(function*(token: string) {
  const answer = yield* send("GET", "/v1/orgs", token)
  assert.strictEqual(answer.status, 200)
  return (JSON.parse(answer.text) as { items: ReadonlyArray<{ title: string }> }).items.map((org) => org.title)
})

for (const backend of everyBackend) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`idempotency keys on ${backend.name}`, (it) => {
    it.effect("a retried write replays the first answer and creates nothing new", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const first = yield* send("POST", "/v1/orgs", alice.token, { title: "Retried" }, "create-retried")
        assert.strictEqual(first.status, 201)
        assert.isNull(first.replayed)
        const again = yield* send("POST", "/v1/orgs", alice.token, { title: "Retried" }, "create-retried")
        assert.strictEqual(again.status, 201)
        assert.strictEqual(again.text, first.text)
        assert.strictEqual(again.replayed, "true")
        assert.deepStrictEqual(yield* organizationTitles(alice.token), ["Retried"])

        // Without a key, the same request is a new write.
        const plain = yield* send("POST", "/v1/orgs", alice.token, { title: "Retried" })
        assert.strictEqual(plain.status, 201)
        assert.notStrictEqual(plain.text, first.text)
        assert.lengthOf(yield* organizationTitles(alice.token), 2)
      }))

    it.effect("a first answer that was an error is replayed too", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const refused = yield* send("POST", "/v1/orgs/no-such-org/spaces", alice.token, { title: "Docs" }, "space-nowhere")
        assert.strictEqual(refused.status, 404)
        const again = yield* send("POST", "/v1/orgs/no-such-org/spaces", alice.token, { title: "Docs" }, "space-nowhere")
        assert.strictEqual(again.status, 404)
        assert.strictEqual(again.text, refused.text)
      }))

    it.effect("the same key with another request is a 422 in the error envelope", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const first = yield* send("POST", "/v1/orgs", alice.token, { title: "First" }, "reused-key")
        assert.strictEqual(first.status, 201)
        const other = yield* send("POST", "/v1/orgs", alice.token, { title: "Second" }, "reused-key")
        assert.strictEqual(other.status, 422)
        const body = JSON.parse(other.text) as { error: { code: number; message: string } }
        assert.strictEqual(body.error.code, 422)
        assert.include(body.error.message, "Idempotency-Key")
        assert.deepStrictEqual(yield* organizationTitles(alice.token), ["First"])

        const tooLong = yield* send("POST", "/v1/orgs", alice.token, { title: "Third" }, "k".repeat(256))
        assert.strictEqual(tooLong.status, 400)
        assert.strictEqual((JSON.parse(tooLong.text) as { error: { code: number } }).error.code, 400)
      }))

    it.effect("keys are per caller: another caller's same key is a write of its own", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const bob = yield* newUser("Bob")
        const mine = yield* send("POST", "/v1/orgs", alice.token, { title: "Shared key" }, "shared-key")
        const theirs = yield* send("POST", "/v1/orgs", bob.token, { title: "Shared key" }, "shared-key")
        assert.strictEqual(mine.status, 201)
        assert.strictEqual(theirs.status, 201)
        assert.notStrictEqual(theirs.text, mine.text)
        assert.isNull(theirs.replayed)
        assert.deepStrictEqual(yield* organizationTitles(bob.token), ["Shared key"])
      }))

    it.effect("a duplicate sent while the first runs is a 409 and does not run; the first answer is replayed after", () =>
      Effect.gen(function*() {
        // A website whose page is held until released: the first import runs until then.
        let requested = 0
        const { promise: held, resolve: release } = Promise.withResolvers<void>()
        const site = yield* LocalServer.serve((_, response) => {
          requested++
          void held.then(() => {
            response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
            response.end("<title>Held</title><h1>Held</h1><p>Imported once.</p>")
          })
        })
        const { alice, space } = yield* spaceWith()
        const path = `/v1/spaces/${space.id}/content/import`
        const payload = { url: `${site.origin}/`, source: "website" }
        const first = yield* Effect.forkChild(send("POST", path, alice.token, payload, "import-once"))
        while (requested === 0) yield* Effect.sleep("10 millis")

        const duplicate = yield* send("POST", path, alice.token, payload, "import-once")
        assert.strictEqual(duplicate.status, 409)
        assert.strictEqual((JSON.parse(duplicate.text) as { error: { code: number } }).error.code, 409)

        release()
        const answer = yield* Fiber.join(first)
        assert.strictEqual(answer.status, 201, answer.text)
        assert.strictEqual(requested, 1)
        const retry = yield* send("POST", path, alice.token, payload, "import-once")
        assert.strictEqual(retry.status, 201)
        assert.strictEqual(retry.text, answer.text)
        assert.strictEqual(requested, 1)
        const revision = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(revision.id, (JSON.parse(answer.text) as { revision: string }).revision)
      }))

    it.effect("concurrent duplicates create one resource; the others replay it or are told it runs (409)", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const answers = yield* Effect.all(
          Array.from({ length: 6 }, () => send("POST", "/v1/orgs", alice.token, { title: "Concurrent" }, "concurrent-key")),
          { concurrency: "unbounded" }
        )
        const created = answers.filter((answer) => answer.status === 201)
        assert.isAbove(created.length, 0)
        for (const answer of answers) assert.include([201, 409], answer.status, answer.text)
        for (const answer of created) assert.strictEqual(answer.text, created[0]!.text)
        assert.deepStrictEqual(yield* organizationTitles(alice.token), ["Concurrent"])

        // Once the first has answered, a retry replays it.
        const retry = yield* send("POST", "/v1/orgs", alice.token, { title: "Concurrent" }, "concurrent-key")
        assert.strictEqual(retry.status, 201)
        assert.strictEqual(retry.text, created[0]!.text)
      }))
  })
}
