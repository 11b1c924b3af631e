/**
 * What a failed command tells its user: one line on stderr. Server answers carry the server's
 * own `error.message`; transport and input problems are worded here.
 */
import { Effect, Match, Option, Predicate, Schema } from "effect"
import { ApiErrors } from "@quire/api"
import { HttpClientError } from "effect/http"

/** A failure the CLI itself detects (missing token, nothing to update). */
export class CliFailure extends Schema.TaggedError<CliFailure>()("CliFailure", {
  message: Schema.String
}) {}

/** The error answers of the API, each `{"error":{"code","message"}}`. */
export type ApiError =
  | ApiErrors.BadRequest
  | ApiErrors.Unauthorized
  | ApiErrors.Forbidden
  | ApiErrors.NotFound
  | ApiErrors.Conflict

const isApiError = (error: unknown): error is ApiError =>
  error instanceof ApiErrors.BadRequest ||
  error instanceof ApiErrors.Unauthorized ||
  error instanceof ApiErrors.Forbidden ||
  error instanceof ApiErrors.NotFound ||
  error instanceof ApiErrors.Conflict

/** An error envelope in a body the client did not expect (e.g. a 500). */
const Envelope = Schema.fromJsonString(Schema.Struct({
  error: Schema.Struct({ message: Schema.String })
}))

const decodeEnvelope = Schema.decodeUnknownOption(Envelope)

const statusLine = (reason: HttpClientError.ResponseError) =>
  `The server answered ${reason.response.status} to ${reason.methodAndUrl}`

/** A response the client did not expect: the server's message when it sent an envelope. */
const describeResponse = (reason: HttpClientError.ResponseError): Effect.Effect<string> =>
  reason.response.text.pipe(
    Effect.map((body) =>
      Option.match(decodeEnvelope(body), {
        onNone: () => statusLine(reason),
        onSome: (envelope) => envelope.error.message
      })
    ),
    Effect.orElseSucceed(() => statusLine(reason))
  )

const origin = (url: string) => (URL.canParse(url) ? new URL(url).origin : url)

const describeHttp = (error: HttpClientError.HttpClientError): Effect.Effect<string> =>
  Match.valueTags(error.reason, {
    TransportError: (reason) =>
      Effect.succeed(`Cannot reach the Quire server at ${origin(reason.request.url)} (set QUIRE_URL or --url)`),
    InvalidUrlError: (reason) => Effect.succeed(`Invalid server URL: ${reason.request.url} (set QUIRE_URL or --url)`),
    EncodeError: (reason) => Effect.succeed(reason.message),
    StatusCodeError: describeResponse,
    DecodeError: describeResponse,
    EmptyBodyError: describeResponse
  })

/** The line shown to the user for whatever a command failed with. */
export const describe = (error: unknown): Effect.Effect<string> => {
  if (isApiError(error)) return Effect.succeed(error.error.message)
  if (HttpClientError.isHttpClientError(error)) return describeHttp(error)
  if (Schema.isSchemaError(error)) return Effect.succeed(`Invalid input: ${error.message}`)
  if (Predicate.hasProperty(error, "message") && Predicate.isString(error.message)) return Effect.succeed(error.message)
  return Effect.succeed(String(error))
}
