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
 * browser (its cast merged in, its navigation, absolute servers), so Scalar skips that work there:
 * `pnpm build` makes it (ApiReferenceDocument.ts), and this server adds its public URL as the server.
 */
import { Config, Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiScalar, OpenApi } from "effect/http-api"
import { createHash } from "node:crypto"
import { realpathSync } from "node:fs"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { promisify } from "node:util"
import { Worker } from "node:worker_threads"
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

type Spec = Record<string, any>

/** Where tooling/build/build.mjs leaves the reference's document, beside the bundles; the sources have none. */
const builtDocument = new URL("./api-reference.json", import.meta.url)

/** Running from the sources (tsx, Vitest): no build lies beside this module. */
const fromSources = import.meta.url.endsWith(".ts")

/**
 * The worker that makes the document when there is no built one. Under tsx or Vitest this module is
 * TypeScript, and so is the worker's code (parameter properties and all), which tsx's loader reads;
 * in the build it is dist/api-reference-worker.mjs beside the bundles.
 */
const worker = (): Worker =>
  fromSources
    ? new Worker(new URL("./ApiReferenceWorker.ts", import.meta.url), { execArgv: ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] })
    : new Worker(new URL("./api-reference-worker.mjs", import.meta.url))

/** The document made in a worker thread: seconds of CPU that no request waits for. */
const madeInWorker = Effect.acquireUseRelease(
  Effect.sync(worker),
  (thread) =>
    Effect.callback<string>((resume) => {
      thread.once("message", (answer: { readonly text?: string; readonly error?: string }) =>
        resume(answer.text === undefined ? Effect.die(new Error(`the API reference's document could not be made: ${answer.error}`)) : Effect.succeed(answer.text)))
      thread.once("error", (error) => resume(Effect.die(error)))
      thread.once("exit", (code) => resume(Effect.die(new Error(`the API reference's worker stopped before answering (exit code ${code})`))))
    }),
  (thread) => Effect.promise(() => thread.terminate())
)

/**
 * The document served by the server at `base`: its only server that URL. Scalar's code samples
 * need an absolute one, and fill one in only when Scalar builds the navigation itself.
 */
export const withServer = (document: Spec, base: string): Spec => ({ ...document, servers: [{ url: base }] })

/**
 * Where a server running from the sources keeps what the build would have written (the document,
 * the compressed bundle), by a hash of what makes them: every test server of a run, and every
 * restart under tsx, would otherwise spend seconds of CPU making the same bytes. `off` keeps
 * nothing; the built server never uses it.
 */
const cacheDirectory = Config.String("QUIRE_API_REFERENCE_CACHE").pipe(
  Config.withDefault(fileURLToPath(new URL("../node_modules/.cache/api-reference", import.meta.url))),
  Config.map((dir) => fromSources && dir !== "off" ? dir : undefined)
)

/** The bytes kept under `name` in `dir`, or undefined. */
const readKept = (dir: string | undefined, name: string): Promise<Uint8Array | undefined> =>
  dir === undefined ? Promise.resolve(undefined) : readFile(join(dir, name)).then((bytes) => new Uint8Array(bytes), () => undefined)

/** Keeps `bytes` under `name` in `dir`, written whole and then renamed (a reader never sees half a file); a failure only means it is made again. */
const keep = (dir: string | undefined, name: string, bytes: Uint8Array): Promise<void> => {
  if (dir === undefined) return Promise.resolve()
  const temporary = join(dir, `${name}.${process.pid}.${Math.random().toString(36).slice(2)}`)
  return mkdir(dir, { recursive: true }).then(() => writeFile(temporary, bytes)).then(() => rename(temporary, join(dir, name))).catch(() => undefined)
}

/** The bytes kept under `name`, else made and kept. */
const kept = async (dir: string | undefined, name: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> => {
  const found = await readKept(dir, name)
  if (found !== undefined) return found
  const made = await make()
  await keep(dir, name, made)
  return made
}

const sha256 = (...parts: ReadonlyArray<string | Uint8Array>) => {
  const hash = createHash("sha256")
  for (const part of parts) hash.update(part)
  return hash.digest("hex")
}

/**
 * What the document is made of under the sources: the contract, the code that casts it and Scalar's
 * packages it uses (their real paths name their versions in pnpm's store).
 */
const documentKey = async () => {
  const require = createRequire(import.meta.url)
  const scalar = ["@scalar/workspace-store/navigation", "@scalar/json-magic/magic-proxy"].map((name) => realpathSync(require.resolve(name)))
  const maker = await readFile(new URL("./ApiReferenceDocument.ts", import.meta.url), "utf8")
  return sha256(JSON.stringify(OpenApi.fromApi(Api)), maker, ...scalar)
}

/** The reference's document: the build's, else kept from an earlier making, else made in a worker thread. */
const referenceDocument = (cache: string | undefined) =>
  Effect.gen(function*() {
    const built = yield* Effect.promise(() => readFile(builtDocument, "utf8").catch((error: NodeJS.ErrnoException) => error.code === "ENOENT" ? undefined : Promise.reject(error)))
    if (built !== undefined) return built
    if (cache === undefined) return yield* madeInWorker
    const name = `document.${yield* Effect.promise(documentKey)}.json`
    const found = yield* Effect.promise(() => readKept(cache, name))
    if (found !== undefined) return new TextDecoder().decode(found)
    const made = yield* madeInWorker
    yield* Effect.promise(() => keep(cache, name, new TextEncoder().encode(made)))
    return made
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

const asset = (stem: string, extension: string, contentType: string, text: string, cache?: string) =>
  Effect.promise(async (): Promise<Asset> => {
    const identity = new TextEncoder().encode(text)
    const hash = sha256(identity)
    // Brotli at 9: fast enough for Scalar's bundle once per process, and several times smaller.
    const [br, gz] = await Promise.all([
      kept(cache, `${hash}.br`, async () => new Uint8Array(await promisify(brotliCompress)(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.byteLength } }))),
      kept(cache, `${hash}.gz`, async () => new Uint8Array(await promisify(gzip)(identity, { level: 9 })))
    ])
    return { name: `${stem}.${hash.slice(0, 12)}.${extension}`, contentType, identity, br, gzip: gz }
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
 * The reference's three routes; the bundle and the document are read and compressed once, on the
 * first visit, not at start-up: Scalar's bundle, the document and their compressed copies would
 * otherwise be held by every server, read or not (docs/http.md has the figures). The document's
 * making (seconds of CPU) is never on this thread: the build's file is read, else a worker makes it.
 */
export const layer = Layer.unwrap(Effect.gen(function*() {
  const publicUrl = yield* PublicUrl
  const cache = yield* cacheDirectory
  const assets = yield* Effect.cached(Effect.gen(function*() {
    const [script, [document, info]] = yield* Effect.all([
      Effect.flatMap(scalarBundle, (source) => asset("scalar", "js", "text/javascript; charset=utf-8", source, cache)),
      Effect.flatMap(referenceDocument(cache), (text) => {
        const made = JSON.parse(text) as Spec
        return Effect.map(asset("openapi", "json", "application/json", JSON.stringify(withServer(made, publicUrl.base))), (found) => [found, made["info"] as Spec | undefined] as const)
      })
    ], { concurrency: 2 })
    // The introduction's first paragraph; the next describes the Idempotency-Key header.
    const description = String(info?.["description"] ?? "").split("\n\n")[0] ?? ""
    const html = new TextEncoder().encode(pageOf(String(info?.["title"] ?? "API"), description, script.name, document.name))
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
