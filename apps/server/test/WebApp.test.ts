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
import { accepts, appPolicy, defaultWebDir, preloadsFor, withPreloads } from "../src/WebApp.ts"
import { baseUrl, memory, newUser, publicUrl, withSettings } from "./Harness.ts"

const built = mkdtempSync(join(tmpdir(), "quire-web-"))
mkdirSync(join(built, "assets"))
writeFileSync(join(built, "index.html"), `<!doctype html><html><head><title>Quire</title><script type="module" src="/app/assets/index-abc123.js"></script></head><body></body></html>`)
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

  it.effect("a signed-in person's page names the first screen's API requests as preloads; anyone else's names none", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const alice = yield* newUser("Alice")
      const organization = yield* alice.api.organizations.createOrganization({ payload: { title: "Preloads" } })
      yield* alice.api.organizations.updateOrganizationById({ params: { organizationId: organization.id }, payload: { inviteLinks: true } })
      const invite = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId: organization.id }, payload: { role: "read" } })
      const joined = yield* Effect.promise(() => fetch(`${base}/auth/invites/${organization.id}.${invite.id}/accept`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: publicUrl },
        body: JSON.stringify({ displayName: "Rhea", email: `rhea.${Date.now()}@example.com`, password: "a password long enough" })
      }))
      assert.strictEqual(joined.status, 200)
      const cookie = (joined.headers.get("set-cookie") ?? "").split(";")[0]!
      const page = yield* Effect.promise(async () => (await fetch(`${base}/s/spc_1/guides/install?x=1`, { headers: { cookie } })).text())
      assert.include(page, `<link rel="preload" href="/v1/spaces/spc_1/content/path/guides%2Finstall?format=html" as="fetch" crossorigin>`)
      assert.include(page, `<link rel="preload" href="/v1/orgs?limit=100" as="fetch" crossorigin>`)
      // A stale cookie, or none: the sign-in screen comes, and a preload would only answer 401.
      for (const headers of [{}, { cookie: "quire_session=stale" }]) {
        const anonymous = yield* Effect.promise(async () => (await fetch(`${base}/s/spc_1/guides/install`, { headers })).text())
        assert.notInclude(anonymous, "rel=\"preload\"")
      }
    }))

  it("preloads: the shell's requests everywhere, and a space page's own", () => {
    assert.deepStrictEqual(preloadsFor("/o/org_1"), ["/v1/orgs?limit=100", "/v1/user/notifications/count"])
    assert.deepStrictEqual(preloadsFor("/s/spc_1/~/changes/3/intro"), [
      "/v1/orgs?limit=100", "/v1/user/notifications/count", "/v1/spaces/spc_1", "/v1/spaces/spc_1/change-requests/3",
      "/v1/spaces/spc_1/change-requests/3/content/pages", "/v1/spaces/spc_1/change-requests/3/content/files?limit=100"
    ])
    for (const other of ["/s/spc_1/~/changes/3/~/review", "/s/spc_1/~/changes/x", "/s/spc_1/~/history", "/s/spc_1/~/revisions/rev_1"]) {
      assert.deepStrictEqual(preloadsFor(other), ["/v1/orgs?limit=100", "/v1/user/notifications/count"], other)
    }
    assert.deepStrictEqual(preloadsFor("/s/spc_1"), [
      "/v1/orgs?limit=100", "/v1/user/notifications/count", "/v1/spaces/spc_1", "/v1/spaces/spc_1/content/pages",
      "/v1/spaces/spc_1/change-requests?limit=20&status=open", "/v1/spaces/spc_1/revisions?limit=1"
    ])
    // Path segments as the app reads them: decoded, then the page path encoded as one parameter.
    assert.include(preloadsFor("/s/spc_1/caf%C3%A9/a%20b"), "/v1/spaces/spc_1/content/path/caf%C3%A9%2Fa%20b?format=html")
    assert.strictEqual(withPreloads("<head></head>", ["/v1/a?b=1&c=\"2\""]), `<head><link rel="preload" href="/v1/a?b=1&amp;c=&quot;2&quot;" as="fetch" crossorigin></head>`)
  })

  // From the sources, the first /docs has a worker thread make the reference's document: tens of seconds on a loaded machine.
  it.effect("the API and its reference stay where they were", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* get("/health")).status, 200)
      assert.strictEqual((yield* get("/docs")).status, 200)
      const api = yield* get("/v1/orgs")
      assert.strictEqual(api.status, 401)
      assert.include(api.text, `"code":401`)
    }), { timeout: 240_000 })
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
