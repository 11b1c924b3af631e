/**
 * `PUT /~storage/upload/<token>`: the bytes of one file, sent to a signed upload URL
 * (`generateStorageUploadURL`), streamed to the file store as they arrive and kept as the person's
 * upload under the URL's key. The URL is the authority (no token or cookie); `Content-Length` must
 * be the size it was asked for, within `QUIRE_MAX_UPLOAD_BYTES`; the organization's quota applies.
 */
import { Effect, Option, Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Imports } from "@quire/content"
import { Actor, SignedToken } from "@quire/kernel"
import { declaredLength, describeLimit, fail, limitedBody, MaxUploadBytes, noStore, refusal, storeWithin } from "./FileUploadRoute.ts"
import * as StorageUploads from "./StorageUploads.ts"

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const imports = yield* Imports
  const max = yield* Effect.orDie(MaxUploadBytes)
  const key = yield* StorageUploads.key
  yield* router.add("PUT", "/~storage/upload/:token", Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { token } = yield* HttpRouter.params
    const declared = declaredLength(request)
    const body = limitedBody(request, max, declared)
    const claims = yield* SignedToken.open(key, StorageUploads.UploadClaims, token ?? "")
    if (Option.isNone(claims)) return yield* body.refuse(fail(403, "This upload URL is not valid or has expired: ask for another", "url"))
    const upload = claims.value.value
    if (declared === undefined || !Number.isSafeInteger(declared) || declared !== upload.size) {
      return yield* body.refuse(fail(400, `Invalid header: Content-Length must be ${upload.size}, the size the upload URL was made for`, "content-length"))
    }
    if (declared > max) return fail(413, `The file is larger than ${describeLimit(max)}, the largest file this server takes`, "body")
    const stored = yield* storeWithin(
      max,
      imports.upload(upload.organization, { id: upload.key, name: upload.name, contentType: upload.type, bytes: body.bytes, declaredSize: declared }).pipe(
        Effect.provideService(Actor.Actor, { userId: upload.user, instanceAdmin: false })
      )
    )
    if (Result.isFailure(stored)) return yield* body.refuse(refusal(stored.failure))
    if (Option.isNone(stored.success)) return fail(400, "The request body ended before the file did", "body")
    const file = stored.success.value
    return HttpServerResponse.jsonUnsafe({ object: "import-file", key: file.id, name: file.name, contentType: file.contentType, size: file.size }, { status: 200, headers: noStore })
  }))
}))
