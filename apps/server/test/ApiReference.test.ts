/**
 * The API reference's document (what `/docs` loads) is made without holding up the server: from
 * the sources a worker thread makes it at the first visit while other requests are answered; the
 * built server serves the one `pnpm build` wrote beside it, with its own public URL as the server.
 * That file must be the contract of the sources, as `pnpm openapi` prints it: a stale one would
 * list operations that are gone and miss new ones.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { OpenApi } from "effect/http-api"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Api } from "@quire/api"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"
import { baseUrl, memory, withSettings } from "./Harness.ts"

type Spec = Record<string, any>

const root = fileURLToPath(new URL("../../..", import.meta.url))

/** The document's URL, from the `/docs` page at `base`. */
const documentUrl = async (base: string): Promise<string> => {
  const page = await fetch(`${base}/docs`)
  assert.strictEqual(page.status, 200)
  const url = /"url":"(\/docs\/openapi\.[0-9a-f]{12}\.json)"/.exec(await page.text())?.[1]
  assert.isDefined(url, "the page names the document")
  return `${base}${url}`
}

/** Each operation of a document by method and path, with what a reader sees of it first. */
const operations = (spec: Spec) =>
  Object.entries<Spec>(spec["paths"]).flatMap(([path, item]) =>
    Object.entries<Spec>(item).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation["operationId"]}: ${operation["summary"]}`)
  ).toSorted()

/** A document's operations as `METHOD path`. */
const routes = (spec: Spec) =>
  Object.entries<Spec>(spec["paths"]).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)).toSorted()

/** The operations listed in Scalar's navigation (its sidebar), as `METHOD path`. */
const navigated = (spec: Spec) => {
  const found: Array<string> = []
  const walk = (entry: Spec) => {
    if (entry["type"] === "operation") found.push(`${String(entry["method"]).toUpperCase()} ${entry["path"]}`)
    for (const child of entry["children"] ?? []) walk(child)
  }
  walk(spec["x-scalar-navigation"])
  return found.toSorted()
}

// A server from the sources keeps what it made: the next one (another test file's, a restart under
// tsx) reads it instead of making it again. The first server here starts with nothing kept, so it
// makes the document (in a worker thread) and keeps it; one making serves both checks.
const keptIn = mkdtempSync(join(tmpdir(), "quire-reference-cache-"))
const keptDocument = () => readdirSync(keptIn).filter((name) => /^document\.[0-9a-f]{64}\.json$/.test(name))

layer(withSettings(memory.layer, { QUIRE_API_REFERENCE_CACHE: keptIn }), { timeout: 240_000, excludeTestServices: true })("the API reference from the sources, first", (it) => {
  it.effect("the first /docs makes the document in a worker thread, and /health answers promptly meanwhile; the document and the compressed bundle are kept", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(keptDocument(), [], "nothing kept yet")
      const base = yield* baseUrl
      yield* Effect.promise(async () => {
        const started = performance.now()
        // The time /docs took, once it has answered.
        const answered: Array<number> = []
        const docs = fetch(`${base}/docs`).then(async (response) => {
          await response.text()
          answered.push(performance.now() - started)
          return response.status
        })
        // Made on the request's thread, the document held every request for seconds (the cast alone is 2.4 s of CPU).
        const whileMaking: Array<number> = []
        while (answered.length === 0) {
          const asked = performance.now()
          const health = await fetch(`${base}/health`)
          await health.text()
          assert.strictEqual(health.status, 200)
          if (answered.length === 0) whileMaking.push(performance.now() - asked)
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        assert.strictEqual(await docs, 200)
        const docsMs = answered[0]!
        const slowest = Math.max(...whileMaking)
        assert.isAtLeast(whileMaking.length, 5, `/health answered ${whileMaking.length} times during the ${Math.round(docsMs)} ms /docs took`)
        assert.isBelow(slowest, docsMs / 4, `the slowest /health took ${Math.round(slowest)} ms of the ${Math.round(docsMs)} ms /docs took`)
      })
      const served = yield* Effect.promise(async () => (await fetch(await documentUrl(base))).json() as Promise<Spec>)
      assert.deepStrictEqual(navigated(served), routes(OpenApi.fromApi(Api) as unknown as Spec), "Scalar's sidebar lists every operation")
      const kept = keptDocument()
      assert.strictEqual(kept.length, 1, "one document kept")
      assert.deepStrictEqual({ ...JSON.parse(readFileSync(join(keptIn, kept[0]!), "utf8")), servers: served["servers"] }, served, "the kept document is the one served, without its server")
      assert.strictEqual(readdirSync(keptIn).filter((name) => name.endsWith(".br") || name.endsWith(".gz")).length, 2, "Scalar's bundle in brotli and in gzip")
      // The next server reads what is kept: marked here, the mark shows in what it serves.
      const file = join(keptIn, kept[0]!)
      const document = JSON.parse(readFileSync(file, "utf8")) as Spec
      writeFileSync(file, JSON.stringify({ ...document, info: { ...document["info"], title: "Kept reference" } }))
    }), { timeout: 240_000 })
})

layer(withSettings(memory.layer, { QUIRE_API_REFERENCE_CACHE: keptIn }), { timeout: 240_000, excludeTestServices: true })("a server from the sources, next", (it) => {
  it.effect("serves the kept document without making it again", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const page = yield* Effect.promise(async () => (await fetch(`${base}/docs`)).text())
      assert.include(page, "<title>Kept reference</title>", `served ${/<title>(.*)<\/title>/.exec(page)?.[1]}; kept ${readdirSync(keptIn).join(", ")}`)
      rmSync(keptIn, { recursive: true, force: true })
    }))
})

describe("the API reference of the built server", () => {
  it.effect("serves the document `pnpm build` wrote, with its own URL as the server, and it is the contract of the sources", () =>
    Effect.acquireUseRelease(
      Effect.promise(async () => {
        const dataDir = mkdtempSync(join(tmpdir(), "quire-built-reference-"))
        return { dataDir, server: await ProductionBuild.startServer(root, { QUIRE_DATA_DIR: dataDir }) }
      }),
      ({ server }) =>
        Effect.promise(async () => {
          const served = await (await fetch(await documentUrl(server.url))).json() as Spec
          const built = JSON.parse(readFileSync(join(root, "dist/api-reference.json"), "utf8")) as Spec
          assert.deepStrictEqual(served, { ...built, servers: [{ url: server.url }] }, "the build's document, with this server's URL")
          // What `pnpm openapi` prints from the sources (the reference leaves out the Idempotency-Key parameter only).
          const contract = OpenApi.fromApi(Api) as unknown as Spec
          assert.deepStrictEqual(operations(served), operations(contract), "the built document lists the operations of the sources")
          assert.deepStrictEqual(navigated(served), routes(contract), "Scalar's sidebar lists every operation")
        }),
      ({ dataDir, server }) =>
        Effect.promise(async () => {
          await server.stop()
          rmSync(dataDir, { recursive: true, force: true })
        })
    ), { timeout: 900_000 })
})
