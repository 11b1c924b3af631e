/**
 * `GET /files/<token>`: the bytes of a space file, for the signed links in `downloadURL` (see
 * FileLinks). Outside `/v1` and without authentication: the token is the authority. A forged,
 * altered or expired token, or a file whose space is gone, is a 404. The bytes are streamed from
 * the BlobStore, or with `QUIRE_FILES_DELIVERY=redirect` and a store that serves URLs of its own
 * (S3), a 302 sends the client to a short-lived signed URL of the store.
 */
import { Clock, Config, Effect, Option } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { Schemas } from "@quire/api"
import { SpaceContent } from "@quire/content"
import { envelope } from "./ErrorEnvelope.ts"
import { FileLinks, routePrefix } from "./FileLinks.ts"

const notFound = envelope(404, "This file link is invalid or has expired")

/**
 * The content type to answer with: the stored one when it is a well-formed media type, else
 * `application/octet-stream` (a type stored before types were validated, with CR/LF or other
 * bytes no header may hold, must not make the download fail).
 */
const servedType = (contentType: string): string =>
  contentType.length <= 200 && Schemas.mediaTypePattern.test(contentType) ? contentType : "application/octet-stream"

/** `filename*` of a name: a lone surrogate (which `encodeURIComponent` throws on) becomes U+FFFD. */
const encodedName = (name: string): string => encodeURIComponent(name.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"))

/** `attachment` for what a browser would run or render as a page of ours (HTML, SVG, XML): the rest is shown inline. */
const disposition = (contentType: string, name: string) => {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? ""
  const inline = /^(image\/(png|jpeg|gif|webp|avif)|video\/|audio\/|application\/pdf|text\/plain)/.test(type)
  return `${inline ? "inline" : "attachment"}; filename*=UTF-8''${encodedName(name)}`
}

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
    const contentDisposition = disposition(contentType, name)
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
        "content-disposition": contentDisposition,
        "x-content-type-options": "nosniff",
        // Bytes users uploaded never run as a page of Quire's origin.
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox"
      }
    })
  }))
}))
