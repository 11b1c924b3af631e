/**
 * One spelling of every API path. The router matches paths loosely (case-insensitive, duplicate
 * slashes and a trailing slash ignored, percent-escapes decoded, an absolute-form target's scheme
 * and host dropped), while the middleware that guards the API (rate limits, the made-up-token
 * lockout, idempotency, the cross-site guard, `no-store`) recognizes it by its literal `/v1/`
 * prefix. A request the router would send into the API but whose path is not spelled `/v1/...`
 * (`//v1/...`, `/V1/...`, `/%761/...`, `http://host/v1/...`), or that holds an empty segment
 * (`/v1//orgs`) or a dot segment (`/v1/./orgs`, `/v1/%2e%2e/`), is refused 404 before any
 * middleware or handler runs. A trailing slash stays allowed (GitBook's client may end a page
 * path with one): such a path starts with `/v1/` and passes every middleware.
 */
import { Context, Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { envelope } from "./ErrorEnvelope.ts"
import { apiPolicy, commonHeaders } from "./SecurityHeaders.ts"

const decoded = (path: string): string => {
  try {
    // As the router does: `decodeURI` leaves reserved characters (`%2F` among them) encoded.
    return decodeURI(path.replace(/%25/g, "%2525"))
  } catch {
    return path
  }
}

/** The path the router matches a request target against (FindMyWay's normalization, in its order). */
export const routeKey = (url: string): string => {
  let path = url.startsWith("/") ? url : url.replace(/^https?:\/\/.*?\//i, "/")
  const end = path.search(/[?;#]/)
  if (end !== -1) path = path.slice(0, end)
  path = decoded(path).replace(/\/{2,}/g, "/")
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1)
  return path.toLowerCase()
}

/** Whether the router would answer `url` from the API. */
export const reachesApi = (url: string): boolean => {
  const key = routeKey(url)
  return key === "/v1" || key.startsWith("/v1/")
}

/**
 * Whether `url` is plainly canonical: it starts with `/v1/` and its path (before any `?`) holds no
 * `.`, `%` or `//`, so it can hold no dot segment, escape or empty segment. Most API requests; a
 * scan of their characters, without allocating.
 */
const plainApiPath = (url: string): boolean => {
  if (!url.startsWith("/v1/")) return false
  // The `/` that ends `/v1/`: a `/` right after it is an empty segment.
  let previous = 47
  for (let i = 4; i < url.length; i++) {
    const code = url.charCodeAt(i)
    if (code === 63 /* ? */) return true
    if (code === 46 /* . */ || code === 37 /* % */ || (code === 47 /* / */ && previous === 47)) return false
    previous = code
  }
  return true
}

/** Why `url` is not a canonical API path, or undefined when it is one (or not an API path at all). */
export const nonCanonical = (url: string): string | undefined => {
  if (plainApiPath(url)) return undefined
  const path = url.split("?", 1)[0]!
  // Most requests are spelled `/v1/...` or name no `v1` at all, escaped or not: no decoding for them.
  if (!path.startsWith("/v1/") && (!/v1|%/i.test(path) || !reachesApi(url))) return undefined
  if (!path.startsWith("/v1/")) return "API paths begin with /v1/ (lowercase, one slash)"
  if (path.includes("//")) return "API paths hold no empty segment (//)"
  const dotSegment = path.split("/").some((segment) => {
    const plain = segment.replace(/%2e/gi, ".").split(";", 1)[0]!
    return plain === "." || plain === ".."
  })
  if (dotSegment) return "API paths hold no . or .. segment"
  return undefined
}

/**
 * Around the router and all its global middleware (Http.serve): a request the router would route
 * into the API under a non-canonical path is answered 404 with the error envelope and the headers
 * of an API answer, and reaches nothing else.
 */
export const refuseNonCanonical = <E, R>(httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.withFiber<HttpServerResponse.HttpServerResponse, E, R>((fiber) => {
    const problem = nonCanonical(Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest).url)
    if (problem === undefined) return httpEffect
    return Effect.succeed(HttpServerResponse.setHeaders(envelope(404, `Not found: ${problem}`), {
      ...commonHeaders,
      "content-security-policy": apiPolicy,
      "cache-control": "no-store"
    }))
  })
