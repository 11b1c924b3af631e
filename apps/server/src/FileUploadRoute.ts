/**
 * `POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/files?name=<file name>`: one file's
 * raw bytes as the request body (its type in `Content-Type`), streamed to the file store as they
 * arrive and added to the change request as `insert_files` would (Quire's extension; GitBook's
 * `insert_files` of base64 in JSON stays as it is). The body may hold `QUIRE_MAX_UPLOAD_BYTES`:
 * a larger declared body is refused before it is read, and one that grows past it while it is read
 * is cut off; both are 413s naming the limit. The organization's storage quota applies (403).
 *
 * `GET` of the same path with `/limit` appended answers `{"maxBytes": N}`, so a client refuses a
 * file that is too large before it sends a byte.
 *
 * The caller is authenticated as on `/v1`: an API token, or the browser app's session, whose
 * writes must come from our own origin.
 */
import { ByteSize, Config, Data, Effect, Option, Result, Stream } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { contentTypeOf, Imports, isMediaType } from "@quire/content"
import { sessionActor, SignInSessions, Users } from "@quire/identity"
import { Actor, type Errors } from "@quire/kernel"
import { ChangeRequests } from "@quire/reviews"
import { CustomFont, CustomFonts } from "@quire/sites"
import * as ContentPresenters from "./ContentPresenters.ts"
import { envelope } from "./ErrorEnvelope.ts"
import { FileLinks } from "./FileLinks.ts"
import { PublicUrl } from "./PublicUrl.ts"
import * as SessionCookie from "./SessionCookie.ts"

/** The default bound of one uploaded file: 100 MB. */
export const defaultMaxUploadBytes = 100 * 1024 * 1024

/** `QUIRE_MAX_UPLOAD_BYTES`: the largest file the upload route takes. */
export const MaxUploadBytes = Config.Int("QUIRE_MAX_UPLOAD_BYTES").pipe(Config.withDefault(defaultMaxUploadBytes))

const uploadPath = /^\/v1\/(spaces\/[^/]+\/change-requests\/[^/]+\/files|org\/[^/]+\/imports\/files|orgs\/[^/]+\/fonts\/files)\/?(\?|$)/

/** A signed upload URL's `PUT` (StorageUploadRoute). */
const signedUploadPath = /^\/~storage\/upload\/[^/?]+(\?|$)/

/** Whether a request is an upload, whose body this route streams (BodyLimit and IdempotencyKeys leave it alone). */
export const isUpload = (request: HttpServerRequest.HttpServerRequest): boolean =>
  (request.method.toUpperCase() === "POST" && uploadPath.test(request.url)) ||
  (request.method.toUpperCase() === "PUT" && (fontUploadPath.test(request.url) || signedUploadPath.test(request.url)))

/** A signed font upload URL (`generateStorageUploadURL` of a `customization_font`) takes its bytes as a PUT, as a bucket's would. */
const fontUploadPath = /^\/v1\/orgs\/[^/]+\/fonts\/files\/?(\?|$)/

/** A size in the words the refusals use: `100 MB`, `1.5 MB`. */
export const describeLimit = (bytes: number): string => {
  const mb = bytes / (1024 * 1024)
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
}

/** The body grew past the limit while it was read. */
export class TooLarge extends Data.TaggedError("TooLarge")<{}> {}

/** The body could not be read to its end (the client went away, or sent a malformed body). */
export class BodyFailed extends Data.TaggedError("BodyFailed")<{}> {}

export const noStore = { "cache-control": "no-store" }

export const fail = (status: number, message: string, field?: string) => HttpServerResponse.setHeaders(envelope(status, message, field), noStore)

export const statuses = { NotFound: 404, Forbidden: 403, InvalidInput: 400, Conflict: 409 } as const

/**
 * A request body read as a stream of at most `max` bytes (failing TooLarge past it, BodyFailed when
 * it cannot be read to its end), how much of it was read, and `refuse`: an answer sent before the
 * body is read, which reads and drops a body within the limit first, so that a browser still
 * sending it reads the answer rather than a reset connection.
 */
export const limitedBody = (request: HttpServerRequest.HttpServerRequest, max: number, declared: number | undefined) => {
  let consumed = false
  let read = 0
  const refuse = (response: HttpServerResponse.HttpServerResponse) =>
    !consumed && declared !== undefined && declared <= max
      ? Effect.as(Stream.runDrain(request.stream).pipe(Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(max)), Effect.ignore), response)
      : Effect.succeed(response)
  const bytes = Stream.unwrap(Effect.sync(() => {
    consumed = true
    return request.stream
  })).pipe(
    Stream.mapError(() => new BodyFailed()),
    Stream.mapEffect((chunk) => {
      read += chunk.byteLength
      return read > max ? Effect.fail(new TooLarge()) : Effect.succeed(chunk)
    })
  )
  return { refuse, bytes, read: () => read }
}

/** The `Content-Length` a request declares, if any (`NaN` when it is not a number). */
export const declaredLength = (request: HttpServerRequest.HttpServerRequest): number | undefined => {
  const header = request.headers["content-length"]
  return header === undefined ? undefined : Number(header)
}

/** The refusal of a `Content-Length` that is not a number of bytes, if it is one. */
const badLength = (declared: number | undefined) =>
  declared !== undefined && (!Number.isSafeInteger(declared) || declared < 0)
    ? Option.some(fail(400, "Invalid header: Content-Length must be a number of bytes", "content-length"))
    : Option.none()

/** A domain refusal of an upload as its answer, naming the field of invalid input. */
export const refusal = (error: Errors.NotFound | Errors.Forbidden | Errors.InvalidInput | Errors.Conflict) =>
  fail(statuses[error._tag], error.message, error._tag === "InvalidInput" ? error.field : undefined)

/**
 * Stores a streamed body within `max` bytes: what was stored, none when the body grew past the
 * limit or ended before its end (nothing is kept then), or the domain's refusal.
 */
export const storeWithin = <A, E, R>(max: number, store: Effect.Effect<A, E, R>) =>
  store.pipe(
    // The route's own limit, not the bound of other requests' bodies.
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(max + 1)),
    Effect.map(Option.some),
    Effect.catchIf(
      (error): error is Extract<E, TooLarge | BodyFailed> => error instanceof TooLarge || error instanceof BodyFailed,
      () => Effect.succeed(Option.none<A>())
    ),
    Effect.result
  )

/** The longest file name taken, as `insert_files` takes it. */
const maxNameLength = 255

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const users = yield* Users
  const sessions = yield* SignInSessions
  const changeRequests = yield* ChangeRequests
  const imports = yield* Imports
  const fileLinks = yield* FileLinks
  const origin = new URL((yield* PublicUrl).base).origin
  const max = yield* Effect.orDie(MaxUploadBytes)
  const tooLarge = (name: string) => fail(413, `“${name}” is larger than ${describeLimit(max)}, the largest file this server takes`, "body")

  /** The caller, or the answer that refuses the request (401, or 403 for a cross-site write with the cookie). */
  const caller = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = /^Bearer\s+(\S.*)$/i.exec(request.headers.authorization?.trim() ?? "")?.[1]
    if (token === undefined && !SessionCookie.isSafeMethod(request.method) && !SessionCookie.fromOwnOrigin(request, origin)) {
      return Option.none<Actor.ActorShape>()
    }
    return token !== undefined
      ? Option.map(yield* users.caller(token), (found) => found.actor)
      : Option.map(yield* SessionCookie.current.pipe(Effect.provideService(SignInSessions, sessions)), sessionActor)
  })
  const unauthorized = HttpServerResponse.setHeader(
    fail(401, "A valid API token (Authorization: Bearer <token>) or a session from this site is required"),
    "www-authenticate",
    "Bearer"
  )

  yield* router.add("GET", "/v1/spaces/:spaceId/change-requests/:changeRequestId/files/limit", Effect.gen(function*() {
    if (Option.isNone(yield* caller)) return unauthorized
    return HttpServerResponse.jsonUnsafe({ maxBytes: max }, { headers: noStore })
  }))

  yield* router.add("POST", "/v1/spaces/:spaceId/change-requests/:changeRequestId/files", Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { spaceId, changeRequestId } = yield* HttpRouter.params
    const query = new URL(request.url, "http://quire").searchParams
    const name = query.get("name") ?? ""
    const declared = declaredLength(request)
    const body = limitedBody(request, max, declared)
    const refuse = body.refuse
    const actor = yield* caller
    if (Option.isNone(actor)) return yield* refuse(unauthorized)
    if (name.trim() === "" || name.length > maxNameLength || /[/\\]/.test(name) || Array.from(name).some((c) => c.charCodeAt(0) < 0x20)) {
      return yield* refuse(fail(400, `Invalid query parameter: name must be a file name of 1 to ${maxNameLength} characters, without slashes`, "name"))
    }
    const declaredType = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()
    if (declaredType !== "" && !isMediaType(declaredType)) {
      return yield* refuse(fail(400, `Invalid header: Content-Type ${JSON.stringify(declaredType)} is not a media type`, "content-type"))
    }
    const invalidLength = badLength(declared)
    if (Option.isSome(invalidLength)) return invalidLength.value
    if (declared !== undefined && declared > max) return tooLarge(name)
    if (declared === 0) return fail(400, "The request body is empty: send the file's bytes", "body")
    const contentType = declaredType === "" || declaredType === "application/octet-stream" ? contentTypeOf(name) : declaredType
    // Counted as read; past the limit the stream fails and nothing is stored.
    const uploaded = yield* storeWithin(
      max,
      changeRequests.uploadFile(spaceId!, changeRequestId!, { name, contentType, declaredSize: declared, bytes: body.bytes }).pipe(
        Effect.provideService(Actor.Actor, actor.value)
      )
    )
    // A reader and another organization's change request are refused before a byte is read.
    if (Result.isFailure(uploaded)) return yield* refuse(refusal(uploaded.failure))
    if (Option.isNone(uploaded.success)) {
      return body.read() > max ? tooLarge(name) : fail(400, "The request body ended before the file did", "body")
    }
    const update = uploaded.success.value
    const stored = update.insertedFiles[0]!
    const sign = yield* fileLinks.signer
    return HttpServerResponse.jsonUnsafe({
      object: "upload",
      file: ContentPresenters.file(stored, (f) => sign(spaceId!, f), { metadata: true }),
      changeRequest: { id: update.changeRequest.id, number: update.changeRequest.number, revision: update.changeRequest.revision }
    }, { status: 201, headers: noStore })
  }))

  yield* importRoute(router, { caller, unauthorized, max, tooLarge, imports })
  yield* fontRoute(router, { caller, unauthorized, fonts: yield* CustomFonts })
}))

interface FontRouteDeps {
  readonly caller: ImportRouteDeps["caller"]
  readonly unauthorized: HttpServerResponse.HttpServerResponse
  readonly fonts: CustomFonts["Service"]
}

/**
 * Quire's upload of a font file (WOFF2 or WOFF, at most 5 MB) for GitBook's `createCustomFont`:
 * the answer's `storageKey` is what a font face names. Admins of the organization only.
 */
const fontRoute = (router: HttpRouter.HttpRouter, deps: FontRouteDeps) =>
  Effect.andThen(
    router.add("POST", "/v1/orgs/:organizationId/fonts/files", fontUpload(deps)),
    router.add("PUT", "/v1/orgs/:organizationId/fonts/files", fontUpload(deps))
  )

/** The bytes of one font file; with `?upload=<token>` (a signed URL) the token is the credential. */
const fontUpload = ({ caller, unauthorized, fonts }: FontRouteDeps) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { organizationId } = yield* HttpRouter.params
    const max = CustomFont.maxFontBytes
    const query = new URL(request.url, "http://quire").searchParams
    const name = query.get("name") ?? "font"
    const signed = query.get("upload")
    const declared = declaredLength(request)
    const body = limitedBody(request, max, declared)
    const actor = signed === null ? yield* caller : Option.none()
    if (signed === null && Option.isNone(actor)) return yield* body.refuse(unauthorized)
    const tooLarge = fail(413, `“${name}” is larger than ${describeLimit(max)}, the largest font file this server takes`, "body")
    if (name.length > maxNameLength || /[/\\]/.test(name)) {
      return yield* body.refuse(fail(400, `Invalid query parameter: name must be a file name of at most ${maxNameLength} characters, without slashes`, "name"))
    }
    const invalidLength = badLength(declared)
    if (Option.isSome(invalidLength)) return invalidLength.value
    if (declared !== undefined && declared > max) return tooLarge
    if (declared === 0) return fail(400, "The request body is empty: send the font file's bytes", "body")
    const uploaded = yield* storeWithin(
      max,
      Option.isSome(actor)
        ? fonts.upload(organizationId!, { name, bytes: body.bytes }).pipe(Effect.provideService(Actor.Actor, actor.value))
        : fonts.uploadSigned(organizationId!, signed ?? "", body.bytes)
    )
    if (Result.isFailure(uploaded)) return yield* body.refuse(refusal(uploaded.failure))
    if (Option.isNone(uploaded.success)) return body.read() > max ? tooLarge : fail(400, "The request body ended before the file did", "body")
    const file = uploaded.success.value
    return HttpServerResponse.jsonUnsafe(
      { object: "font-file", storageKey: file.storageKey, name: file.name, format: file.format, size: file.size },
      { status: 201, headers: noStore }
    )
  })

interface ImportRouteDeps {
  readonly caller: Effect.Effect<Option.Option<Actor.ActorShape>, never, HttpServerRequest.HttpServerRequest>
  readonly unauthorized: HttpServerResponse.HttpServerResponse
  readonly max: number
  readonly tooLarge: (name: string) => HttpServerResponse.HttpServerResponse
  readonly imports: Imports["Service"]
}

const importRoute = (router: HttpRouter.HttpRouter, { caller, unauthorized, max, tooLarge, imports }: ImportRouteDeps) => {
  // `uploadImportFile`: a file kept for an import run's `source.files` (Quire's extension), within the same limit.
  return router.add("POST", "/v1/org/:organizationId/imports/files", Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { organizationId } = yield* HttpRouter.params
    const name = new URL(request.url, "http://quire").searchParams.get("name") ?? ""
    const declared = declaredLength(request)
    const body = limitedBody(request, max, declared)
    const actor = yield* caller
    if (Option.isNone(actor)) return yield* body.refuse(unauthorized)
    const invalidLength = badLength(declared)
    if (Option.isSome(invalidLength)) return invalidLength.value
    if (declared !== undefined && declared > max) return tooLarge(name)
    if (declared === 0) return fail(400, "The request body is empty: send the file's bytes", "body")
    const declaredType = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()
    const contentType = declaredType === "" || declaredType === "application/octet-stream" || !isMediaType(declaredType) ? contentTypeOf(name) : declaredType
    const uploaded = yield* storeWithin(
      max,
      imports.upload(organizationId!, { name, contentType, bytes: body.bytes, declaredSize: declared }).pipe(Effect.provideService(Actor.Actor, actor.value))
    )
    if (Result.isFailure(uploaded)) return yield* body.refuse(refusal(uploaded.failure))
    if (Option.isNone(uploaded.success)) return body.read() > max ? tooLarge(name) : fail(400, "The request body ended before the file did", "body")
    const file = uploaded.success.value
    return HttpServerResponse.jsonUnsafe(
      { object: "import-file", key: file.id, name: file.name, contentType: file.contentType, size: file.size },
      { status: 201, headers: noStore }
    )
  }))
}
