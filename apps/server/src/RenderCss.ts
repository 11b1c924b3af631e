/**
 * The stylesheet of rendered page bodies (`format=html`) for the browser app: the published
 * site's body rules, blocks, code themes and KaTeX's, light and dark, from `@quire/sites`.
 * `GET /app/render.css` answers it revalidated by its content hash (ETag); `renderCssPath`, with
 * the hash in the name, is cached for a year. KaTeX's fonts are served beside it.
 */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { isAssetName, pageBodyStylesheet, readAsset } from "@quire/sites"
import { envelope } from "./ErrorEnvelope.ts"
import { etagMatches } from "./FastPages.ts"

/** Where the stylesheet's fonts are served. */
const assetPrefix = "/app/render/"

const stylesheet = pageBodyStylesheet((name) => `${assetPrefix}${name}`)
const hash = createHash("sha256").update(stylesheet).digest("base64url").slice(0, 16)
const etag = `"${hash}"`

/** The stylesheet's URL with its content hash in the name: cacheable for a year (the app's HTML links it). */
export const renderCssPath: `/${string}` = `/app/render-${hash}.css`

const immutable = "public, max-age=31536000, immutable"

const cssAnswer = (cacheControl: string) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const headers = { etag, "cache-control": cacheControl, "x-content-type-options": "nosniff" }
    if (etagMatches(request.headers["if-none-match"], etag)) return HttpServerResponse.empty({ status: 304, headers })
    return HttpServerResponse.text(stylesheet, { contentType: "text/css; charset=utf-8", headers })
  })

/** `GET /app/render.css` (revalidated), `GET /app/render-<hash>.css` (immutable) and the fonts they name. */
export const layer = HttpRouter.use(Effect.fn(function*(router) {
  yield* router.add("GET", "/app/render.css", cssAnswer("public, no-cache"))
  yield* router.add("GET", renderCssPath, cssAnswer(immutable))
  yield* router.add("GET", `${assetPrefix}*`, Effect.gen(function*() {
    const { "*": name } = yield* HttpRouter.params
    // Only KaTeX's fonts: the stylesheet names nothing else.
    const file = name !== undefined && name.startsWith("katex/fonts/") && isAssetName(name) ? readAsset(name) : undefined
    if (file === undefined) return envelope(404, "No such stylesheet asset")
    return HttpServerResponse.uint8Array(file.bytes, {
      contentType: file.contentType,
      headers: { "cache-control": "public, max-age=86400", "x-content-type-options": "nosniff" }
    })
  }))
}))
