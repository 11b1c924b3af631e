/**
 * `GET /~fonts/<fontId>/<weight>.<woff2|woff>`: a custom font's face, which published sites name in
 * their `@font-face` rules (from any host, hence CORS for all). Fonts are public once defined: the
 * id is unguessable and the bytes are what every reader of a site using them downloads anyway.
 */
import { Effect, Option } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { CustomFonts } from "@quire/sites"

const notFound = () => HttpServerResponse.text("Not found", { status: 404, headers: { "cache-control": "no-store" } })

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const fonts = yield* CustomFonts
  yield* router.add("GET", "/~fonts/:fontId/:file", Effect.gen(function*() {
    const { fontId, file } = yield* HttpRouter.params
    const match = /^(\d{1,4})\.(woff2|woff)$/.exec(file ?? "")
    if (match === null || fontId === undefined) return notFound()
    const found = yield* fonts.face(fontId, Number(match[1]))
    if (Option.isNone(found) || found.value.format !== match[2]) return notFound()
    const { format, file: bytes } = found.value
    return HttpServerResponse.stream(bytes.bytes, {
      contentType: `font/${format}`,
      contentLength: bytes.size,
      headers: {
        "access-control-allow-origin": "*",
        "cross-origin-resource-policy": "cross-origin",
        // The face of a weight may be replaced: a day, then ask again.
        "cache-control": "public, max-age=86400",
        "x-content-type-options": "nosniff"
      }
    })
  }))
}))
