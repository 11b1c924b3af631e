/**
 * Published pages served before the Effect application: an anonymous GET or HEAD of a public or
 * unlisted site's page that the normal path (PublishedSiteRoutes) already rendered and answered is
 * answered from here, in Node's `request` event, with the same bytes and headers (docs/sites.md,
 * "Caching"). Everything else (a miss, a query, an audience cookie, credentials, an `Origin`, the
 * API) goes on to the application.
 *
 * An entry holds while this process made no change to sites and no space's main moved here
 * (`SiteChanges.stamp`), and for `PublishedSites.staleAfterMillis` at most: changes made by other
 * processes show within that time, as on the normal path. Each server has its own (its layer).
 *
 * A POST can be kept the same way (`putPost`): the normal path, having decided that every anonymous
 * sender to that URL is treated alike (a public or unlisted site's `~insights`), keeps a handler
 * that answers the next ones here, while the same things hold.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Clock, Context, Effect, Layer } from "effect"
import { BoundedCache } from "@quire/kernel"
import { staleAfterMillis } from "@quire/sites"

/** A page as the normal path answered it. */
export interface FastPage {
  readonly etag: string
  readonly body: Uint8Array
  /** The 200's headers, as the application sends them (content type and length included). */
  readonly headers: Readonly<Record<string, string>>
  /** The 304's headers. */
  readonly notModified: Readonly<Record<string, string>>
}

interface Kept extends FastPage {
  /** Whether nothing the page was built under changed since (`SiteChanges.stamp`). */
  readonly current: () => boolean
  readonly expires: number
}

/** A POST the normal path answers alike for every anonymous sender: it reads the body and answers. */
export interface FastPost {
  readonly answer: (request: IncomingMessage, response: ServerResponse) => void
}

interface KeptPost extends FastPost {
  readonly current: () => boolean
  readonly expires: number
}

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

/** Whether a POST is anonymous enough to be answered from here: no query, credentials or audience cookie (a browser's beacon carries an `Origin`). */
export const anonymousPost = (url: string, headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>): boolean => {
  if (url.includes("?") || headers["authorization"] !== undefined) return false
  const cookie = headers["cookie"]
  return cookie === undefined || !audienceCookie.test(String(cookie))
}

export const etagMatches = (header: string | undefined, etag: string): boolean =>
  header !== undefined && header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*")

export interface FastPagesShape {
  /** Keeps a page the normal path answered, while `current` holds (and `staleAfterMillis` at most). */
  readonly put: (key: string, page: FastPage, current: () => boolean) => Effect.Effect<void>
  /** Keeps the normal path's answer to POSTs at `key` (the same `keyOf`), while `current` holds (and `staleAfterMillis` at most). */
  readonly putPost: (key: string, post: FastPost, current: () => boolean) => Effect.Effect<void>
  /** Answers `request` when it is a kept page's or a kept POST's; false when the application must (Node's request event calls it). */
  readonly serve: (request: IncomingMessage, response: ServerResponse) => boolean
  /** How many requests were answered here (tests, diagnostics). */
  readonly served: () => number
}

/** The pages one server answers before its application. */
export class FastPages extends Context.Service<FastPages, FastPagesShape>()("@quire/server/FastPages") {
  static readonly layer = Layer.effect(
    FastPages,
    Effect.gen(function*() {
      // Node's request event reads the time outside any fiber: the clock of the server's layer.
      const clock = yield* Clock.Clock
      // Lookups of kept pages (`fast_pages`): a hit answered here, a miss a kept page that went
      // stale. Requests for no kept page are not counted (every API request would be a miss).
      const pages = yield* BoundedCache.make<string, Kept>({
        name: "fast_pages",
        capacity: maxEntries,
        maxWeight: maxBytes,
        weigh: (page) => page.body.length
      })
      // Answers to anonymous POSTs (a handful of sites' beacons in practice): the least recently used go first.
      const posts = yield* BoundedCache.make<string, KeptPost>({ name: "fast_posts", capacity: maxEntries })
      let served = 0

      const put = (key: string, page: FastPage, current: () => boolean) =>
        Effect.sync(() => pages.set(key, { ...page, current, expires: clock.currentTimeMillisUnsafe() + staleAfterMillis }))

      const putPost = (key: string, post: FastPost, current: () => boolean) =>
        Effect.sync(() => {
          posts.set(key, { ...post, current, expires: clock.currentTimeMillisUnsafe() + staleAfterMillis })
        })

      const servePost = (request: IncomingMessage, response: ServerResponse, url: string): boolean => {
        const headers = request.headers
        const key = keyOf(headers.host, headers["x-forwarded-proto"] as string | undefined, url)
        const post = posts.peek(key)
        if (post === undefined || !anonymousPost(url, headers)) return false
        if (!post.current() || clock.currentTimeMillisUnsafe() >= post.expires) {
          posts.delete(key)
          posts.record(false)
          return false
        }
        posts.record(true)
        served++
        post.answer(request, response)
        return true
      }

      const serve = (request: IncomingMessage, response: ServerResponse): boolean => {
        const method = request.method
        const url = request.url
        if (method === "POST" && url !== undefined && posts.size() > 0) return servePost(request, response, url)
        if (pages.size() === 0) return false
        if ((method !== "GET" && method !== "HEAD") || url === undefined) return false
        const headers = request.headers
        const key = keyOf(headers.host, headers["x-forwarded-proto"] as string | undefined, url)
        const page = pages.peek(key)
        if (page === undefined || !anonymous(url, headers)) return false
        if (!page.current() || clock.currentTimeMillisUnsafe() >= page.expires) {
          pages.record(false)
          pages.delete(key)
          return false
        }
        // Counted as a hit and made the most recently used.
        pages.get(key)
        served++
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

      return { put, putPost, serve, served: () => served }
    })
  )
}
