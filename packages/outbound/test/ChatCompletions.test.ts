/**
 * The chat-completions client translation and a site's Ask use: a provider's 5xx is tried again
 * (its body read and let go, so each try has a connection of its own) and a lasting one fails in
 * time, saying why; a 4xx fails at once with the provider's words. On the live clock: the tries are
 * spaced by real sleeps (under the test clock they would wait forever).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { FetchHttpClient, HttpClient } from "effect/http"
import { startModelServer } from "@quire/testkit/ModelServer"
import { chatCompletion, messageContent } from "../src/ChatCompletions.ts"

const call = (url: string) =>
  Effect.flatMap(Effect.service(HttpClient.HttpClient), (client) =>
    chatCompletion(client, { url, model: "test-model", retries: 3, retryBaseMillis: 20, timeoutMillis: 5_000 }, [{ role: "user", content: "hello" }]))

describe("chatCompletion", () => {
  it.live("tries a 5xx again and answers once the provider does", () =>
    Effect.gen(function*() {
      const server = yield* Effect.promise(() => startModelServer((_, n) => (n < 2 ? { status: 500, message: "busy" } : { text: "hi" })))
      const body = yield* call(server.url)
      assert.strictEqual(messageContent(body), "hi")
      assert.strictEqual(server.requests.length, 3)
      yield* Effect.promise(() => server.close())
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("fails in time when the provider keeps answering 500, and at once on a 400, saying why", () =>
    Effect.gen(function*() {
      const down = yield* Effect.promise(() => startModelServer(() => ({ status: 500, message: "down" })))
      const started = Date.now()
      const failed = yield* Effect.flip(call(down.url))
      assert.isBelow(Date.now() - started, 4_000)
      assert.strictEqual(failed.reason, "the provider answered 500, still after 3 retries")
      assert.strictEqual(down.requests.length, 4)
      const refusing = yield* Effect.promise(() => startModelServer(() => ({ status: 400, message: "bad model" })))
      const refused = yield* Effect.flip(call(refusing.url))
      assert.include(refused.reason, "the provider answered 400")
      assert.include(refused.reason, "bad model")
      assert.strictEqual(refusing.requests.length, 1)
      yield* Effect.promise(() => Promise.all([down.close(), refusing.close()]))
    }).pipe(Effect.provide(FetchHttpClient.layer)))
})
