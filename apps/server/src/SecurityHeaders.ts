/**
 * Security headers on every answer (nosniff, no referrer, no framing, a CSP; `no-store` for
 * authenticated and API answers) and CORS: off unless `QUIRE_CORS_ORIGINS` lists origins, whose
 * preflights alone are answered.
 */
import { Config, Context, Effect } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"
import { docsPath } from "./ApiDocs.ts"
import { envelope } from "./ErrorEnvelope.ts"
import { routePrefix } from "./FileLinks.ts"

/** `QUIRE_CORS_ORIGINS`: comma-separated origins (`https://app.example.com`) that may call the API from a browser. */
export const CorsOrigins = Config.String("QUIRE_CORS_ORIGINS").pipe(
  Config.withDefault(""),
  Config.map((value) =>
    value.split(",").map((origin) => origin.trim().replace(/\/+$/, "").toLowerCase()).filter((origin) => origin !== "")
  )
)

/** Nothing an API answer holds is a page: no sources at all, never in a frame. */
export const apiPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/**
 * Files behind signed links (`/files/...`) are shown inline only when an image, a video, a sound,
 * a PDF or plain text: what the browser needs to show those, no scripts. The files' own answers
 * add `sandbox` (UploadHeaders.ts) and keep their policy; this one is for the route's errors.
 */
export const filePolicy =
  "default-src 'none'; img-src 'self'; media-src 'self'; object-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/**
 * The docs page (Scalar) runs the Scalar bundle from this server and its inline start-up (allowed
 * by its hash), injects styles (its fonts are the system's: `withDefaultFonts: false`), shows
 * images of the document, reads the document and sends "test requests" to this server. Nothing is
 * loaded from elsewhere.
 */
export const docsPolicy = (scriptHashes: ReadonlyArray<string>) =>
  [
    "default-src 'none'",
    `script-src 'self' ${scriptHashes.map((hash) => `'${hash}'`).join(" ")}`.trimEnd(),
    "style-src 'unsafe-inline'",
    "font-src data:",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'"
  ].join("; ")

/** The sha256 sources of the inline `<script>` elements of an HTML page. */
export const inlineScriptHashes = (html: string): ReadonlyArray<string> =>
  Array.from(html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g), (match) =>
    `sha256-${createHash("sha256").update(match[1]!, "utf8").digest("base64")}`)

const allowedMethods = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
const allowedHeaders = "authorization, content-type"

const pathOf = (url: string) => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

/**
 * The docs page is one response built once (ApiDocs makes it on the first visit): its script hashes
 * are computed once per body, by the policy of one server (its middleware's).
 */
const makeDocsPolicy = () => {
  let cached: { readonly body: unknown; readonly policy: string } | undefined
  return (response: HttpServerResponse.HttpServerResponse): string => {
    const body = response.body
    if (body._tag !== "Uint8Array") return docsPolicy([])
    if (cached?.body !== body) {
      cached = { body, policy: docsPolicy(inlineScriptHashes(body.text ?? new TextDecoder().decode(body.body))) }
    }
    return cached.policy
  }
}

/** The headers every answer gets (the CSP aside). */
export const commonHeaders: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY"
}

/** What an answer outside the API without a policy of its own gets (a site's `~insights` beacon, answered before the application too). */
export const siteAnswerHeaders: Readonly<Record<string, string>> = { ...commonHeaders, "content-security-policy": apiPolicy }

/** What an API answer (`/v1/...`) that is not stored and not cross-origin gets: most answers. */
const apiAnswerHeaders: Readonly<Record<string, string>> = { ...commonHeaders, "content-security-policy": apiPolicy, "cache-control": "no-store" }

const withHeaders = (
  docsPolicyOf: (response: HttpServerResponse.HttpServerResponse) => string,
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse,
  allowedOrigin: string | undefined
) => {
  const path = pathOf(request.url)
  if (
    allowedOrigin === undefined && response.status !== 304 && path.startsWith("/v1/") &&
    (request.headers["authorization"] !== undefined || response.headers["cache-control"] === undefined)
  ) {
    return HttpServerResponse.setHeaders(response, apiAnswerHeaders)
  }
  const isDocs = path === docsPath && response.status < 300
  const headers: Record<string, string> = {
    ...commonHeaders,
    "content-security-policy": isDocs ? docsPolicyOf(response) : path.startsWith(routePrefix) ? filePolicy : apiPolicy
  }
  // A published site's page brings its own policy (its inline script and style by hash), an uploaded file its sandbox.
  const own = response.headers["content-security-policy"]
  if (own !== undefined && !path.startsWith("/v1/") && !isDocs) headers["content-security-policy"] = own
  // A 304's headers replace the cached answer's: a policy there would replace the one matching the
  // cached page's nonce (browsers then block its scripts, styles and images). Keep the cached one.
  else if (response.status === 304) delete headers["content-security-policy"]
  if (request.headers["authorization"] !== undefined || (path.startsWith("/v1/") && response.headers["cache-control"] === undefined)) {
    headers["cache-control"] = "no-store"
  }
  if (allowedOrigin !== undefined) {
    headers["access-control-allow-origin"] = allowedOrigin
    headers["vary"] = response.headers["vary"] === undefined ? "Origin" : `${response.headers["vary"]}, Origin`
  }
  return HttpServerResponse.setHeaders(response, headers)
}

/** A global router middleware: every answer, the error envelope's included, gets the headers. */
export const layer = HttpRouter.middleware(
  Effect.gen(function*() {
    const origins = new Set(yield* Effect.orDie(CorsOrigins))
    const docsPolicyOf = makeDocsPolicy()
    // The handler of a request without an allowed origin, the common case, is made once.
    const sameOrigin: HttpEffect.PreResponseHandler = (req, response) => Effect.succeed(withHeaders(docsPolicyOf, req, response, undefined))
    return (httpEffect) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        const origin = request.headers["origin"]?.toLowerCase()
        const allowedOrigin = origin !== undefined && origins.has(origin) ? request.headers["origin"] : undefined
        // A pre-response handler sees the final answer, whichever middleware produced it.
        HttpEffect.appendPreResponseHandlerUnsafe(
          fiber.context,
          allowedOrigin === undefined ? sameOrigin : (req, response) => Effect.succeed(withHeaders(docsPolicyOf, req, response, allowedOrigin))
        )
        if (request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined) {
          if (allowedOrigin === undefined) return Effect.succeed(envelope(403, "Cross-origin requests from this origin are not allowed"))
          return Effect.succeed(HttpServerResponse.empty({
            status: 204,
            headers: {
              "access-control-allow-methods": allowedMethods,
              "access-control-allow-headers": allowedHeaders,
              "access-control-max-age": "600"
            }
          }))
        }
        return httpEffect
      })
  }),
  { global: true }
)
