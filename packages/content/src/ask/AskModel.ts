/**
 * Port: the language model Ask writes answers with (a published site's, the organization's). The
 * adapter shipped calls an OpenAI-compatible chat-completions endpoint (`QUIRE_AI_URL`,
 * `QUIRE_AI_MODEL`, `QUIRE_AI_KEY`) through outbound's client; without a URL it is `layerNone`:
 * a site's Ask refuses with `notConfigured`, the organization's answers with the passages found.
 */
import { Config, Context, Data, Effect, Layer, Option } from "effect"
import { FetchHttpClient, HttpClient } from "effect/http"
import { AiBudget, AiLog, chatCompletion, type ChatEndpoint, type ChatMessage, checkAiBudget, estimatedTokens, messageContent, recordAiCall, spendAiBudget } from "@quire/outbound"

/** The model could not answer (unreachable, refused, or an answer without text). */
export class AskModelError extends Data.TaggedError("AskModelError")<{ readonly reason: string }> {}

export interface AskModelShape {
  /** Whether a model is configured. */
  readonly configured: boolean
  /** The model's reply to `messages`. */
  readonly complete: (messages: ReadonlyArray<ChatMessage>) => Effect.Effect<string, AskModelError>
}

export const notConfigured = "Ask is not configured on this server: set QUIRE_AI_URL (and QUIRE_AI_MODEL, QUIRE_AI_KEY) to an OpenAI-compatible endpoint"

const none: AskModelShape = {
  configured: false,
  complete: () => Effect.fail(new AskModelError({ reason: notConfigured }))
}

export class AskModel extends Context.Service<AskModel, AskModelShape>()("@quire/content/AskModel") {
  /** No model: Ask refuses. */
  static readonly layerNone = Layer.succeed(AskModel)(none)
  static readonly layerNoneShape: AskModelShape = none

  /** A model written in a test: `reply` answers every call. */
  static readonly layerTest = (reply: (messages: ReadonlyArray<ChatMessage>) => string) =>
    Layer.succeed(AskModel)({ configured: true, complete: (messages) => Effect.sync(() => reply(messages)) })

  /** The OpenAI-compatible chat-completions adapter over the HttpClient provided. */
  static readonly layerOpenAi = (endpoint: ChatEndpoint): Layer.Layer<AskModel, never, HttpClient.HttpClient> =>
    Layer.effect(
      AskModel,
      Effect.gen(function*() {
        const client = yield* HttpClient.HttpClient
        // The organization's AI budget, when one is provided: checked before, spent after (AiBudget.ts).
        const budget = Option.getOrUndefined(yield* Effect.serviceOption(AiBudget))
        // The organization's AI log, when one is provided: what was asked (the passages retrieved) and answered.
        const log = Option.getOrUndefined(yield* Effect.serviceOption(AiLog))
        const record = (messages: ReadonlyArray<ChatMessage>, answer: string, tokens: number, failure: string | null) =>
          recordAiCall(log, { model: endpoint.model, prompt: messages, tools: [], answer, toolCalls: [], tokens, failure })
        return AskModel.of({
          configured: true,
          complete: (messages) =>
            checkAiBudget(budget).pipe(
              Effect.mapError((spent) => new AskModelError({ reason: spent.message })),
              Effect.andThen(chatCompletion(client, endpoint, messages).pipe(Effect.mapError((e) => new AskModelError({ reason: e.reason })))),
              Effect.tap((body) => {
                const usage = (body as { readonly usage?: { readonly prompt_tokens?: number; readonly completion_tokens?: number } }).usage
                const tokens = usage?.prompt_tokens !== undefined
                  ? usage.prompt_tokens + (usage.completion_tokens ?? 0)
                  : estimatedTokens(JSON.stringify(messages).length + (messageContent(body)?.length ?? 0))
                return Effect.andThen(spendAiBudget(budget, tokens), record(messages, messageContent(body) ?? "", tokens, null))
              }),
              Effect.tapError((e) => record(messages, "", 0, e.reason)),
              Effect.flatMap((body) => {
                const content = messageContent(body)
                return content === undefined || content.trim() === ""
                  ? Effect.fail(new AskModelError({ reason: "the provider's answer has no message content" }))
                  : Effect.succeed(content.trim())
              })
            )
        })
      })
    )

  /** From the environment: the OpenAI-compatible adapter on fetch when `QUIRE_AI_URL` is set, `layerNone` otherwise. */
  static readonly layerConfig = Layer.unwrap(
    Effect.gen(function*() {
      const url = yield* Config.String("QUIRE_AI_URL").pipe(Config.option)
      if (Option.isNone(url) || url.value.trim() === "") return AskModel.layerNone
      const model = yield* Config.String("QUIRE_AI_MODEL").pipe(Config.withDefault("gpt-4o-mini"))
      const key = yield* Config.String("QUIRE_AI_KEY").pipe(Config.option)
      // An answer is awaited by a reader: fewer retries and a shorter limit than a translation run.
      return AskModel.layerOpenAi({ url: url.value, model, key: Option.getOrUndefined(key), retries: 2, timeoutMillis: 60_000 })
        .pipe(Layer.provide(FetchHttpClient.layer))
    }).pipe(Effect.orDie)
  )
}
