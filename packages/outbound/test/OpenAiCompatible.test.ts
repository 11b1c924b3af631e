/**
 * effect's LanguageModel over an OpenAI-compatible endpoint (the test kit's deterministic model
 * server): words answered whole and streamed; a tool the model calls is run by the toolkit and its
 * result sent back on the next turn of a chat; a streamed tool call is put together from its
 * pieces; the endpoint's refusals become AiErrors that say why.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Schema, Stream } from "effect"
import { AiError, Chat, LanguageModel, Tool, Toolkit } from "effect/ai"
import { lastOf, type ModelReply, type ModelRequest, startModelServer } from "@quire/testkit/ModelServer"
import { AiBudget, AiBudgetSpent, forOrganization } from "../src/AiBudget.ts"
import { baseUrlOf, layer, messagesOf } from "../src/OpenAiCompatible.ts"

const ReadPage = Tool.make("readPage", {
  description: "Reads a page of the space by its path",
  parameters: Schema.Struct({ path: Schema.String }),
  success: Schema.String
})
const tools = Toolkit.make(ReadPage)
const read: Array<string> = []
const handlers = tools.toLayer({ readPage: ({ path }) => Effect.sync(() => (read.push(path), `The page ${path} says: restart the node after an upgrade.`)) })

/** The model: a question about a page calls readPage, a tool's result is answered from, the rest is echoed. */
const script = (request: ModelRequest): ModelReply => {
  const last = request.messages.at(-1)
  if (last?.role === "tool") return { text: `Answer from the page: ${last.content}` }
  const asked = lastOf(request, "user")
  if (asked.startsWith("refuse")) return { status: 401, message: "Incorrect API key provided" }
  if (asked.includes("page")) return { toolCalls: [{ name: "readPage", arguments: { path: "upgrades" } }] }
  return { text: `You said: ${asked}` }
}

const model = Effect.acquireRelease(Effect.promise(() => startModelServer(script)), (server) => Effect.promise(() => server.close()))

const withModel = <A, E>(use: (server: Effect.Success<typeof model>) => Effect.Effect<A, E, LanguageModel.LanguageModel>) =>
  Effect.scoped(Effect.flatMap(model, (server) => use(server).pipe(Effect.provide(layer({ url: server.url, model: "test-model", key: "sk-test", retries: 0 })))))

describe("OpenAiCompatible", () => {
  it.effect("answers words, whole and streamed, sending the model, the key and the prompt", () =>
    withModel((server) =>
      Effect.gen(function*() {
        const whole = yield* LanguageModel.generateText({ prompt: [{ role: "system", content: "Be brief." }, { role: "user", content: "hello there" }] })
        assert.strictEqual(whole.text, "You said: hello there")
        assert.strictEqual(whole.finishReason, "stop")
        const [first] = server.requests
        assert.deepStrictEqual([first!.model, first!.authorization, first!.messages], ["test-model", "Bearer sk-test", [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hello there" }
        ]])
        const parts = yield* LanguageModel.streamText({ prompt: "streamed words" }).pipe(Stream.runCollect)
        const deltas = [...parts].flatMap((part) => (part.type === "text-delta" ? [part.delta] : []))
        assert.isAbove(deltas.length, 1)
        assert.strictEqual(deltas.join(""), "You said: streamed words")
        assert.strictEqual([...parts].at(-1)?.type, "finish")
        assert.isTrue(server.requests[1]!.stream)
      })))

  it.effect("runs the tool the model calls and sends its result back on the chat's next turn", () =>
    withModel((server) =>
      Effect.gen(function*() {
        read.length = 0
        const chat = yield* Chat.empty
        const first = yield* chat.generateText({ prompt: "What does the upgrades page say?", toolkit: tools })
        assert.deepStrictEqual(first.toolCalls.map((call) => [call.name, call.params]), [["readPage", { path: "upgrades" }]])
        assert.deepStrictEqual(read, ["upgrades"])
        // The tool was offered with its parameters as JSON Schema.
        assert.deepStrictEqual(server.requests[0]!.tools?.map((tool) => [tool.function.name, tool.function.description]), [["readPage", "Reads a page of the space by its path"]])
        const parameters = server.requests[0]!.tools?.[0]?.function.parameters as { readonly required?: ReadonlyArray<string> } | undefined
        assert.deepStrictEqual(parameters?.required, ["path"])
        const second = yield* chat.generateText({ prompt: [], toolkit: tools })
        assert.strictEqual(second.text, "Answer from the page: The page upgrades says: restart the node after an upgrade.")
        // The second request carried the call and its result, tied by the call's id.
        const sent = server.requests[1]!.messages
        const call = sent.find((m) => m.role === "assistant")?.tool_calls?.[0]
        assert.strictEqual(call?.function.name, "readPage")
        assert.deepStrictEqual(sent.at(-1), { role: "tool", tool_call_id: call!.id, content: "The page upgrades says: restart the node after an upgrade." })
      }).pipe(Effect.provide(handlers))))

  it.effect("puts a streamed tool call together from its pieces", () =>
    withModel(() =>
      Effect.gen(function*() {
        read.length = 0
        const parts = yield* LanguageModel.streamText({ prompt: "Read the page please", toolkit: tools }).pipe(Stream.runCollect)
        const call = [...parts].find((part) => part.type === "tool-call")
        assert.deepStrictEqual(call === undefined ? undefined : [call.name, call.params], ["readPage", { path: "upgrades" }])
        assert.isAbove([...parts].filter((part) => part.type === "tool-params-delta").length, 1)
        assert.deepStrictEqual(read, ["upgrades"])
      }).pipe(Effect.provide(handlers))))

  it.effect("turns the endpoint's refusal into an AiError that says why", () =>
    withModel(() =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(LanguageModel.generateText({ prompt: "refuse me" }))
        assert.isTrue(AiError.isAiError(error))
        assert.strictEqual(error.reason._tag, "AuthenticationError")
        assert.include(error.message, "Incorrect API key provided")
      })))

  it("reads an endpoint given whole as its base, and a prompt's history as chat messages", () => {
    assert.strictEqual(baseUrlOf("http://127.0.0.1:11434/v1/chat/completions"), "http://127.0.0.1:11434/v1")
    assert.strictEqual(baseUrlOf("https://api.example.test/v1/"), "https://api.example.test/v1")
    assert.isFunction(messagesOf)
  })

  it.effect("spends the tokens of each call, whole or streamed, for the organization it is made for, and refuses once its budget is spent", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* model
      const spent: Array<readonly [string, number]> = []
      let open = true
      const budget = Layer.succeed(AiBudget)({
        check: (organizationId) => (open ? Effect.void : Effect.fail(new AiBudgetSpent({ organizationId, message: `${organizationId} has used its AI budget` }))),
        spend: (organizationId, tokens) => Effect.sync(() => void spent.push([organizationId, tokens]))
      })
      const models = layer({ url: server.url, model: "test-model", retries: 0 }).pipe(Layer.provide(budget))
      yield* Effect.gen(function*() {
        // No organization named: not counted.
        yield* LanguageModel.generateText({ prompt: "hello" })
        assert.deepStrictEqual(spent, [])
        yield* LanguageModel.generateText({ prompt: "hello" }).pipe(forOrganization("org-a"))
        yield* LanguageModel.streamText({ prompt: "streamed words" }).pipe(Stream.runDrain, forOrganization("org-a"))
        // The test server's usage: the prompt's length as prompt tokens, the answer's as completion tokens.
        assert.deepStrictEqual(spent.map(([org]) => org), ["org-a", "org-a"])
        assert.isTrue(spent.every(([, tokens]) => tokens > 0))
        open = false
        const calls = server.requests.length
        const refused = yield* LanguageModel.generateText({ prompt: "hello" }).pipe(forOrganization("org-a"), Effect.flip)
        assert.instanceOf(refused, AiError.AiError)
        assert.include(refused.message, "org-a has used its AI budget")
        const streamRefused = yield* LanguageModel.streamText({ prompt: "hello" }).pipe(Stream.runDrain, forOrganization("org-a"), Effect.flip)
        assert.include(streamRefused.message, "has used its AI budget")
        assert.strictEqual(server.requests.length, calls)
      }).pipe(Effect.provide(models))
    })))
})

// The layer's type: a LanguageModel and nothing else needed.
const _check: Layer.Layer<LanguageModel.LanguageModel> = layer({ url: "http://127.0.0.1:1/v1", model: "m" })
void _check
