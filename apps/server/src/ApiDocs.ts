/**
 * The API reference at `/docs`: Scalar over the OpenAPI document, as three responses rather than
 * the one page of effect's HttpApiScalar (megabytes of HTML whose inline script and document the
 * browser parsed on its main thread on every visit):
 * - `/docs`: a small page, never cached, with Scalar's settings;
 * - `/docs/scalar.<hash>.js`: the Scalar bundle effect ships, compressed (brotli, else gzip) and
 *   cached for a year, so the browser compiles it off the main thread and later visits reuse it;
 * - `/docs/openapi.<hash>.json`: the document as readers see it, compressed and cached the same way.
 * The reader's document leaves out the `Idempotency-Key` header each write accepts (Scalar's samples
 * showed it empty on every write); the document's introduction describes it instead, and
 * `/openapi.json` keeps it on every operation. It comes as Scalar's store would make it in the
 * browser (its cast merged in, its navigation, absolute servers), so Scalar skips that work there.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiScalar, OpenApi } from "effect/http-api"
import { createHash } from "node:crypto"
import { promisify } from "node:util"
import { brotliCompress, constants, gzip } from "node:zlib"
import { Api } from "@quire/api"
import { escapeHtml } from "@quire/kernel"
import { PublicUrl } from "./PublicUrl.ts"
import { accepts } from "./WebApp.ts"

export const docsPath = "/docs"

/** Scalar's settings: no fonts from elsewhere, the bearer scheme for test requests, no developer toolbar (it sends the document to Scalar's services). */
const scalarConfig = {
  withDefaultFonts: false,
  authentication: { preferredSecurityScheme: "bearer" },
  showDeveloperTools: "never"
}

/** Said once in the introduction instead of as a parameter of every write. */
const idempotencyNote =
  "\n\nEvery write (`POST`, `PUT`, `PATCH`) accepts an `Idempotency-Key` header (1 to 255 characters): the same request sent again with the same key within 24 hours gets the first answer back, status and body, instead of being run twice."

type Spec = Record<string, any>

/** The document as the reference shows it: without the `Idempotency-Key` parameter on each write, described once instead. */
export const readersDocument = (spec: Spec): Spec => {
  const paths: Spec = {}
  for (const [path, item] of Object.entries<Spec>(spec["paths"] ?? {})) {
    const operations: Spec = {}
    for (const [method, operation] of Object.entries<Spec>(item)) {
      const parameters = Array.isArray(operation?.["parameters"])
        ? operation["parameters"].filter((parameter: Spec) =>
          parameter["$ref"] !== "#/components/parameters/IdempotencyKey" && !(parameter["in"] === "header" && parameter["name"] === "Idempotency-Key"))
        : undefined
      operations[method] = parameters === undefined ? operation : { ...operation, parameters }
    }
    paths[path] = operations
  }
  return { ...spec, info: { ...spec["info"], description: `${spec["info"]?.["description"] ?? ""}${idempotencyNote}` }, paths }
}

/** The name Scalar gives a lone document without `title` or `slug` in its settings: the navigation's ids start with it. */
export const scalarDocumentName = "api-1"

/** A copy made through Scalar's reference proxy (each `$ref` read with its target), as its store copies before the cast. */
const proxiedCopy = (value: unknown, seen = new WeakMap<object, unknown>()): unknown => {
  if (typeof value !== "object" || value === null) return value
  const known = seen.get(value)
  if (known !== undefined) return known
  const copy: Record<string, unknown> | Array<unknown> = Array.isArray(value) ? [] : {}
  seen.set(value, copy)
  for (const key of Object.keys(value)) (copy as Record<string, unknown>)[key] = proxiedCopy((value as Record<string, unknown>)[key], seen)
  return copy
}

/**
 * The reader's document as Scalar's store (`@scalar/workspace-store`, the version of the bundle)
 * makes it when the document has no `x-scalar-navigation`: the cast against its OpenAPI schema
 * merged in, the navigation, and the servers (an absolute URL, which Scalar's code samples need).
 * Carrying all three, the document passes Scalar's check and Scalar does none of it in the browser.
 * Scalar's modules are imported here, on the first visit, like its bundle, not at start-up.
 */
export const scalarDocument = (readers: Spec, origin: string) => Effect.promise(async (): Promise<Spec> => {
  const [{ createMagicProxy, getRaw }, { mergeObjects }, { createNavigation }, { coerceValue }, { OpenAPIDocumentSchema }] = await Promise.all([
    import("@scalar/json-magic/magic-proxy"),
    import("@scalar/workspace-store/helpers/merge-object"),
    import("@scalar/workspace-store/navigation"),
    import("@scalar/workspace-store/schemas/typebox-coerce"),
    import("@scalar/workspace-store/schemas/v3.1/strict/openapi-document")
  ])
  const document = createMagicProxy({ ...readers, servers: readers["servers"] ?? [{ url: origin }] }, { showInternal: true }) as Spec
  mergeObjects(document, coerceValue(OpenAPIDocumentSchema, proxiedCopy(document)) as Spec)
  const navigation = createNavigation(scalarDocumentName, document as never, { "x-scalar-reference-config": { features: { showModels: true } } } as never)
  return { ...(getRaw(document) as Spec), "x-scalar-navigation": navigation }
})

/**
 * The Scalar bundle effect ships with HttpApiScalar: the first inline script of the page its layer
 * serves (for an API without endpoints), which is that bundle as is.
 */
const scalarBundle = Effect.promise(async () => {
  const { dispose, handler } = HttpRouter.toWebHandler(HttpApiScalar.layer(HttpApi.make("scalar"), { path: "/" }), { disableLogger: true })
  try {
    const html = await (await handler(new Request("http://localhost/"))).text()
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1]
    if (script === undefined || !script.includes("createApiReference")) throw new Error("effect's HttpApiScalar page holds no Scalar bundle")
    return script
  } finally {
    await dispose()
  }
})

/** A file served under a name holding its content's hash, in each encoding a browser may accept. */
interface Asset {
  readonly name: string
  readonly contentType: string
  readonly identity: Uint8Array
  readonly br: Uint8Array
  readonly gzip: Uint8Array
}

const asset = (stem: string, extension: string, contentType: string, text: string) =>
  Effect.promise(async (): Promise<Asset> => {
    const identity = new TextEncoder().encode(text)
    const hash = createHash("sha256").update(identity).digest("hex").slice(0, 12)
    // Brotli at 9: fast enough for Scalar's bundle once per process, and several times smaller.
    const [br, gz] = await Promise.all([
      promisify(brotliCompress)(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.byteLength } }),
      promisify(gzip)(identity, { level: 9 })
    ])
    return { name: `${stem}.${hash}.${extension}`, contentType, identity, br: new Uint8Array(br), gzip: new Uint8Array(gz) }
  })

const escapeJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c")

/** The page: Scalar's bundle and the document by their hashed names, and the start-up that joins them. */
export const pageOf = (title: string, description: string, script: string, document: string): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(title)}</title>
    <meta name="description" content="${escapeHtml(description)}" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <link rel="preload" href="${docsPath}/${document}" as="fetch" crossorigin />
  </head>
  <body>
    <div id="api-reference-container"></div>
    <script src="${docsPath}/${script}"></script>
    <script>window.Scalar.createApiReference(document.getElementById("api-reference-container"), ${escapeJson({ ...scalarConfig, url: `${docsPath}/${document}` })})</script>
  </body>
</html>`

const immutable = "public, max-age=31536000, immutable"

const serveAsset = (found: Asset) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const acceptEncoding = request.headers["accept-encoding"] ?? ""
    const [encoding, bytes] = accepts(acceptEncoding, "br")
      ? ["br", found.br] as const
      : accepts(acceptEncoding, "gzip")
      ? ["gzip", found.gzip] as const
      : [undefined, found.identity] as const
    return HttpServerResponse.uint8Array(bytes, {
      contentType: found.contentType,
      headers: { "cache-control": immutable, "vary": "accept-encoding", ...(encoding === undefined ? {} : { "content-encoding": encoding }) }
    })
  })

/**
 * The reference's three routes; the bundle and the document are made once, on the first visit, not at
 * start-up: Scalar's bundle, the document and their compressed copies would otherwise be held by
 * every server, read or not (docs/http.md has the figures).
 */
export const layer = Layer.unwrap(Effect.gen(function*() {
  const publicUrl = yield* PublicUrl
  const assets = yield* Effect.cached(Effect.gen(function*() {
    const spec = OpenApi.fromApi(Api) as unknown as Spec
    const [script, document] = yield* Effect.all([
      Effect.flatMap(scalarBundle, (source) => asset("scalar", "js", "text/javascript; charset=utf-8", source)),
      Effect.flatMap(scalarDocument(readersDocument(spec), publicUrl.base), (document) => asset("openapi", "json", "application/json", JSON.stringify(document)))
    ], { concurrency: 2 })
    const html = new TextEncoder().encode(pageOf(String(spec["info"]?.["title"] ?? "API"), String(spec["info"]?.["description"] ?? ""), script.name, document.name))
    return { script, document, html }
  }))
  return HttpRouter.use(Effect.fnUntraced(function*(router) {
    yield* router.add("GET", docsPath, Effect.map(assets, ({ html }) =>
      HttpServerResponse.uint8Array(html, { contentType: "text/html; charset=utf-8", headers: { "cache-control": "no-cache" } })))
    yield* router.add("GET", `${docsPath}/:file`, Effect.gen(function*() {
      const { document, script } = yield* assets
      const { file } = yield* HttpRouter.params
      const found = file === script.name ? script : file === document.name ? document : undefined
      return found === undefined
        ? HttpServerResponse.text("Not found", { status: 404, headers: { "cache-control": "no-store" } })
        : yield* serveAsset(found)
    }))
  }))
}))
