/**
 * The browser app as the server serves it: its page for every route the app draws (each
 * `urls.app` form the API answers), never cached and under the app's own policy; hashed assets
 * cached for a year; a missing asset is a 404; a page explaining how to build the app when
 * QUIRE_WEB_DIR holds none. The built app is stood in for by a directory of the same shape.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { accepts, appPolicy, defaultWebDir } from "../src/WebApp.ts"
import { baseUrl, memory, withSettings } from "./Harness.ts"

const built = mkdtempSync(join(tmpdir(), "quire-web-"))
mkdirSync(join(built, "assets"))
writeFileSync(join(built, "index.html"), `<!doctype html><title>Quire</title><script type="module" src="/app/assets/index-abc123.js"></script>`)
writeFileSync(join(built, "assets", "index-abc123.js"), `console.log("app")`)
writeFileSync(join(built, "assets", "index-abc123.js.gz"), gzipSync(`console.log("app")`))

const get = (path: string) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async () => {
      const response = await fetch(`${base}${path}`, { redirect: "manual" })
      return { status: response.status, headers: response.headers, text: await response.text() }
    }))

/** Every form of `urls.app` the presenters write, and the app's own screens. */
const appPaths = [
  "/",
  "/o/org_1",
  "/o/org_1/c/col_1",
  "/o/org_1/sites/site_1",
  "/s/spc_1",
  "/s/spc_1/getting-started/install",
  "/s/spc_1/~/changes/3",
  "/s/spc_1/~/revisions/rev_1",
  "/openapi/org_1/petstore",
  "/sign-in",
  "/setup",
  "/invite/tok_1",
  "/settings",
  "/settings/sessions",
  "/app/anything"
]

layer(withSettings(memory.layer, { QUIRE_WEB_DIR: built }), { timeout: 60_000, excludeTestServices: true })("the web app, built", (it) => {
  it.effect("every app route answers the app's page, uncached, under the app's policy", () =>
    Effect.gen(function*() {
      for (const path of appPaths) {
        const page = yield* get(path)
        assert.strictEqual(page.status, 200, path)
        assert.include(page.text, "/app/assets/index-abc123.js", path)
        assert.strictEqual(page.headers.get("cache-control"), "no-store", path)
        assert.strictEqual(page.headers.get("content-security-policy"), appPolicy, path)
        assert.strictEqual(page.headers.get("x-frame-options"), "DENY", path)
      }
    }))

  it.effect("hashed assets are cached for a year; a missing one is a 404, not the page", () =>
    Effect.gen(function*() {
      const asset = yield* get("/app/assets/index-abc123.js")
      assert.strictEqual(asset.status, 200)
      assert.strictEqual(asset.headers.get("cache-control"), "public, max-age=31536000, immutable")
      assert.match(asset.headers.get("content-type") ?? "", /^text\/javascript/)
      assert.strictEqual((yield* get("/app/assets/index-old.js")).status, 404)
      assert.strictEqual((yield* get("/app/assets/..%2f..%2fetc%2fpasswd.js")).status, 404)
    }))

  it.effect("an asset goes out in the gzip form the build made to a browser that accepts it", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const response = yield* Effect.promise(() =>
        fetch(`${base}/app/assets/index-abc123.js`, { headers: { "accept-encoding": "br;q=0, gzip" } }))
      assert.strictEqual(response.headers.get("content-encoding"), "gzip")
      assert.strictEqual(response.headers.get("vary"), "accept-encoding")
      // fetch decodes it: the gzip form holds the script.
      assert.strictEqual(yield* Effect.promise(() => response.text()), `console.log("app")`)
      assert.isTrue(accepts("gzip, deflate, br", "br"))
      assert.isFalse(accepts("gzip;q=0, br", "gzip"))
      assert.isFalse(accepts("identity", "gzip"))
    }))

  it.effect("the API and its reference stay where they were", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* get("/health")).status, 200)
      assert.strictEqual((yield* get("/docs")).status, 200)
      const api = yield* get("/v1/orgs")
      assert.strictEqual(api.status, 401)
      assert.include(api.text, `"code":401`)
    }))
})

layer(withSettings(memory.layer, { QUIRE_WEB_DIR: join(built, "missing") }), { timeout: 60_000, excludeTestServices: true })("the web app, not built", (it) => {
  it.effect("its routes answer a page saying how to build it", () =>
    Effect.gen(function*() {
      const page = yield* get("/o/org_1")
      assert.strictEqual(page.status, 503)
      assert.include(page.text, "The web app is not built")
      assert.include(page.text, "pnpm --filter @quire/web build")
      assert.include(page.text, join(built, "missing"))
    }))

  it("defaults to apps/web/dist from the sources and dist/web beside the bundle", () => {
    assert.match(defaultWebDir("file:///repo/apps/server/src/WebApp.ts"), /\/repo\/apps\/web\/dist$/)
    assert.match(defaultWebDir("file:///opt/quire/dist/server.mjs"), /\/opt\/quire\/dist\/web$/)
  })
})
