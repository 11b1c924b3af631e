/**
 * Page paths in URLs. GitBook's client puts a page's path (`guides/setup`) in the URL of
 * `getPageByPath`, `getPageInChangeRequestByPath` and `getPageInRevisionByPath` with its slashes as
 * they are; the router matches `:pagePath` within one segment. A global middleware encodes those
 * slashes (`guides%2Fsetup`) before routing, so both forms reach the same endpoint.
 */
import { Context, Effect } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"

const pathRoutes = [
  /^(\/v1\/spaces\/[^/?#]+\/content\/path\/)([^?#]*\/[^?#]*)(.*)$/s,
  /^(\/v1\/spaces\/[^/?#]+\/change-requests\/[^/?#]+\/content\/path\/)([^?#]*\/[^?#]*)(.*)$/s,
  /^(\/v1\/spaces\/[^/?#]+\/revisions\/[^/?#]+\/path\/)([^?#]*\/[^?#]*)(.*)$/s
]

/** The URL with the slashes of a page path encoded; the URL itself when it reads no page by path. */
export const encodePagePath = (url: string): string => {
  for (const route of pathRoutes) {
    const match = route.exec(url)
    if (match !== null) return `${match[1]}${match[2]!.replace(/\/+$/, "").replaceAll("/", "%2F")}${match[3]}`
  }
  return url
}

export const layer = HttpRouter.middleware(
  (httpEffect) =>
    Effect.withFiber((fiber) => {
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      const url = encodePagePath(request.url)
      return url === request.url
        ? httpEffect
        : Effect.provideService(httpEffect, HttpServerRequest.HttpServerRequest, request.modify({ url }))
    }),
  { global: true }
)
