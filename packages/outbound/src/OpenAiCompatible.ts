/**
 * The language model every AI feature of Quire talks to: effect's `LanguageModel` (effect/ai) over
 * an OpenAI-compatible chat-completions endpoint (OpenAI itself, Ollama, vLLM, LM Studio, a
 * gateway: `QUIRE_AI_URL`), through OpenAI's own maintained client library (`openai`: its retries,
 * time limits and stream parsing), with tool calls and streamed answers. Effect's LanguageModel does
 * the rest: a toolkit's tools resolved against their handlers, their parameters checked against
 * their schemas, a chat's history.
 *
 * What is sent: the prompt's system, user and assistant text, the assistant's tool calls and the
 * tools' results, the tools (name, description, parameters as JSON Schema) and the tool choice.
 * Files and reasoning parts are not sent (no Quire feature sends them yet).
 */
import { Effect, Layer, Option, Stream } from "effect"
import { AiError, EmbeddingModel, LanguageModel, type Prompt, type Response, Tool } from "effect/ai"
import OpenAI from "openai"
import { AiBudget, type AiBudgetShape, checkCurrent, estimatedTokens, spendCurrent } from "./AiBudget.ts"
import { AiLog, type AiLogCall, type AiLogShape, recordCurrent } from "./AiLog.ts"
import type { ChatCompletionChunk, ChatCompletionCreateParamsBase, ChatCompletionMessageParam, ChatCompletionToolChoiceOption } from "openai/resources/chat/completions"

/** Where and how to call the endpoint. */
export interface ModelEndpoint {
  /** The API's base (`…/v1`); `/chat/completions` is the client's to add (a full endpoint URL is cut back to its base). */
  readonly url: string
  readonly model: string
  readonly key?: string | undefined
  /** Retries of a 408/409/429/5xx answer or a network failure (the client's exponential backoff); default 2. */
  readonly retries?: number | undefined
  readonly timeoutMillis?: number | undefined
  readonly temperature?: number | undefined
}

/** The API's base of `url`: a chat-completions endpoint given whole is cut back to it. */
export const baseUrlOf = (url: string) => url.replace(/\/chat\/completions\/?$/, "").replace(/\/+$/, "")

const failure = (method: string, error: unknown): AiError.AiError => {
  const status = error instanceof OpenAI.APIError ? error.status : undefined
  const description = error instanceof Error ? error.message : String(error)
  return AiError.make({
    module: "OpenAiCompatible",
    method,
    reason: status === undefined
      ? new AiError.UnknownError({ description })
      : AiError.reasonFromHttpStatus({ status, body: error instanceof OpenAI.APIError ? error.error : undefined, description })
  })
}

const textOf = (parts: ReadonlyArray<{ readonly type: string }>): string =>
  parts.flatMap((part) => (part.type === "text" ? [(part as Prompt.TextPart).text] : [])).join("")

/** A tool's result as the model reads it: text as it is, anything else as JSON. */
const resultText = (result: unknown): string => (typeof result === "string" ? result : JSON.stringify(result ?? null))

/** The prompt as chat-completions messages. */
export const messagesOf = (prompt: Prompt.Prompt): Array<ChatCompletionMessageParam> => {
  const messages: Array<ChatCompletionMessageParam> = []
  for (const message of prompt.content) {
    switch (message.role) {
      case "system":
        messages.push({ role: "system", content: message.content })
        break
      case "user":
        messages.push({ role: "user", content: textOf(message.content) })
        break
      case "assistant": {
        const calls = message.content.flatMap((part) => (part.type === "tool-call" && !part.providerExecuted ? [part] : []))
        const text = textOf(message.content)
        messages.push({
          role: "assistant",
          content: text === "" && calls.length > 0 ? null : text,
          ...(calls.length === 0 ? {} : {
            tool_calls: calls.map((call) => ({ id: call.id, type: "function" as const, function: { name: call.name, arguments: JSON.stringify(call.params ?? {}) } }))
          })
        })
        // A tool's result the model saw in the same turn follows its call.
        for (const part of message.content) {
          if (part.type === "tool-result" && !part.providerExecuted) messages.push({ role: "tool", tool_call_id: part.id, content: resultText(part.result) })
        }
        break
      }
      case "tool":
        for (const part of message.content) {
          if (part.type === "tool-result") messages.push({ role: "tool", tool_call_id: part.id, content: resultText(part.result) })
        }
        break
    }
  }
  return messages
}

/** The request's tools and tool choice. */
const toolsOf = (options: LanguageModel.ProviderOptions): Pick<ChatCompletionCreateParamsBase, "tools" | "tool_choice"> => {
  if (options.tools.length === 0) return {}
  const tools = options.tools.map((tool) => ({
    type: "function" as const,
    function: { name: tool.name, description: Tool.getDescription(tool) ?? "", parameters: Tool.getJsonSchema(tool) as Record<string, unknown> }
  }))
  const choice = options.toolChoice
  const tool_choice: ChatCompletionToolChoiceOption = choice === "auto" || choice === "none" || choice === "required" ? choice
    : "tool" in choice ? { type: "function", function: { name: choice.tool } }
    : choice.mode === "required" ? "required" : "auto"
  return { tools, tool_choice }
}

const finishOf = (reason: string | null | undefined): typeof Response.FinishReason.Encoded =>
  reason === "stop" ? "stop"
    : reason === "length" ? "length"
    : reason === "tool_calls" || reason === "function_call" ? "tool-calls"
    : reason === "content_filter" ? "content-filter"
    : reason === null || reason === undefined ? "unknown" : "other"

const usageOf = (usage: { readonly prompt_tokens?: number; readonly completion_tokens?: number } | null | undefined) => ({
  inputTokens: usage?.prompt_tokens === undefined ? {} : { total: usage.prompt_tokens },
  outputTokens: usage?.completion_tokens === undefined ? {} : { total: usage.completion_tokens }
})

/** A tool call's arguments as the model wrote them: JSON, or, when they do not read as JSON, as written (the toolkit refuses them). */
const paramsOf = (text: string): unknown => {
  try {
    return JSON.parse(text === "" ? "{}" : text)
  } catch {
    return text
  }
}

/** The budget's refusal as the model's failure. */
const budgetFailure = (method: string, message: string): AiError.AiError =>
  AiError.make({ module: "OpenAiCompatible", method, reason: new AiError.UnknownError({ description: message }) })

/** The messages sent, as the AI log keeps them: each one's text, an assistant's tool calls, a tool's result. */
const loggedPrompt = (messages: ReadonlyArray<ChatCompletionMessageParam>) =>
  messages.map((m) => {
    const text = typeof m.content === "string"
      ? m.content
      : Array.isArray(m.content) ? m.content.map((part) => ("text" in part ? part.text : "")).join("") : ""
    const calls = m.role === "assistant" && m.tool_calls !== undefined
      ? m.tool_calls.map((c) => c.type === "function" ? `\n→ ${c.function.name}(${c.function.arguments})` : "").join("")
      : ""
    return { role: m.role === "tool" ? `tool ${m.tool_call_id}` : m.role, content: `${text}${calls}` }
  })

/** The tokens a call spent: the endpoint's count, or an estimate from the prompt and the answer. */
const spentTokens = (usage: { readonly prompt_tokens?: number; readonly completion_tokens?: number } | null | undefined, prompt: unknown, answer: number) =>
  usage?.prompt_tokens !== undefined ? usage.prompt_tokens + (usage.completion_tokens ?? 0) : estimatedTokens(JSON.stringify(prompt).length + answer)

/**
 * A LanguageModel over `endpoint`, with `client` (made from it when not given). Each call is checked
 * against and counted in the budget of the organization it is made for (AiBudget.ts), when the
 * layer is given an AiBudget.
 */
export const make = (endpoint: ModelEndpoint, client?: OpenAI) =>
  Effect.gen(function*() {
    const budget: AiBudgetShape | undefined = Option.getOrUndefined(yield* Effect.serviceOption(AiBudget))
    const log: AiLogShape | undefined = Option.getOrUndefined(yield* Effect.serviceOption(AiLog))
    const record = (options: LanguageModel.ProviderOptions, answer: string, toolCalls: ReadonlyArray<AiLogCall>, tokens: number, failed: string | null) =>
      recordCurrent(log, {
        model: endpoint.model,
        prompt: loggedPrompt(request(options).messages),
        tools: options.tools.map((t) => t.name),
        answer,
        toolCalls,
        tokens,
        failure: failed
      })
    const check = (method: string) => Effect.mapError(checkCurrent(budget), (spent) => budgetFailure(method, spent.message))
    const openai = client ?? new OpenAI({
      baseURL: baseUrlOf(endpoint.url),
      // A local model (Ollama) takes no key; the client needs one: any text does.
      apiKey: endpoint.key === undefined || endpoint.key === "" ? "none" : endpoint.key,
      maxRetries: endpoint.retries ?? 2,
      timeout: endpoint.timeoutMillis ?? 120_000
    })
    const request = (options: LanguageModel.ProviderOptions): ChatCompletionCreateParamsBase => ({
      model: endpoint.model,
      messages: messagesOf(options.prompt),
      ...(endpoint.temperature === undefined ? {} : { temperature: endpoint.temperature }),
      ...toolsOf(options)
    })
    return yield* LanguageModel.make({
      generateText: (options) =>
        check("generateText").pipe(
          Effect.andThen(Effect.tryPromise({
            try: (signal) => openai.chat.completions.create({ ...request(options), stream: false }, { signal }),
            catch: (error) => failure("generateText", error)
          })),
          Effect.tap((completion) => {
            const tokens = spentTokens(completion.usage, request(options).messages, JSON.stringify(completion.choices[0]?.message ?? "").length)
            const message = completion.choices[0]?.message
            const calls = (message?.tool_calls ?? []).flatMap((c) => c.type === "function" ? [{ name: c.function.name, params: paramsOf(c.function.arguments) }] : [])
            return Effect.andThen(spendCurrent(budget, tokens), record(options, message?.content ?? "", calls, tokens, null))
          }),
          Effect.tapError((error) => record(options, "", [], 0, error.message)),
          Effect.map((completion): Array<Response.PartEncoded> => {
          const choice = completion.choices[0]
          const parts: Array<Response.PartEncoded> = []
          const content = choice?.message.content
          if (typeof content === "string" && content !== "") parts.push({ type: "text", text: content })
          for (const call of choice?.message.tool_calls ?? []) {
            if (call.type !== "function") continue
            parts.push({ type: "tool-call", id: call.id, name: call.function.name, params: paramsOf(call.function.arguments), providerExecuted: false })
          }
          parts.push({ type: "finish", reason: finishOf(choice?.finish_reason), usage: usageOf(completion.usage) })
          return parts
        })),
      streamText: (options) =>
        Stream.unwrap(Effect.map(
          check("streamText").pipe(Effect.andThen(Effect.tryPromise({
            try: (signal) => openai.chat.completions.create({ ...request(options), stream: true, stream_options: { include_usage: true } }, { signal }),
            catch: (error) => failure("streamText", error)
          }))),
          (chunks) => {
            // Text comes as one text part; each tool call's arguments as deltas, the call once whole.
            const textId = "text-0"
            let textOpen = false
            const calls = new Map<number, { id: string; name: string; args: string }>()
            let reason: string | null | undefined
            let usage: ChatCompletionChunk["usage"]
            const partsOf = (chunk: ChatCompletionChunk): Array<Response.StreamPartEncoded> => {
              const out: Array<Response.StreamPartEncoded> = []
              if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage
              const choice = chunk.choices[0]
              if (choice === undefined) return out
              const delta = choice.delta
              if (typeof delta.content === "string" && delta.content !== "") {
                if (!textOpen) out.push({ type: "text-start", id: textId })
                textOpen = true
                out.push({ type: "text-delta", id: textId, delta: delta.content })
              }
              for (const call of delta.tool_calls ?? []) {
                let known = calls.get(call.index)
                if (known === undefined) {
                  known = { id: call.id ?? `call-${call.index}`, name: call.function?.name ?? "", args: "" }
                  calls.set(call.index, known)
                  out.push({ type: "tool-params-start", id: known.id, name: known.name, providerExecuted: false })
                }
                const piece = call.function?.arguments ?? ""
                if (piece !== "") {
                  known.args += piece
                  out.push({ type: "tool-params-delta", id: known.id, delta: piece })
                }
              }
              if (choice.finish_reason !== null && choice.finish_reason !== undefined) reason = choice.finish_reason
              return out
            }
            const end = (): Array<Response.StreamPartEncoded> => [
              ...(textOpen ? [{ type: "text-end" as const, id: textId }] : []),
              ...[...calls.values()].flatMap((call): Array<Response.StreamPartEncoded> => [
                { type: "tool-params-end", id: call.id },
                { type: "tool-call", id: call.id, name: call.name, params: paramsOf(call.args), providerExecuted: false }
              ]),
              { type: "finish", reason: finishOf(reason), usage: usageOf(usage) }
            ]
            let answered = 0
            let text = ""
            return Stream.fromAsyncIterable(chunks, (error) => failure("streamText", error)).pipe(
              Stream.tap((chunk) => Effect.sync(() => {
                answered += JSON.stringify(chunk.choices[0]?.delta ?? "").length
                const piece = chunk.choices[0]?.delta.content
                if (typeof piece === "string") text += piece
              })),
              Stream.flatMap((chunk) => Stream.fromIterable(partsOf(chunk))),
              Stream.concat(Stream.suspend(() => Stream.fromIterable(end()))),
              // Spent once the stream ends: the endpoint's count comes with its last chunk.
              Stream.ensuring(Effect.suspend(() => {
                const tokens = spentTokens(usage, request(options).messages, answered)
                const called = [...calls.values()].map((c) => ({ name: c.name, params: paramsOf(c.args) }))
                return Effect.andThen(spendCurrent(budget, tokens), record(options, text, called, tokens, null))
              }))
            )
          }
        ))
    })
  })

/** The LanguageModel of `endpoint`. */
export const layer = (endpoint: ModelEndpoint): Layer.Layer<LanguageModel.LanguageModel> => Layer.effect(LanguageModel.LanguageModel, make(endpoint))

/** Where and how to call an endpoint's embeddings (`/embeddings` beside chat completions). */
export interface EmbeddingEndpoint {
  readonly url: string
  /** The embedding model's name (Ollama's `nomic-embed-text`, OpenAI's `text-embedding-3-small`…). */
  readonly model: string
  readonly key?: string | undefined
  readonly retries?: number | undefined
  readonly timeoutMillis?: number | undefined
  /** Inputs sent per request; default 64. */
  readonly batch?: number | undefined
}

/** An EmbeddingModel over `endpoint`'s `/embeddings`, with `client` (made from it when not given); inputs go in batches. */
export const makeEmbeddings = (endpoint: EmbeddingEndpoint, client?: OpenAI) =>
  Effect.suspend(() => {
    const openai = client ?? new OpenAI({
      baseURL: baseUrlOf(endpoint.url),
      apiKey: endpoint.key === undefined || endpoint.key === "" ? "none" : endpoint.key,
      maxRetries: endpoint.retries ?? 2,
      timeout: endpoint.timeoutMillis ?? 60_000
    })
    const size = Math.max(1, endpoint.batch ?? 64)
    return EmbeddingModel.make({
      embedMany: ({ inputs }) =>
        Effect.gen(function*() {
          const results: Array<Array<number>> = []
          let tokens: number | undefined
          for (let at = 0; at < inputs.length; at += size) {
            const batch = inputs.slice(at, at + size)
            const answer = yield* Effect.tryPromise({
              try: (signal) => openai.embeddings.create({ model: endpoint.model, input: [...batch], encoding_format: "float" }, { signal }),
              catch: (error) => failure("embedMany", error)
            })
            const ordered = answer.data.toSorted((x, y) => x.index - y.index)
            if (ordered.length !== batch.length) {
              return yield* Effect.fail(failure("embedMany", new Error(`the endpoint answered ${ordered.length} embeddings for ${batch.length} inputs`)))
            }
            for (const item of ordered) results.push(item.embedding)
            if (answer.usage?.prompt_tokens !== undefined) tokens = (tokens ?? 0) + answer.usage.prompt_tokens
          }
          return { results, usage: { inputTokens: tokens } }
        })
    })
  })

/** The EmbeddingModel of `endpoint`. */
export const embeddingLayer = (endpoint: EmbeddingEndpoint): Layer.Layer<EmbeddingModel.EmbeddingModel> =>
  Layer.effect(EmbeddingModel.EmbeddingModel, makeEmbeddings(endpoint))
