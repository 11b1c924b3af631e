/**
 * The API's groups answer in the request's own context (LeanGroups.ts): what they give a request
 * merges as nothing, their middlewares are still found, and a handler still reaches the request's
 * services. Fails if Effect's context stops merging an empty-reading context as the other one.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { invisible, lean } from "../src/LeanGroups.ts"

class Greeting extends Context.Service<Greeting, { readonly text: string }>()("test/Greeting") {}
class Audience extends Context.Service<Audience, { readonly name: string }>()("test/Audience") {}

describe("LeanGroups.invisible", () => {
  it("merges as the other context: the request's context is kept as it is, not copied", () => {
    const request = Context.make(Audience, { name: "readers" })
    const kept = invisible(new Map([[Greeting.key, { text: "hello" }]]))
    assert.strictEqual(Context.merge(request, kept), request)
    assert.strictEqual(Context.merge(kept, request), request)
  })

  it("still finds what it holds (the middlewares the routes are made with)", () => {
    const kept = invisible(new Map([[Greeting.key, { text: "hello" }]]))
    assert.strictEqual(Context.getUnsafe(kept, Greeting).text, "hello")
    assert.isUndefined(Context.getOrUndefined(kept, Audience))
  })
})

describe("LeanGroups.lean", () => {
  const group = HttpApiGroup.make("greetings").add(HttpApiEndpoint.get("greet", "/greet", { success: Schema.String }))
  const api = HttpApi.make("test").add(group)

  it("a handler takes its services when its group is built and answers with the request's", async () => {
    const handlers = HttpApiBuilder.group(api, "greetings", Effect.fn(function*(h) {
      const greeting = yield* Greeting
      return h.handle("greet", () => Audience.use((audience) => Effect.succeed(`${greeting.text} ${audience.name}`)))
    }))
    const routes = HttpApiBuilder.layer(api).pipe(
      Layer.provide(lean(api)(handlers.pipe(Layer.provide(Layer.succeed(Greeting, { text: "hello" }))))),
      Layer.provide(HttpServer.layerServices)
    )
    const app = HttpRouter.toWebHandler(routes, { disableLogger: true })
    try {
      const response = await app.handler(new Request("http://localhost/greet"), Context.make(Audience, { name: "readers" }))
      assert.strictEqual(response.status, 200)
      assert.strictEqual(await response.json(), "hello readers")
    } finally {
      await app.dispose()
    }
  })
})
