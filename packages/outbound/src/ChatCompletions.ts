/**
 * One call to an OpenAI-compatible chat-completions endpoint, the client every Quire feature that
 * asks a model goes through (machine translation, a site's Ask): a bearer key when given, a time
 * limit, and 429/5xx answers and network failures retried with exponential backoff.
 */
import { Data, Duration, Effect, Schedule } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"

/** A call that did not give a usable answer, with why in plain words. */
export class ChatCompletionError extends Data.TaggedError("ChatCompletionError")<{ readonly reason: string }> {}

/** A provider answer worth trying again (rate limited, server error, network). */
class Retryable extends Data.TaggedError("Retryable")<{ readonly reason: string }> {}

/** Where and how to call the endpoint. */
export interface ChatEndpoint {
  /** The endpoint itself or its base (`…/v1`): `/chat/completions` is added when missing. */
  readonly url: string
  readonly model: string
  readonly key?: string | undefined
  /** Retries of a 429/5xx answer (default 4), spaced by exponential backoff from `retryBaseMillis` (default 250). */
  readonly retries?: number | undefined
  readonly retryBaseMillis?: number | undefined
  readonly timeoutMillis?: number | undefined
}

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant"
  readonly content: string
}

export const endpointOf = (url: string) =>
  /\/chat\/completions\/?$/.test(url) ? url : `${url.replace(/\/+$/, "")}/chat/completions`

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** The first choice's message content of a chat-completions answer, or undefined. */
export const messageContent = (body: unknown): string | undefined => {
  if (!isObject(body) || !Array.isArray(body["choices"])) return undefined
  const first: unknown = body["choices"][0]
  const content = isObject(first) && isObject(first["message"]) ? first["message"]["content"] : undefined
  return typeof content === "string" ? content : undefined
}

/** Posts `messages` and gives the provider's JSON answer (decoded, not yet read for its content). */
export const chatCompletion = (
  client: HttpClient.HttpClient,
  endpoint: ChatEndpoint,
  messages: ReadonlyArray<ChatMessage>,
  temperature = 0
): Effect.Effect<unknown, ChatCompletionError> => {
  const url = endpointOf(endpoint.url)
  const retries = endpoint.retries ?? 4
  const base = endpoint.retryBaseMillis ?? 250
  const timeout = Duration.millis(endpoint.timeoutMillis ?? 120_000)
  const once = Effect.gen(function*() {
    let http = HttpClientRequest.post(url).pipe(
      HttpClientRequest.bodyJsonUnsafe({ model: endpoint.model, temperature, messages })
    )
    if (endpoint.key !== undefined && endpoint.key !== "") http = HttpClientRequest.bearerToken(http, endpoint.key)
    const response = yield* client.execute(http).pipe(
      Effect.timeout(timeout),
      Effect.mapError((e) => new Retryable({ reason: `the provider could not be reached (${e.message})` }))
    )
    if (response.status === 429 || response.status >= 500) {
      // The answer's body is read and let go: an unread one keeps its connection, and the next try waited on it.
      yield* response.text.pipe(Effect.timeout(timeout), Effect.ignore)
      return yield* new Retryable({ reason: `the provider answered ${response.status}` })
    }
    const text = yield* response.text.pipe(Effect.mapError((e) => new Retryable({ reason: `the provider's answer was cut (${e.message})` })))
    if (response.status >= 400) {
      return yield* new ChatCompletionError({ reason: `the provider answered ${response.status}: ${text.slice(0, 300)}` })
    }
    try {
      return JSON.parse(text) as unknown
    } catch {
      return yield* new ChatCompletionError({ reason: "the provider's answer is not JSON" })
    }
  })
  return once.pipe(
    Effect.retry({
      while: (e) => e instanceof Retryable,
      schedule: Schedule.exponential(Duration.millis(base)),
      times: retries
    }),
    Effect.catchTag("Retryable", (e) => Effect.fail(new ChatCompletionError({ reason: `${e.reason}, still after ${retries} retries` })))
  )
}
