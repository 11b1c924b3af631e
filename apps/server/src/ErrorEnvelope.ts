/**
 * Every error leaves the server as `{"error":{"code":<status>,"message":"..."}}`: schema
 * violations (400 naming the field), unknown routes (404), malformed JSON, and defects (500,
 * logged with their cause, never shown to the caller).
 */
import { Cause, Context, Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"

const reasons: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Request body too large",
  415: "Unsupported media type"
}

/** An error answer: `field` names the request field a refusal is about (ApiErrors' envelope). */
export const envelope = (status: number, message: string, field?: string) =>
  HttpServerResponse.jsonUnsafe({ error: field === undefined ? { code: status, message } : { code: status, message, field } }, { status })

const kinds: Record<string, string> = {
  Params: "path parameter",
  Query: "query parameter",
  Headers: "header",
  Payload: "request body"
}

/**
 * The problems of a schema message, each with the path that ends it (`at ["members"][0]`) written
 * as callers read it (`members[0]`). A field the contract does not name is an "unknown field".
 */
const issueProblems = (message: string): ReadonlyArray<{ readonly path: string | undefined; readonly problem: string }> => {
  const problems: Array<{ path: string | undefined; problem: string }> = []
  const lines = message.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line === "" || line.startsWith("at [")) continue
    const next = lines[i + 1]?.trim()
    const problem = line === "Expected no excess property" ? "unknown field" : line
    const path = next?.startsWith("at [") ? next.slice(3).replace(/\["([^"]*)"\]/g, ".$1").replace(/^\./, "") : undefined
    problems.push({ path, problem })
  }
  return problems
}

/** A schema message as `members[0]: <problem>; ...`, the problems in the order the schema found them. */
export const describeIssue = (message: string): string =>
  issueProblems(message).map(({ path, problem }) => path === undefined ? problem : `${path}: ${problem}`).join("; ")

/** The field of a schema message's first problem that names one. */
export const issueField = (message: string): string | undefined =>
  issueProblems(message).find((problem) => problem.path !== undefined && problem.path !== "")?.path

/**
 * The SQLSTATE of a database error inside a defect (SqlError → reason → the driver's error), if
 * it says the input was at fault: class 22 (data exception: a NUL byte, a malformed number or
 * timestamp, a value out of range or too long) or 54000 (a value too large to index). Adapters
 * die on SQL errors; a value the schema let through must still be a 400, never a 500.
 */
export const badInputOfDatabase = (defect: unknown): string | undefined => {
  let current = defect
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    const { code, message } = current as { readonly code?: unknown; readonly message?: unknown }
    if (typeof code === "string" && /^(22[0-9A-Z]{3}|54000)$/.test(code)) {
      return `The request holds a value the database refuses${typeof message === "string" ? `: ${message}` : ""}`
    }
    const next = current as { readonly reason?: unknown; readonly cause?: unknown }
    current = next.reason ?? next.cause
  }
  return undefined
}

/** The answer for a failure that reached the router without a response of its own. */
const fromCause = (cause: Cause.Cause<unknown>, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    for (const reason of cause.reasons) {
      const value = Cause.isDieReason(reason) ? reason.defect : Cause.isFailReason(reason) ? reason.error : undefined
      if (HttpApiError.HttpApiSchemaError.is(value) && value.kind in kinds) {
        return envelope(400, `Invalid ${kinds[value.kind]}: ${describeIssue(value.cause.message)}`, issueField(value.cause.message))
      }
      if (HttpApiError.HttpApiPayloadTooLarge.is(value)) return envelope(413, reasons[413]!)
      const databaseRefusal = Cause.isDieReason(reason) ? badInputOfDatabase(value) : undefined
      if (databaseRefusal !== undefined) {
        yield* Effect.logWarning("A request reached the database with a value it refuses", cause)
        return envelope(400, databaseRefusal)
      }
      if (typeof value === "object" && value !== null && "_tag" in value) {
        const tag = (value as { readonly _tag: unknown; readonly reason?: { readonly _tag?: unknown } })
        if (tag._tag === "RouteNotFound" || (tag._tag === "HttpServerError" && tag.reason?._tag === "RouteNotFound")) {
          return envelope(404, `No operation at ${request.method} ${request.url.split("?")[0]}`)
        }
        const parse = tag._tag === "RequestParseError" ? tag : tag._tag === "HttpServerError" ? tag.reason : undefined
        if ((parse as { readonly reason?: unknown } | undefined)?.reason === "BodyTooLarge") {
          return envelope(413, "The request body is larger than this server accepts")
        }
        if (tag._tag === "RequestParseError" || (tag._tag === "HttpServerError" && tag.reason?._tag === "RequestParseError")) {
          return envelope(400, "The request body could not be parsed")
        }
      }
    }
    if (Cause.hasInterruptsOnly(cause)) return envelope(503, "The request was interrupted")
    yield* Effect.logError("Unhandled error", cause)
    return envelope(500, "Internal server error")
  })

/**
 * The message of an error answer that is not already in the envelope, or none to leave it as is.
 * HTML answers are pages for readers (a published site's 404, its share-link and sign-in
 * refusals) and stay pages.
 */
const foreignMessage = (response: HttpServerResponse.HttpServerResponse): string | undefined => {
  const body = response.body
  if (body._tag === "Empty") return reasons[response.status] ?? "Error"
  if (body._tag === "Uint8Array" && !body.contentType.includes("json") && !body.contentType.startsWith("text/html")) {
    const text = new TextDecoder().decode(body.body).trim()
    return text === "" ? reasons[response.status] ?? "Error" : text
  }
  return undefined
}

const handle = <E, R>(
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiber((fiber) => {
    const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
    return Effect.map(Effect.catchCause(httpEffect, (cause) => fromCause(cause, request)), (response) => {
      const message = response.status >= 400 ? foreignMessage(response) : undefined
      return message === undefined ? response : envelope(response.status, message)
    })
  })

/** A global router middleware: wraps every route, the not-found fallback included. */
export const layer = HttpRouter.middleware(
  (httpEffect) =>
    // Every failure is answered here; the declared error type only satisfies the router's typing.
    handle(httpEffect) as Effect.Effect<HttpServerResponse.HttpServerResponse, Effect.Error<typeof httpEffect>, HttpServerRequest.HttpServerRequest>,
  { global: true }
)
