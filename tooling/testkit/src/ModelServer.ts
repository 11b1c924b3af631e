/**
 * A deterministic language model for tests: an OpenAI-compatible `/v1/chat/completions` endpoint
 * on a local port, answering what the test's script says (text, tool calls, an error status) for
 * each request, whole or streamed as server-sent events in the shape OpenAI sends: text in small
 * deltas, each tool call's arguments in two. It keeps every request, so a test can read what the
 * model was given (the prompt, the tools, the tools' results). Given `embed`, it is also an embedding
 * model (`/v1/embeddings`, OpenAI's shape): each input's vector is what `embed` says, so a test decides
 * which texts are near.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"

export interface ModelMessage {
  readonly role: "system" | "user" | "assistant" | "tool"
  readonly content: string | null
  readonly tool_calls?: ReadonlyArray<{ readonly id: string; readonly type: "function"; readonly function: { readonly name: string; readonly arguments: string } }>
  readonly tool_call_id?: string
}

export interface ModelRequest {
  readonly model: string
  readonly messages: ReadonlyArray<ModelMessage>
  readonly tools?: ReadonlyArray<{ readonly type: "function"; readonly function: { readonly name: string; readonly description?: string; readonly parameters?: unknown } }>
  readonly tool_choice?: unknown
  readonly stream?: boolean
  readonly authorization?: string | undefined
}

/** What the model answers: words, tool calls (with words before them, if any), or an HTTP error. */
export type ModelReply =
  | { readonly text: string }
  | { readonly toolCalls: ReadonlyArray<{ readonly name: string; readonly arguments: unknown }>; readonly text?: string }
  | { readonly status: number; readonly message: string }

/** An embeddings request: the model named and its inputs. */
export interface EmbeddingRequest {
  readonly model: string
  readonly input: ReadonlyArray<string>
}

export interface ModelServerOptions {
  /** The vector of `text` (any length, the same for every text); without it `/v1/embeddings` answers 404, as an endpoint without embeddings does. */
  readonly embed?: ((text: string, model: string) => ReadonlyArray<number>) | undefined
}

export interface ModelServer {
  /** The API's base, `http://127.0.0.1:<port>/v1`. */
  readonly url: string
  readonly requests: ReadonlyArray<ModelRequest>
  /** The embeddings requests, in order. */
  readonly embeddings: ReadonlyArray<EmbeddingRequest>
  readonly close: () => Promise<void>
}

/** The last message of `role` in a request, its content as text. */
export const lastOf = (request: ModelRequest, role: ModelMessage["role"]): string =>
  request.messages.filter((m) => m.role === role).at(-1)?.content ?? ""

/** Starts the model; `script` answers each request (the n-th request is the script's `n`th call). */
export const startModelServer = async (script: (request: ModelRequest, index: number) => ModelReply, options: ModelServerOptions = {}): Promise<ModelServer> => {
  const requests: Array<ModelRequest> = []
  const embeddings: Array<EmbeddingRequest> = []
  let calls = 0
  const server = http.createServer((req, res) => {
    let body = ""
    req.on("data", (chunk: Buffer) => (body += chunk.toString()))
    req.on("end", () => {
      if (req.method === "GET" && req.url?.endsWith("/models") === true) {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify({ object: "list", data: [{ id: "test-model", object: "model", created: 0, owned_by: "quire-tests" }] }))
        return
      }
      if (req.method === "POST" && req.url?.endsWith("/embeddings") === true && options.embed !== undefined) {
        const parsed = JSON.parse(body) as { model: string; input: string | ReadonlyArray<string> }
        const input = typeof parsed.input === "string" ? [parsed.input] : parsed.input
        embeddings.push({ model: parsed.model, input })
        const embed = options.embed
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify({
          object: "list",
          model: parsed.model,
          data: input.map((text, index) => ({ object: "embedding", index, embedding: embed(text, parsed.model) })),
          usage: { prompt_tokens: input.join(" ").length, total_tokens: input.join(" ").length }
        }))
        return
      }
      if (req.method !== "POST" || req.url?.endsWith("/chat/completions") !== true) {
        res.writeHead(404, { "content-type": "application/json" })
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }))
        return
      }
      const parsed = JSON.parse(body) as Omit<ModelRequest, "authorization">
      const request: ModelRequest = { ...parsed, authorization: req.headers.authorization }
      requests.push(request)
      const reply = script(request, calls++)
      if ("status" in reply) {
        res.writeHead(reply.status, { "content-type": "application/json" })
        res.end(JSON.stringify({ error: { message: reply.message, type: "test_error", code: null } }))
        return
      }
      const text = "text" in reply && reply.text !== undefined ? reply.text : ""
      const calls_ = "toolCalls" in reply ? reply.toolCalls.map((call, i) => ({ id: `call_${requests.length}_${i}`, name: call.name, arguments: JSON.stringify(call.arguments) })) : []
      const finish = calls_.length > 0 ? "tool_calls" : "stop"
      const usage = { prompt_tokens: JSON.stringify(parsed.messages).length, completion_tokens: text.length + calls_.length, total_tokens: 0 }
      const base = { id: `chatcmpl-${requests.length}`, created: 0, model: parsed.model }
      if (parsed.stream !== true) {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify({
          ...base,
          object: "chat.completion",
          choices: [{
            index: 0,
            finish_reason: finish,
            message: {
              role: "assistant",
              content: text === "" && calls_.length > 0 ? null : text,
              ...(calls_.length === 0 ? {} : { tool_calls: calls_.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) })
            }
          }],
          usage
        }))
        return
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
      const send = (choice: unknown, extra: object = {}) => res.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: choice === undefined ? [] : [choice], ...extra })}\n\n`)
      send({ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null })
      for (const piece of text.match(/\S+\s*|\s+/g) ?? []) send({ index: 0, delta: { content: piece }, finish_reason: null })
      calls_.forEach((call, index) => {
        const half = Math.floor(call.arguments.length / 2)
        send({ index: 0, delta: { tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: call.arguments.slice(0, half) } }] }, finish_reason: null })
        send({ index: 0, delta: { tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }, finish_reason: null })
      })
      send({ index: 0, delta: {}, finish_reason: finish })
      send(undefined, { usage })
      res.end("data: [DONE]\n\n")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    embeddings,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
