/**
 * `GET /files/<token>`: the bytes of a space file, for the signed links in `downloadURL` (see
 * FileLinks). Outside `/v1` and without authentication: the token is the authority. A forged,
 * altered or expired token, or a file whose space is gone, is a 404. The bytes are streamed from
 * the BlobStore, or with `QUIRE_FILES_DELIVERY=redirect` and a store that serves URLs of its own
 * (S3), a 302 sends the client to a short-lived signed URL of the store.
 */
import { Clock, Config, Effect, Option } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { SpaceContent } from "@quire/content"
import { envelope } from "./ErrorEnvelope.ts"
import { FileLinks, routePrefix } from "./FileLinks.ts"
import { servedType, uploadHeaders } from "./UploadHeaders.ts"

const notFound = envelope(404, "This file link is invalid or has expired")

/** `QUIRE_FILES_DELIVERY`: `stream` (default) the bytes through the server, or `redirect` to the store's signed URLs. */
export const FilesDelivery = Config.Literals(["stream", "redirect"], "QUIRE_FILES_DELIVERY").pipe(Config.withDefault("stream" as const))

/** A redirect is cached no longer than the store's URL works, less this margin for the fetch it starts. */
const redirectMargin = 60

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const links = yield* FileLinks
  const content = yield* SpaceContent
  const delivery = yield* Effect.orDie(FilesDelivery)
  // A wildcard, not `:token`: the router caps named parameters at 100 characters.
  yield* router.add("GET", `${routePrefix}*`, Effect.gen(function*() {
    const { "*": token } = yield* HttpRouter.params
    const link = token === undefined ? Option.none() : yield* links.verify(token)
    if (Option.isNone(link)) return notFound
    const { blob, expires, name, spaceId } = link.value
    const contentType = servedType(link.value.contentType)
    const headers = uploadHeaders(contentType, name)
    const contentDisposition = headers["content-disposition"]!
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const maxAge = Math.max(0, Math.min(3600, expires - now))
    if (delivery === "redirect") {
      const stored = yield* Effect.option(content.downloadLink(spaceId, blob, { contentType, contentDisposition }))
      if (Option.isNone(stored)) return notFound
      if (Option.isSome(stored.value)) {
        const { url, expires: urlExpires } = stored.value.value
        return HttpServerResponse.redirect(url, {
          status: 302,
          headers: { "cache-control": `private, max-age=${Math.max(0, Math.min(maxAge, urlExpires - now - redirectMargin))}` }
        })
      }
    }
    const bytes = yield* Effect.option(content.downloadStream(spaceId, blob))
    if (Option.isNone(bytes)) return notFound
    return HttpServerResponse.stream(bytes.value.bytes, {
      contentType,
      contentLength: bytes.value.size,
      headers: {
        "cache-control": `private, max-age=${maxAge}`,
        // Bytes users uploaded never run as a page, a script or a style of Quire's origin (UploadHeaders.ts).
        ...headers
      }
    })
  }))
}))
