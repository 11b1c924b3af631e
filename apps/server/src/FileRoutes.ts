/**
 * `GET /files/<token>`: the bytes of a space file, for the signed links in `downloadURL` (see
 * FileLinks). Outside `/v1` and without authentication: the token is the authority. A forged,
 * altered or expired token, or a file whose space is gone, is a 404.
 */
import { Effect, Option } from "effect"
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

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const links = yield* FileLinks
  const content = yield* SpaceContent
  // A wildcard, not `:token`: the router caps named parameters at 100 characters.
  yield* router.add("GET", `${routePrefix}*`, Effect.gen(function*() {
    const { "*": token } = yield* HttpRouter.params
    const link = token === undefined ? Option.none() : yield* links.verify(token)
    if (Option.isNone(link)) return notFound
    const { blob, expires, name, spaceId } = link.value
    const contentType = servedType(link.value.contentType)
    const bytes = yield* Effect.option(content.download(spaceId, blob))
    if (Option.isNone(bytes)) return notFound
    const maxAge = Math.max(0, Math.min(3600, expires - Math.floor(Date.now() / 1000)))
    return HttpServerResponse.uint8Array(bytes.value, {
      contentType,
      headers: {
        "cache-control": `private, max-age=${maxAge}`,
        "content-disposition": disposition(contentType, name),
        "x-content-type-options": "nosniff",
        // Bytes users uploaded never run as a page of Quire's origin.
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox"
      }
    })
  }))
}))
