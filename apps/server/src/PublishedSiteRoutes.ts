/**
 * Published docs sites for readers: `/~sites/<siteId>/...` on the main host, and a site's own
 * `hostname` served at `/` (docs/sites.md, "URLs"). Decides who reads (Audience), asks the
 * SiteRenderer for the answer and turns it into a response: cookies, caching, ETag, noindex and a
 * CSP allowing the page's inline script and style by their hashes. A page an anonymous reader got
 * is kept in FastPages, which answers the next ones before the application.
 */
import { hostname as machineName } from "node:os"
import { Context, Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  Audience,
  hostnamePattern,
  InsightsBeacon,
  ipShaped,
  isAskPath,
  loopbackName,
  PublishedSites,
  type PublishedSite,
  readableSpaceIds,
  refusalPage,
  type RefusalText,
  unknownSitePage,
  type RenderAnswer,
  SiteChanges,
  SiteRenderer,
  VisitorToken
} from "@quire/sites"
import { ContentAccess } from "@quire/content"
import { SignInSessions, sessionActor } from "@quire/identity"
import { Actor } from "@quire/kernel"
import { previewSegment, servePreview } from "./ChangePreview.ts"
import { anonymous, etagMatches, FastPages, keyOf } from "./FastPages.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { DispatchedVisitor, siteLimits, siteRefused, siteVisitorOf, TrustProxy } from "./RateLimits.ts"
import { ServerConfig } from "./ServerConfig.ts"
import * as SessionCookie from "./SessionCookie.ts"
import { commonHeaders } from "./SecurityHeaders.ts"
import { servedType, uploadHeaders } from "./UploadHeaders.ts"

/** Where published sites live on the main host. */
export const sitesPrefix = "/~sites/"

/** Files of a revision served under a site: never run as a page of the site's origin. */

const refusalHeaders = (policy: string) => HttpServerResponse.setHeaders({
  "content-security-policy": policy,
  "cache-control": "private, no-store",
  "x-robots-tag": "noindex"
})

/** The 404 of an address no published site answers, in the sites' default styling. */
const unknownSite = () => {
  const { html, policy } = unknownSitePage()
  return HttpServerResponse.html(html).pipe((response) => HttpServerResponse.setStatus(response, 404), refusalHeaders(policy))
}

/** A published site refusing a reader, in the site's own styling. */
const siteRefusal = (site: PublishedSite, status: 401 | 403, text: RefusalText) => {
  const { html, policy } = refusalPage(site, { code: String(status), ...text })
  return HttpServerResponse.html(html).pipe((response) => HttpServerResponse.setStatus(response, status), refusalHeaders(policy))
}

/** What a reader refused for `reason` is told. */
const refusalText = (reason: Exclude<Audience.DenialReason, "unpublished">, tokenMaxAgeSeconds: number): { readonly status: 401 | 403; readonly text: RefusalText } => {
  switch (reason) {
    case "share-key-missing":
      return { status: 401, text: { title: "Share link needed", message: "This site is shared by link only: open it with the link you were given." } }
    case "share-key-invalid":
      return { status: 403, text: { title: "Share link not valid", message: "This share link is not valid any more: ask for a new one." } }
    case "visitor-token-missing":
      return { status: 401, text: { title: "Sign-in needed", message: "This site is for signed-in readers: open it from the product that signs you in." } }
    case "visitor-token-expired":
      return { status: 401, text: { title: "Sign-in expired", message: "Your access to this site has expired: open it again from the product that signs you in." } }
    case "visitor-token-invalid":
      return { status: 403, text: { title: "Access denied", message: "The access token of this link is not valid for this site." } }
    case "visitor-token-lifetime":
      return {
        status: 403,
        text: {
          title: "Access denied",
          message: `The access token of this link must expire (its exp claim) within ${Math.floor(tokenMaxAgeSeconds / 3600)} hours.`
        }
      }
  }
}

const withCookies = (response: HttpServerResponse.HttpServerResponse, cookies: ReadonlyArray<Audience.SetCookie>) =>
  cookies.reduce((r, c) => HttpServerResponse.setCookieUnsafe(r, c.name, c.value, c.options), response)

const htmlType = "text/html; charset=utf-8"

/** The request's sign-in session when it is a member of the organization (see SessionCookie). */
const sessionMember = Effect.fnUntraced(function*(organizationId: string) {
  const session = yield* SessionCookie.current
  if (Option.isNone(session)) return session
  return (yield* (yield* SignInSessions).isMember(session.value, organizationId)) ? session : Option.none()
})

/** What serving a site needs besides its services: the visitor token's longest life, the site budgets, whether a proxy is trusted. */
interface Serving {
  readonly tokenMaxAgeSeconds: number
  readonly limits: Effect.Success<typeof siteLimits>
  readonly trustProxy: boolean
  readonly access: ContentAccess["Service"]
}

const serving = Effect.gen(function*() {
  const tokenMaxAgeSeconds = yield* Effect.orDie(VisitorToken.MaxAgeSeconds)
  const trustProxy = yield* Effect.orDie(TrustProxy)
  return { tokenMaxAgeSeconds, trustProxy, limits: yield* siteLimits, access: yield* ContentAccess } satisfies Serving
})

/**
 * Serves `site` at `root` (its absolute URL as the reader reaches it, ending in `/`) for the
 * request's `path` below it; `current` says whether what the site was read under still holds.
 */
const serveSite = Effect.fnUntraced(function*(site: PublishedSite, root: string, path: string, current: () => boolean, { access, limits, tokenMaxAgeSeconds, trustProxy }: Serving) {
  const request = yield* HttpServerRequest.HttpServerRequest
  const published = yield* PublishedSites
  const renderer = yield* SiteRenderer
  const fastPages = yield* FastPages
  // A change request's preview decides its own readers (ChangePreview.ts), whatever the site's visibility.
  if (path.startsWith(previewSegment)) return yield* servePreview(site, root, path.slice(previewSegment.length))
  const queryAt = request.url.indexOf("?")
  const query = new URLSearchParams(queryAt === -1 ? "" : request.url.slice(queryAt + 1))
  const member = yield* sessionMember(site.site.organizationId)
  const decision = yield* Audience.decide({
    member: Option.isSome(member),
    site: { id: site.site.id, visibility: site.site.visibility, published: site.site.published, visitorKey: site.visitorKey },
    siteUrl: root,
    query,
    cookies: request.cookies,
    tokenMaxAgeSeconds,
    checkShare: (secret) => published.checkShareSecret(site.site.id, secret)
  })
  if (decision.kind === "denied") {
    if (decision.reason === "unpublished") return withCookies(unknownSite(), decision.setCookies)
    // A visitor-auth site with a sign-in fallback URL sends the reader there, as GitBook does.
    const signIn = Audience.signInRedirect(site.fallbackUrl, decision.reason, path, query)
    if (signIn !== undefined) {
      const redirect = HttpServerResponse.redirect(signIn, { status: 302 }).pipe(
        HttpServerResponse.setHeaders({ "cache-control": "private, no-store", "x-robots-tag": "noindex" })
      )
      return withCookies(redirect, decision.setCookies)
    }
    const { status, text } = refusalText(decision.reason, tokenMaxAgeSeconds)
    return withCookies(siteRefusal(site, status, text), decision.setCookies)
  }
  // A question reaches the team's model: it spends the visitor's budget and the site's.
  if (site.customization.ai?.mode === "assistant" && isAskPath(path)) {
    const refusal = yield* limits.spend("ask", site.site.id, yield* siteVisitorOf(request, trustProxy))
    if (refusal !== undefined) {
      return withCookies(HttpServerResponse.setHeaders(siteRefused(refusal), { "cache-control": "private, no-store" }), decision.setCookies)
    }
  }

  // A member let in by their session, not by the site's audience, reads only the spaces their own
  // permissions open (docs/sites.md, "Members on a published site"): pages, search, markdown, llms, Ask.
  const readableSpaces = decision.via === "member" && Option.isSome(member)
    ? yield* readableSpaceIds(access, site).pipe(Effect.provideService(Actor.Actor, sessionActor(member.value)))
    : undefined
  const accept = request.headers["accept"] ?? ""
  // A question to Ask is the site's page's, unless the site's MCP server asked it for an agent (RateLimits' DispatchedVisitor).
  const dispatched = yield* Effect.service(DispatchedVisitor)
  const answer: RenderAnswer = yield* renderer.render({
    asker: { via: dispatched === undefined ? "site" : "mcp", language: InsightsBeacon.languageOf(request.headers["accept-language"]) },
    readableSpaces,
    site,
    root,
    path,
    query,
    claims: decision.claims,
    noindex: decision.noindex,
    json: accept.includes("application/json") && !accept.includes("text/html")
  })
  const personal = decision.via !== "open" || Object.keys(decision.claims).length > 0
  const headers: Record<string, string> = {
    "cache-control": `${personal ? "private" : "public"}, max-age=0, must-revalidate`,
    vary: "Cookie, Accept"
  }
  if (decision.noindex) headers["x-robots-tag"] = "noindex"

  const respond = (response: HttpServerResponse.HttpServerResponse, etag?: string) => {
    const withEtag = etag === undefined ? headers : { ...headers, etag }
    if (etag !== undefined && etagMatches(request.headers["if-none-match"], etag)) {
      return withCookies(HttpServerResponse.empty({ status: 304, headers: withEtag }), decision.setCookies)
    }
    return withCookies(HttpServerResponse.setHeaders(response, withEtag), decision.setCookies)
  }

  switch (answer.kind) {
    case "Html": {
      if (answer.status !== 200) {
        return respond(HttpServerResponse.uint8Array(answer.bytes, {
          status: answer.status,
          contentType: htmlType,
          headers: { "content-security-policy": answer.policy }
        }))
      }
      // The same bytes for everyone of this audience: an anonymous reader's page is kept for the
      // next ones (FastPages), with the headers the application sends (SecurityHeaders' included).
      if (
        decision.via === "open" && !personal && decision.setCookies.length === 0 && request.method === "GET" &&
        !/~|%7e/i.test(path) && anonymous(request.url, request.headers)
      ) {
        const own = { ...headers, etag: answer.etag }
        yield* fastPages.put(keyOf(request.headers["host"], request.headers["x-forwarded-proto"], request.url), {
          etag: answer.etag,
          body: answer.bytes,
          headers: {
            ...own,
            ...commonHeaders,
            "content-security-policy": answer.policy,
            "content-type": htmlType,
            "content-length": String(answer.bytes.length)
          },
          notModified: { ...own, ...commonHeaders }
        }, current)
      }
      return respond(
        HttpServerResponse.uint8Array(answer.bytes, { contentType: htmlType, headers: { "content-security-policy": answer.policy } }),
        answer.etag
      )
    }
    case "Text":
      return respond(
        HttpServerResponse.setHeader(
          HttpServerResponse.text(answer.body, { contentType: answer.contentType }),
          "content-security-policy",
          "default-src 'none'; frame-ancestors 'none'; sandbox"
        ),
        answer.etag
      )
    case "Json":
      return respond(HttpServerResponse.jsonUnsafe(answer.body, { status: answer.status ?? 200 }))
    case "File": {
      const contentType = servedType(answer.contentType)
      return respond(
        HttpServerResponse.uint8Array(answer.bytes, {
          contentType,
          headers: uploadHeaders(contentType, answer.name)
        }),
        answer.etag
      )
    }
    case "Download": {
      const contentType = servedType(answer.contentType)
      // A HEAD or a revalidation that matches reads nothing from the store: the stream runs only when sent.
      return respond(
        HttpServerResponse.stream(answer.file.bytes, {
          contentType,
          contentLength: answer.file.size,
          headers: uploadHeaders(contentType, answer.name)
        }),
        answer.etag
      )
    }
    case "Redirect":
      return respond(HttpServerResponse.redirect(answer.location, { status: answer.status ?? 302 }))
  }
})

/** `/~sites/<siteId>/...` on the main host. */
export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const published = yield* PublishedSites
  const publicUrl = yield* PublicUrl
  const renderer = yield* SiteRenderer
  const changes = yield* SiteChanges
  const fastPages = yield* FastPages
  const settings = yield* serving
  const handler = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const path = request.url.split("?")[0] ?? ""
    // One wildcard: the router caps named parameters and would not tell `/~sites/x` from `/~sites/x/`.
    const rest = path.slice(sitesPrefix.length)
    const slash = rest.indexOf("/")
    const rawId = slash === -1 ? rest : rest.slice(0, slash)
    let siteId: string
    try {
      siteId = decodeURIComponent(rawId)
    } catch {
      return unknownSite()
    }
    if (siteId === "" || siteId.length > 100) return unknownSite()
    // What the site is read under: a change from here on makes a page kept of this request stale.
    const stamp = changes.stamp()
    const found = yield* published.byId(siteId)
    if (Option.isNone(found)) return unknownSite()
    // The site's root is a folder: relative URLs of its pages resolve below it.
    if (slash === -1) return HttpServerResponse.redirect(`${sitesPrefix}${rawId}/${request.url.slice(path.length)}`, { status: 301 })
    return yield* serveSite(found.value, `${publicUrl.base}${sitesPrefix}${rawId}/`, rest.slice(slash + 1), () => changes.stamp() === stamp, settings)
  }).pipe(Effect.provideService(PublishedSites, published), Effect.provideService(SiteRenderer, renderer), Effect.provideService(FastPages, fastPages))
  yield* router.add("GET", `${sitesPrefix}*`, handler)
}))

/**
 * The `Host` of a request, lowercased, without its port. Not `X-Forwarded-Host`, which any client
 * may send: a cache in front keyed by `Host` would keep a site's page as the main host's.
 */
export const hostOf = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  request.headers["host"]?.trim().toLowerCase().replace(/:\d+$/, "")

/**
 * The names this server answers to besides IP addresses and loopback names: its public URL's host,
 * the address it listens on (`HOST`) and the machine's name. No site may take one as its hostname.
 */
export const serverHostnames = Effect.gen(function*() {
  const publicUrl = yield* PublicUrl
  const config = yield* Effect.orDie(ServerConfig)
  const names = [new URL(publicUrl.base).hostname, config.host, machineName()].map((name) => name.trim().toLowerCase())
  return [...new Set(names.filter((name) => name !== ""))]
})

/** Whether a request's host is one of the server's own: such a request always reaches the API and `/health`. */
const serverHost = (names: ReadonlyArray<string>) => (host: string): boolean =>
  names.includes(host) || ipShaped(host) || loopbackName(host)

/**
 * A request whose `Host` is a published site's hostname is that site's, at `/`; every other host
 * goes on to the API and the rest of the routes, and so does a host of the server's own (its public
 * URL's, an IP address, a loopback name) even when a site holds it from before such names were refused.
 */
export const hostLayer = HttpRouter.middleware(
  Effect.gen(function*() {
    const published = yield* PublishedSites
    const renderer = yield* SiteRenderer
    const publicUrl = yield* PublicUrl
    const changes = yield* SiteChanges
    const fastPages = yield* FastPages
    const ownHost = serverHost(yield* serverHostnames.pipe(Effect.provideService(PublicUrl, publicUrl)))
    const settings = yield* serving
    const siteOf = <E, R>(httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>, request: HttpServerRequest.HttpServerRequest, host: string) =>
      Effect.gen(function*() {
        const stamp = changes.stamp()
        const found = yield* published.byHostname(host)
        if (Option.isNone(found)) return yield* httpEffect
        const proto = request.headers["x-forwarded-proto"]?.split(",")[0]?.trim() === "https" ? "https" : "http"
        const path = request.url.split("?")[0] ?? "/"
        return yield* serveSite(found.value, `${proto}://${host}/`, path.replace(/^\/+/, ""), () => changes.stamp() === stamp, settings).pipe(
          Effect.provideService(PublishedSites, published),
          Effect.provideService(SiteRenderer, renderer),
          Effect.provideService(FastPages, fastPages)
        )
      })
    return (httpEffect) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        const host = hostOf(request)
        if (host === undefined || ownHost(host) || !hostnamePattern.test(host) || (request.method !== "GET" && request.method !== "HEAD")) {
          return httpEffect
        }
        return siteOf(httpEffect, request, host)
      })
  }),
  { global: true }
)
