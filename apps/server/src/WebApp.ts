/**
 * The browser app (apps/web, docs/web.md) on the server's own origin: its hashed assets under
 * `/app/assets/` (cached for a year, immutable), and its `index.html`, never cached, for every
 * route the app draws (`/`, `/o/...`, `/s/...`, `/sign-in`, `/setup`, `/invite/...`,
 * `/settings/...`, `/openapi/...`, `/app/...`): every `urls.app` the API answers opens there.
 * Scripts and stylesheets go out in the brotli or gzip form the build made, when accepted.
 * The files are read from `QUIRE_WEB_DIR`; when the app was not built, those routes answer a page
 * saying how to build it.
 */
import { Config, Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { escapeHtml } from "@quire/kernel"
import { readFile } from "node:fs/promises"
import { extname, join, normalize, sep } from "node:path"
import { fileURLToPath } from "node:url"
import * as SessionCookie from "./SessionCookie.ts"

/**
 * Where the built app is by default: `dist/web` beside the server's bundle (dist/server.mjs), or
 * apps/web/dist when the server runs from its sources (this file is then a `.ts`).
 */
export const defaultWebDir = (moduleUrl: string): string =>
  moduleUrl.endsWith(".ts")
    ? fileURLToPath(new URL("../../web/dist", moduleUrl))
    : fileURLToPath(new URL("./web", moduleUrl))

/** `QUIRE_WEB_DIR`: the directory holding the built app's index.html and assets/. */
export const WebDir = Config.String("QUIRE_WEB_DIR").pipe(Config.withDefault(defaultWebDir(import.meta.url)))

/**
 * What the app's page may do: its own scripts, styles, fonts and images (and images pasted as
 * `data:`/`blob:`, and a page's images from https), requests to this server, forms posting here. Nothing from elsewhere, no inline
 * script, never in a frame.
 */
export const appPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // Rendered page bodies (format=html) carry highlighting and math styles as attributes.
  "style-src-attr 'unsafe-inline'",
  // Pages show images from anywhere on the web, as the published site does.
  "img-src 'self' https: data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'"
].join("; ")

/** The routes whose page is the app's (a wildcard `/o/*` takes `/o` as well). */
export const appRoutes: ReadonlyArray<HttpRouter.PathInput> = [
  "/",
  "/o/*",
  "/s/*",
  "/sign-in",
  "/setup",
  "/invite/*",
  "/verify-email",
  "/settings/*",
  "/notifications",
  "/new-organization",
  "/openapi/*",
  "/app/*"
]

const contentTypes: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8"
}

const immutable = "public, max-age=31536000, immutable"

/** The page answered for the app's routes when `dir` holds no built app. */
export const notBuiltPage = (dir: string) =>
  HttpServerResponse.text(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Quire: the web app is not built</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">
<h1>The web app is not built</h1>
<p>This server found no <code>index.html</code> in <code>${escapeHtml(dir)}</code>.</p>
<p>Build it with <code>pnpm --filter @quire/web build</code> (or <code>pnpm build</code> for a release), or point <code>QUIRE_WEB_DIR</code> at a built copy, then reload.</p>
<p>The API and its reference at <a href="/docs">/docs</a> work without it.</p>
</body></html>`, {
    status: 503,
    contentType: "text/html; charset=utf-8",
    headers: { "cache-control": "no-store", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" }
  })

/** The file at `relative` inside `dir`, or undefined (absent, a directory, or outside `dir`). */
const readInside = (dir: string, relative: string) =>
  Effect.promise(async () => {
    const path = normalize(join(dir, relative))
    if (!path.startsWith(normalize(dir) + sep)) return undefined
    try {
      return new Uint8Array(await readFile(path))
    } catch {
      return undefined
    }
  })

/** Whether an `Accept-Encoding` value accepts `encoding` (named, with a weight above 0). */
export const accepts = (acceptEncoding: string, encoding: string): boolean =>
  acceptEncoding.split(",").some((part) => {
    const [name, ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase())
    const weight = parameters.find((parameter) => parameter.startsWith("q="))
    return name === encoding && (weight === undefined || Number(weight.slice(2)) > 0)
  })

/**
 * The build's brotli or gzip form of an asset (`<file>.br`, `<file>.gz`, made by apps/web's
 * vite.config.ts), when the browser accepts it and the build made one.
 */
const precompressed = (dir: string, relative: string, acceptEncoding: string) =>
  Effect.gen(function*() {
    const accepted = acceptEncoding
    for (const [encoding, suffix] of [["br", ".br"], ["gzip", ".gz"]] as const) {
      if (!accepts(accepted, encoding)) continue
      const bytes = yield* readInside(dir, `${relative}${suffix}`)
      if (bytes !== undefined) return { encoding, bytes }
    }
    return undefined
  })

/**
 * The `/v1` requests the app makes first on the screen at `pathname`, for a signed-in person: the
 * shell's (organizations, unread notifications); on a space's page, the space, its page tree, the
 * page, its open change requests and its latest revision; in a change request's editor, the
 * space, the request, its page tree and its files. The page names them as
 * `<link rel="preload" as="fetch">`, so they load while the app's script does; the URLs are the
 * ones the app's typed client builds, byte for byte (test/e2e checks each is fetched once).
 * The session stays a request of its own (`/auth/session`, preloaded by index.html): with it in
 * the page, the app's first render fetched while its script still held the main thread, before
 * Chromium had taken the preloads' answers in, and every request went out twice.
 */
export const preloadsFor = (pathname: string): ReadonlyArray<string> => {
  const parts = pathname.split("/").filter((part) => part !== "").map((part) => {
    try {
      return decodeURIComponent(part)
    } catch {
      return part
    }
  })
  const shell = ["/v1/orgs?limit=100", "/v1/user/notifications/count"]
  const [first, spaceId, ...path] = parts
  if (first !== "s" || spaceId === undefined) return shell
  const space = `/v1/spaces/${encodeURIComponent(spaceId)}`
  const [tilde, kind, number, ...crPath] = path
  if (tilde === "~") {
    // A change request's pages in the editor: the space (the frame's organization comes from it),
    // the request and its tree, its files (for images). Not the page itself: the editor reads it
    // after the request, so it is never older than its base revision.
    if (kind !== "changes" || number === undefined || !/^[1-9]\d*$/.test(number) || crPath[0] === "~") return shell
    const cr = `${space}/change-requests/${number}`
    return [...shell, space, cr, `${cr}/content/pages`, `${cr}/content/files?limit=100`]
  }
  const pagePath = path.join("/")
  return [
    ...shell,
    space,
    `${space}/content/pages`,
    ...(pagePath === "" ? [] : [`${space}/content/path/${encodeURIComponent(pagePath)}?format=html`]),
    `${space}/change-requests?limit=20&status=open`,
    `${space}/revisions?limit=1`
  ]
}

/** The app's page with the preloads of `pathname` before `</head>`. */
export const withPreloads = (html: string, urls: ReadonlyArray<string>): string =>
  urls.length === 0 ? html
    : html.replace("</head>", `${urls.map((url) => `<link rel="preload" href="${escapeHtml(url)}" as="fetch" crossorigin>`).join("")}</head>`)

const routes = HttpRouter.use(Effect.fn(function*(router) {
  const dir = yield* Effect.orDie(WebDir)

  const index = Effect.gen(function*() {
    const bytes = yield* readInside(dir, "index.html")
    if (bytes === undefined) return notBuiltPage(dir)
    const request = yield* HttpServerRequest.HttpServerRequest
    // Only for a live session: anyone else gets the sign-in screen, and a preload would answer 401.
    const signedIn = Option.isSome(yield* SessionCookie.current)
    const html = signedIn ? withPreloads(new TextDecoder().decode(bytes), preloadsFor(request.url.split("?")[0] ?? "/")) : undefined
    return HttpServerResponse.uint8Array(html === undefined ? bytes : new TextEncoder().encode(html), {
      contentType: "text/html; charset=utf-8",
      headers: { "cache-control": "no-store", "content-security-policy": appPolicy }
    })
  })

  /** A file of the build under /app/ (hashed assets are immutable), else the app's page. */
  const appFile = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const path = (request.url.split("?")[0] ?? "").slice("/app/".length)
    let relative: string
    try {
      relative = decodeURIComponent(path)
    } catch {
      return yield* index
    }
    const type = contentTypes[extname(relative)]
    if (relative === "" || relative === "index.html" || type === undefined) return yield* index
    const encoded = relative.startsWith("assets/") ? yield* precompressed(dir, relative, request.headers["accept-encoding"] ?? "") : undefined
    if (encoded !== undefined) {
      return HttpServerResponse.uint8Array(encoded.bytes, {
        contentType: type,
        headers: { "cache-control": immutable, "content-encoding": encoded.encoding, "vary": "accept-encoding" }
      })
    }
    const bytes = yield* readInside(dir, relative)
    if (bytes === undefined) {
      // A missing asset is a 404, never the page (a stale tab asking for an old chunk must fail clearly).
      return relative.startsWith("assets/")
        ? HttpServerResponse.text("Not found", { status: 404, headers: { "cache-control": "no-store" } })
        : yield* index
    }
    return HttpServerResponse.uint8Array(bytes, {
      contentType: type,
      headers: { "cache-control": relative.startsWith("assets/") ? immutable : "no-cache" }
    })
  })

  for (const route of appRoutes) {
    yield* router.add("GET", route, route === "/app/*" ? appFile : index)
  }
}))

/** The app's routes. */
export const layer = routes
