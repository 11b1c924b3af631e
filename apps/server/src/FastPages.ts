/**
 * Published pages served before the Effect application: an anonymous GET or HEAD of a public or
 * unlisted site's page that the normal path (PublishedSiteRoutes) already rendered and answered is
 * answered from here, in Node's `request` event, with the same bytes and headers (docs/sites.md,
 * "Caching"). Everything else (a miss, a query, an audience cookie, credentials, an `Origin`, the
 * API) goes on to the application.
 *
 * An entry holds while this process made no change to sites and no space's main moved here
 * (`SiteChanges.stamp`), and for `PublishedSites.staleAfterMillis` at most: changes made by other
 * processes show within that time, as on the normal path.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { SiteChanges, staleAfterMillis } from "@quire/sites"

export interface FastPage {
  readonly stamp: string
  readonly expires: number
  readonly etag: string
  readonly body: Uint8Array
  /** The 200's headers, as the application sends them (content type and length included). */
  readonly headers: Readonly<Record<string, string>>
  /** The 304's headers. */
  readonly notModified: Readonly<Record<string, string>>
}

const pages = new Map<string, FastPage>()
let bytes = 0
const maxEntries = 5000
const maxBytes = 128 * 1024 * 1024

/** What a request names: the `Host` and `X-Forwarded-Proto` it came with (the page's URLs depend on them) and its URL. */
export const keyOf = (host: string | undefined, proto: string | undefined, url: string): string => `${host ?? ""} ${proto ?? ""} ${url}`

/** The cookies that make a reader someone (share key, visitor token, claims): such requests go to the application. */
const audienceCookie = /(?:^|[;,]\s*)(?:quire_|gitbook-visitor)/

/** Whether the request is anonymous enough to be answered from here (no query, audience cookie, credentials or origin). */
export const anonymous = (url: string, headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>): boolean => {
  if (url.includes("?")) return false
  if (headers["authorization"] !== undefined || headers["origin"] !== undefined) return false
  const cookie = headers["cookie"]
  return cookie === undefined || !audienceCookie.test(String(cookie))
}

export const etagMatches = (header: string | undefined, etag: string): boolean =>
  header !== undefined && header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*")

/** Keeps a page the normal path answered. */
export const put = (key: string, page: Omit<FastPage, "stamp" | "expires">, stamp: string): void => {
  const old = pages.get(key)
  if (old !== undefined) {
    pages.delete(key)
    bytes -= old.body.length
  }
  if (pages.size >= maxEntries || bytes + page.body.length > maxBytes) {
    pages.clear()
    bytes = 0
  }
  pages.set(key, { ...page, stamp, expires: Date.now() + staleAfterMillis })
  bytes += page.body.length
}

/** How many requests were answered here (tests, diagnostics). */
export const stats = { served: 0 }

/** Forgets every page (tests). */
export const clear = (): void => {
  pages.clear()
  bytes = 0
}

/** Answers `request` when it is a kept page's; false when the application must. */
export const serve = (request: IncomingMessage, response: ServerResponse): boolean => {
  if (pages.size === 0) return false
  const method = request.method
  const url = request.url
  if ((method !== "GET" && method !== "HEAD") || url === undefined) return false
  const headers = request.headers
  const key = keyOf(headers.host, headers["x-forwarded-proto"] as string | undefined, url)
  const page = pages.get(key)
  if (page === undefined || !anonymous(url, headers)) return false
  if (page.stamp !== SiteChanges.stamp() || Date.now() >= page.expires) {
    pages.delete(key)
    bytes -= page.body.length
    return false
  }
  stats.served++
  if (etagMatches(headers["if-none-match"], page.etag)) {
    response.writeHead(304, page.notModified)
    response.end()
    return true
  }
  response.writeHead(200, page.headers)
  if (method === "HEAD") response.end()
  else response.end(page.body)
  return true
}
