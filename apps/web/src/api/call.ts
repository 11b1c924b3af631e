/**
 * A call of the typed client (`QuireApi`) made from an event or an effect rather than read through
 * an atom: a save, an upload, a read the editor makes when it opens. It runs on the app's atom
 * runtime (the one client) and answers a Promise that rejects with an `ApiFailure`: the HTTP status
 * (0: no answer, the connection is down) and the server's message, so a screen says it in words
 * next to what caused it.
 */
import { Effect, Schema } from "effect"
import { HttpClientError } from "effect/http"
import type { AtomRegistry } from "effect/reactivity"
import { QuireApi } from "./client.ts"
import { runMutation } from "./react.ts"
import { refusalOf } from "../ui/refusal.ts"

export class ApiFailure extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

/** The server's `{"error":{"message"}}` of an answer the contract does not declare, else its status in words. */
const undeclaredAnswer = (error: HttpClientError.HttpClientError): Effect.Effect<ApiFailure> => {
  const response = error.response
  if (response === undefined) return Effect.succeed(new ApiFailure(0, "No connection to the server"))
  const status = response.status
  return response.json.pipe(
    Effect.map((body) => (body as { readonly error?: { readonly message?: unknown } } | undefined)?.error?.message),
    Effect.orElseSucceed(() => undefined),
    Effect.map((message) => new ApiFailure(status, typeof message === "string" ? message : `The server answered ${status}`))
  )
}

/** Any failure of a call as an `ApiFailure`: a typed API error keeps its status and message. */
const toFailure = (error: unknown): Effect.Effect<ApiFailure> => {
  if (error instanceof ApiFailure) return Effect.succeed(error)
  if (HttpClientError.isHttpClientError(error)) return undeclaredAnswer(error)
  if (Schema.isSchemaError(error)) {
    const refusal = refusalOf(error)
    return Effect.succeed(new ApiFailure(400, refusal?.field === undefined ? refusal?.message ?? error.message : `${refusal.field}: ${refusal.message}`))
  }
  const refusal = refusalOf(error)
  if (refusal !== undefined) {
    const code = (error as { readonly error: { readonly message: string } }).error
    return Effect.succeed(new ApiFailure(refusal.status, code.message))
  }
  return Effect.succeed(new ApiFailure(0, error instanceof Error ? error.message : String(error)))
}

/** Runs `effect` (calls of `QuireApi`) on the registry's runtime: its value, or an `ApiFailure`. */
export const callApi = <A, E>(registry: AtomRegistry.AtomRegistry, effect: Effect.Effect<A, E, QuireApi>): Promise<A> =>
  runMutation(registry, QuireApi.runtime.fn(() => effect.pipe(Effect.catch((error: E) => Effect.flatMap(toFailure(error), Effect.fail)))), undefined)
    .catch((failure: unknown) => {
      // A defect (a decoding failure of the answer, a bug) reaches here as itself.
      throw failure instanceof ApiFailure ? failure : new ApiFailure(0, failure instanceof Error ? failure.message : String(failure))
    })
