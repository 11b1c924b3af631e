/** Published docs sites as readers get them: pages, navigation, machine files, search, audiences and caching, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { createHash } from "node:crypto"
import { SiteBroadcast } from "@quire/platform"
import { VisitorToken } from "@quire/sites"
import { LocalServer } from "@quire/testkit"
import { FastPages } from "../src/FastPages.ts"
import { everyBackend, baseUrl, publicUrl } from "./Harness.ts"
import { cookiesOf, get, getOnHost, idOf, localPath, png, publishedSite, write } from "./SiteFixtures.ts"

/** A request of any method, as `get` makes a GET. */
const request = (method: string, path: string) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async () => {
      const response = await fetch(`${base}${path}`, { method, redirect: "manual" })
      return { status: response.status, headers: response.headers, text: await response.text() }
    }))

for (const backend of everyBackend.filter((b) => b.name !== "pglite")) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`published sites on ${backend.name}`, (it) => {
    it.effect("serves pages with tabs, variants, sidebar, toc, prev/next, markdown and files", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public", { styling: { primaryColor: { light: "#123456", dark: "#654321" } } })
        const base = `/~sites/${s.siteId}`
        // The API's published URLs are the pages.
        assert.strictEqual(s.site.urls.published, `${publicUrl}${base}/`)
        const sections = yield* s.api.siteSections.listSiteSections({ params: s.siteParams, query: {} })
        assert.strictEqual(sections.items.find((x) => x.id === s.apiSection.id)?.urls.published, `${publicUrl}${base}/api/`)
        const bare = yield* get(base)
        assert.strictEqual(bare.status, 301)
        assert.strictEqual(bare.headers.get("location"), `${base}/`)

        const home = yield* get(`${base}/`)
        assert.strictEqual(home.status, 200)
        assert.include(home.headers.get("content-type") ?? "", "text/html")
        assert.include(home.text, "Handbook")
        assert.include(home.text, "Welcome to the handbook.")
        // Tabs: the sections the reader may see; the adaptive one is absent.
        assert.include(home.text, `href="${base}/api/"`)
        assert.include(home.text, "Reference")
        assert.include(home.text, "#123456")
        assert.notInclude(home.text, "Beta")
        // Variants of the Guides section.
        assert.include(home.text, `href="${base}/${s.variant.path}/"`)
        // Sidebar with the nested page, table of contents, next link.
        assert.include(home.text, `href="${base}/install/docker"`)
        assert.include(home.text, `href="#setup"`)
        assert.include(home.text, `href="#details"`)
        assert.include(home.text, `href="${base}/install"`)
        // Links between pages and images resolve to published URLs.
        const image = /<img[^>]*src="([^"]+)"/.exec(home.text)?.[1]
        assert.isDefined(image)
        assert.isTrue(image!.startsWith(`${base}/~files/${s.guides.id}/`), image)
        const file = yield* get(image!)
        assert.strictEqual(file.status, 200)
        assert.strictEqual(file.headers.get("content-type"), "image/png")
        // Streamed from the store with its length, and revalidated by its ETag without a body.
        assert.strictEqual(file.headers.get("content-length"), String(png.length))
        const etag = file.headers.get("etag")
        assert.isNotNull(etag)
        const revalidated = yield* get(image!, { "if-none-match": etag! })
        assert.strictEqual(revalidated.status, 304)
        assert.strictEqual(revalidated.text, "")

        // The CSP allows the page's inline scripts and style by their hashes: the same bytes every time.
        const csp = home.headers.get("content-security-policy") ?? ""
        // The early and late scripts, and the insights script (allowed by its hash, on the page only where the site records insights).
        assert.match(csp, /script-src 'sha256-[^']+' 'sha256-[^']+' 'sha256-[^']+'; style-src 'sha256-[^']+';/)
        assert.include(csp, "style-src-attr 'unsafe-inline'")
        assert.notInclude(home.text, "nonce=")
        for (const [, body] of home.text.matchAll(/<(?:script|style)>([\s\S]*?)<\/(?:script|style)>/g)) {
          assert.include(csp, `'sha256-${createHash("sha256").update(body!, "utf8").digest("base64")}'`)
        }
        const again = yield* get(`${base}/`)
        assert.strictEqual(again.text, home.text)
        assert.strictEqual(again.headers.get("content-security-policy"), csp)
        assert.strictEqual(home.headers.get("cache-control"), "public, max-age=0, must-revalidate")
        assert.isNull(home.headers.get("x-robots-tag"))

        const docker = yield* get(`${base}/install/docker`)
        assert.strictEqual(docker.status, 200)
        assert.include(docker.text, "Docker steps with giraffes.")
        assert.include(docker.text, `href="${base}/install"`)
        assert.include(docker.text, `href="${base}/configure"`)
        // The first page's own path leads to its site space's root.
        const first = yield* get(`${base}/introduction`)
        assert.strictEqual(first.status, 302)
        assert.strictEqual(first.headers.get("location"), `${base}/`)

        const section = yield* get(`${base}/api/`)
        assert.include(section.text, "The endpoints.")
        const variant = yield* get(`${base}/${s.variant.path}/`)
        assert.include(variant.text, "Version two.")

        const head = yield* Effect.flatMap(baseUrl, (url) => Effect.promise(() => fetch(`${url}${base}/install/docker`, { method: "HEAD" })))
        assert.strictEqual(head.status, 200)
        assert.isNotNull(head.headers.get("etag"))

        const md = yield* get(`${base}/install/docker.md`)
        assert.strictEqual(md.status, 200)
        assert.include(md.headers.get("content-type") ?? "", "text/markdown")
        // A page's markdown starts with its title, as GitBook's does.
        assert.strictEqual(md.text.trim(), "# Docker\n\nDocker steps with giraffes.")
        const homeMd = yield* get(`${base}/index.md`)
        assert.include(homeMd.text, "Welcome to the handbook.")

        const missing = yield* get(`${base}/nowhere`)
        assert.strictEqual(missing.status, 404)
        assert.include(missing.text, "Page not found")
        const hidden = yield* get(`${base}/${s.betaSection.path}/`)
        assert.strictEqual(hidden.status, 404)
      }))

    it.effect("answers sitemap, robots, llms.txt, llms-full.txt and search, for each audience", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite()
        const base = `/~sites/${s.siteId}`
        const sitemap = yield* get(`${base}/sitemap.xml`)
        assert.strictEqual(sitemap.status, 200)
        assert.include(sitemap.text, `/~sites/${s.siteId}/install/docker</loc>`)
        assert.include(sitemap.text, `/~sites/${s.siteId}/api/</loc>`)
        assert.notInclude(sitemap.text, "features")
        const robots = yield* get(`${base}/robots.txt`)
        assert.include(robots.text, "Allow: /")
        assert.include(robots.text, "sitemap.xml")
        const llms = yield* get(`${base}/llms.txt`)
        assert.include(llms.text, "# Handbook")
        assert.include(llms.text, "[Docker](")
        assert.notInclude(llms.text, "Beta features")
        const full = yield* get(`${base}/llms-full.txt`)
        assert.include(full.text, "Docker steps with giraffes.")
        assert.notInclude(full.text, "okapis")

        // An audience with the beta claim sees the adaptive section everywhere.
        const beta = yield* get(`${base}/${s.betaSection.path}/?visitor.beta=true`)
        assert.strictEqual(beta.status, 200)
        assert.include(beta.text, "Secret beta okapis.")
        assert.strictEqual(beta.headers.get("cache-control"), "private, max-age=0, must-revalidate")
        const cookie = cookiesOf(beta)
        assert.include(cookie, "quire_unsigned_")
        const betaLlms = yield* get(`${base}/llms-full.txt`, { cookie })
        assert.include(betaLlms.text, "okapis")
        const betaHome = yield* get(`${base}/`, { cookie })
        assert.include(betaHome.text, `href="${base}/${s.betaSection.path}/"`)

        const page = yield* get(`${base}/~search?q=giraffes`)
        assert.strictEqual(page.status, 200)
        assert.include(page.text, "Docker")
        assert.include(page.text, `${base}/install/docker`)
        const json = yield* get(`${base}/~search?q=zebras`, { accept: "application/json" })
        const body = JSON.parse(json.text) as { items: Array<{ title: string; url: string; snippet: string; section?: string }> }
        assert.strictEqual(body.items[0]?.title, "Introduction")
        assert.isTrue(body.items[0]!.url.startsWith(`${base}/`), body.items[0]!.url)
        // As the reader types, the JSON search takes the last word as the start of a word; the page does not.
        const typed = yield* get(`${base}/~search?q=zebr`, { accept: "application/json" })
        assert.strictEqual((JSON.parse(typed.text) as { items: Array<{ title: string }> }).items[0]?.title, "Introduction")
        assert.notInclude((yield* get(`${base}/~search?q=zebr`)).text, "More words about zebras.")
        const hiddenHit = yield* get(`${base}/~search?q=okapis`, { accept: "application/json" })
        assert.deepStrictEqual(JSON.parse(hiddenHit.text), { items: [] })
        const shownHit = yield* get(`${base}/~search?q=okapis`, { accept: "application/json", cookie })
        assert.strictEqual((JSON.parse(shownHit.text) as typeof body).items.length, 1)

        // Unlisted: noindex everywhere, out of sitemaps.
        yield* s.api.sites.updateSiteById({ params: s.siteParams, payload: { visibility: "unlisted" } })
        const unlisted = yield* get(`${base}/`)
        assert.strictEqual(unlisted.headers.get("x-robots-tag"), "noindex")
        assert.include(unlisted.text, `name="robots" content="noindex`)
        assert.include((yield* get(`${base}/robots.txt`)).text, "Disallow: /")
        assert.notInclude((yield* get(`${base}/sitemap.xml`)).text, "<loc>")
      }))

    it.effect("answers 304 to a matching If-None-Match, and new content once a change request is merged", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite()
        const base = `/~sites/${s.siteId}`
        const first = yield* get(`${base}/configure`)
        const etag = first.headers.get("etag")
        assert.isNotNull(etag)
        const cached = yield* get(`${base}/configure`, { "if-none-match": etag! })
        assert.strictEqual(cached.status, 304)
        const pages = yield* s.api.spaceContent.listPages({ params: { spaceId: s.guides.id }, query: {} }).pipe(Effect.orDie)
        const configure = idOf(pages, "Configure")
        assert.isDefined(configure)
        yield* write(s.api, s.guides.id, [{ operation: "update_page", page: configure!, document: { markdown: "Configure it anew." } }])
        const after = yield* get(`${base}/configure`, { "if-none-match": etag! })
        assert.strictEqual(after.status, 200)
        assert.include(after.text, "Configure it anew.")
        assert.notStrictEqual(after.headers.get("etag"), etag)
      }))

    it.effect("answers an anonymous reader's page again before the application: same bytes and headers, HEAD, 304; anew after a merge or a site change", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite()
        const base = `/~sites/${s.siteId}`
        const served = (yield* FastPages).served
        // Every answer has a request id of its own (docs/operations.md).
        const headersOf = (got: { readonly headers: Headers }) =>
          Object.fromEntries([...got.headers].filter(([name]) => !["date", "connection", "keep-alive", "x-request-id"].includes(name)))
        const normal = yield* get(`${base}/install`)
        assert.strictEqual(normal.status, 200)
        let count = served()
        const fast = yield* get(`${base}/install`)
        assert.strictEqual(served(), ++count)
        assert.strictEqual(fast.status, 200)
        assert.strictEqual(fast.text, normal.text)
        assert.deepStrictEqual(headersOf(fast), headersOf(normal))

        const head = yield* request("HEAD", `${base}/install`)
        assert.strictEqual(served(), ++count)
        assert.strictEqual(head.status, 200)
        assert.strictEqual(head.text, "")
        assert.deepStrictEqual(headersOf(head), headersOf(normal))

        // A query sends the request to the application: its 304 is the fast path's.
        const etag = normal.headers.get("etag")!
        const viaApp = yield* get(`${base}/install?from=app`, { "if-none-match": etag })
        assert.strictEqual(served(), count)
        const notModified = yield* get(`${base}/install`, { "if-none-match": etag })
        assert.strictEqual(served(), ++count)
        assert.strictEqual(notModified.status, 304)
        assert.strictEqual(viaApp.status, 304)
        assert.deepStrictEqual(headersOf(notModified), headersOf(viaApp))

        // An audience cookie or credentials go to the application.
        assert.strictEqual((yield* get(`${base}/install`, { cookie: "quire_unsigned_x=e30" })).status, 200)
        assert.strictEqual((yield* get(`${base}/install`, { authorization: "Bearer nope" })).status, 200)
        assert.strictEqual(served(), count)

        // A merge shows at once, through the application, then is kept again.
        const pages = yield* s.api.spaceContent.listPages({ params: { spaceId: s.guides.id }, query: {} }).pipe(Effect.orDie)
        yield* write(s.api, s.guides.id, [{ operation: "update_page", page: idOf(pages, "Install")!, document: { markdown: "Install it with pelicans." } }])
        const merged = yield* get(`${base}/install`)
        assert.strictEqual(served(), count)
        assert.include(merged.text, "Install it with pelicans.")
        assert.include((yield* get(`${base}/install`)).text, "Install it with pelicans.")
        assert.strictEqual(served(), ++count)

        // So does a change of the site.
        yield* s.api.sites.updateSiteById({ params: s.siteParams, payload: { title: "Handbook of pelicans" } })
        const renamed = yield* get(`${base}/install`)
        assert.strictEqual(served(), count)
        assert.include(renamed.text, "Handbook of pelicans")
        yield* s.api.sites.unpublishSite({ params: s.siteParams })
        assert.strictEqual((yield* get(`${base}/install`)).status, 404)
        assert.strictEqual(served(), count)
      }))

    it.effect("drops kept pages when another replica announces a change of sites (PostgreSQL's NOTIFY)", () =>
      Effect.gen(function*() {
        const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
        const fastPages = yield* FastPages
        if (backend.name !== "postgres") return
        assert.isTrue(Option.isSome(sql))
        const s = yield* publishedSite()
        const path = `/~sites/${s.siteId}/install`
        yield* get(path)
        const count = fastPages.served()
        yield* get(path)
        assert.strictEqual(fastPages.served(), count + 1)
        yield* Option.getOrThrow(sql)`SELECT pg_notify(${SiteBroadcast.sitesChannel}, 'another replica')`
        let dropped = false
        for (let i = 0; i < 10 && !dropped; i++) {
          yield* Effect.sleep("50 millis")
          const before = fastPages.served()
          assert.strictEqual((yield* get(path)).status, 200)
          dropped = fastPages.served() === before
        }
        assert.isTrue(dropped, "a kept page outlived another replica's change")
      }))

    it.effect("never answers a share-link or visitor-auth site's page before the application", () =>
      Effect.gen(function*() {
        const fastPages = yield* FastPages
        const count = fastPages.served()
        const shared = yield* publishedSite("share-link")
        const link = yield* shared.api.siteShareLinks.createSiteShareLink({ params: shared.siteParams, payload: { name: "Partners" } })
        const withKey = yield* get(localPath(link.urls.published!))
        assert.strictEqual(withKey.status, 200)
        const cookie = cookiesOf(withKey)
        assert.strictEqual((yield* get(`/~sites/${shared.siteId}/install`, { cookie })).status, 200)
        assert.strictEqual((yield* get(`/~sites/${shared.siteId}/install`, { cookie })).status, 200)
        assert.strictEqual((yield* get(`/~sites/${shared.siteId}/install`)).status, 401)
        assert.strictEqual((yield* get(`/~sites/${shared.siteId}/`)).status, 401)

        const visitors = yield* publishedSite("visitor-auth")
        const token = yield* VisitorToken.sign({ plan: "pro" }, visitors.key, 3600)
        const ok = yield* get(`/~sites/${visitors.siteId}/?jwt_token=${token}`)
        assert.strictEqual(ok.status, 200)
        const visitor = cookiesOf(ok)
        assert.strictEqual((yield* get(`/~sites/${visitors.siteId}/install`, { cookie: visitor })).status, 200)
        assert.strictEqual((yield* get(`/~sites/${visitors.siteId}/install`, { cookie: visitor })).status, 200)
        assert.strictEqual((yield* get(`/~sites/${visitors.siteId}/install`)).status, 401)
        assert.strictEqual(fastPages.served(), count)
      }))

    it.effect("an {% openapi-operation %} block shows the operation of its spec's latest version, and the next version once processed", () =>
      Effect.gen(function*() {
        const spec = { summary: "List the pets", example: "Rex" }
        const server = yield* LocalServer.serve((_req, res) => {
          res.writeHead(200, { "content-type": "application/json" })
          res.end(JSON.stringify({
            openapi: "3.1.0",
            info: { title: "Pets", version: "1" },
            paths: {
              "/pets": {
                get: {
                  summary: spec.summary,
                  parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }],
                  responses: { "200": { description: "The pets", content: { "application/json": { schema: { $ref: "#/components/schemas/Pets" } } } } }
                }
              }
            },
            components: { schemas: { Pets: { type: "array", items: { type: "object", properties: { name: { type: "string", example: spec.example } } } } } }
          }))
        })
        const s = yield* publishedSite("public")
        const params = { organizationId: s.organizationId, specSlug: "pets" }
        const settled = s.api.openAPISpecs.getOpenAPISpecBySlug({ params }).pipe(
          Effect.flatMap((found) => found.processingState === "complete" && found.lastVersion !== undefined ? Effect.succeed(found) : Effect.fail("pending" as const)),
          Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 150 }),
          Effect.orDie
        )
        yield* s.api.openAPISpecs.createOpenAPISpec({ params: { organizationId: s.organizationId }, payload: { slug: "pets", source: { url: `${server.origin}/openapi.json` } } })
        const first = yield* settled
        yield* write(s.api, s.apiSpace.id, [{
          operation: "insert_page",
          title: "Pets",
          slug: "pets",
          document: { markdown: `The pets API.\n\n{% openapi-operation spec="pets" path="/pets" method="get" %}\n{% endopenapi-operation %}\n\n{% openapi-operation spec="pets" path="/cats" method="get" %}` }
        }])
        const url = `/~sites/${s.siteId}/api/pets`
        const page = yield* get(url)
        assert.strictEqual(page.status, 200)
        assert.include(page.text, `<span class="openapi-method openapi-method-get">GET</span> <code class="openapi-path">/pets</code>`)
        assert.include(page.text, "List the pets")
        assert.match(page.text, /<td><code>limit<\/code><\/td><td>query<\/td><td>integer<\/td><td>optional<\/td>/)
        assert.include(page.text, `<span class="openapi-status">200</span> <span>The pets</span>`)
        // The response's example, built from the schema its $ref names.
        assert.include(page.text, "Rex")
        assert.include(page.text, `OpenAPI operation not found: GET /cats in spec "pets".`)
        assert.strictEqual((yield* get(url)).text, page.text)

        // A new version of the spec: the page shows it (through the renderer's cache at once, and
        // through the fast path once its entry is stale).
        spec.summary = "List every pet"
        spec.example = "Fido"
        yield* s.api.openAPISpecs.createOrUpdateOpenAPISpecBySlug({ params, payload: { source: { url: `${server.origin}/openapi.json` } } })
        const second = yield* settled.pipe(
          Effect.flatMap((found) => found.lastVersion === first.lastVersion ? Effect.fail("same" as const) : Effect.succeed(found)),
          Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 150 }),
          Effect.orDie
        )
        assert.notStrictEqual(second.lastVersion, first.lastVersion)
        const fresh = yield* get(`${url}?after=new-version`)
        assert.strictEqual(fresh.status, 200)
        assert.include(fresh.text, "List every pet")
        assert.include(fresh.text, "Fido")
        assert.notInclude(fresh.text, "List the pets")
        const plain = yield* get(url).pipe(
          Effect.flatMap((got) => got.text.includes("List every pet") ? Effect.succeed(got) : Effect.fail("stale" as const)),
          Effect.retry({ schedule: Schedule.spaced("200 millis"), times: 25 }),
          Effect.orDie
        )
        assert.include(plain.text, "Fido")
      }))

    it.effect("share-link sites need an active key, kept in a cookie", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("share-link")
        const base = `/~sites/${s.siteId}`
        const link = yield* s.api.siteShareLinks.createSiteShareLink({ params: s.siteParams, payload: { name: "Partners" } })
        const without = yield* get(`${base}/`)
        assert.strictEqual(without.status, 401)
        // The refusal is a page of the site: its title and stylesheet (allowed by the CSP), none of its pages.
        assert.include(without.text, "<title>Share link needed | Handbook</title>")
        assert.match(without.text, /<style>:root\{[^<]*--font:/)
        assert.match(without.headers.get("content-security-policy") ?? "", /style-src 'sha256-/)
        assert.notInclude(without.text, "Install")
        // The share link's published URL opens the site.
        assert.isDefined(link.urls.published)
        const withKey = yield* get(localPath(link.urls.published!))
        assert.strictEqual(withKey.status, 200)
        assert.strictEqual(withKey.headers.get("x-robots-tag"), "noindex")
        assert.include(withKey.headers.get("cache-control") ?? "", "private")
        const cookie = cookiesOf(withKey)
        assert.include(cookie, "quire_share_")
        assert.include(withKey.headers.getSetCookie()[0] ?? "", `Path=/~sites/${s.siteId}`)
        const next = yield* get(`${base}/install`, { cookie })
        assert.strictEqual(next.status, 200)
        const wrong = yield* get(`${base}/?share=nope`)
        assert.strictEqual(wrong.status, 403)
        yield* s.api.siteShareLinks.updateSiteShareLinkById({ params: { ...s.siteParams, shareLinkId: link.id }, payload: { active: false } })
        const revoked = yield* get(`${base}/install`, { cookie })
        assert.strictEqual(revoked.status, 403)
      }))

    it.effect("visitor-auth sites need a token signed with the site's key; its claims drive adaptive content", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("visitor-auth")
        const base = `/~sites/${s.siteId}`
        const refused = yield* get(`${base}/`)
        assert.strictEqual(refused.status, 401)
        assert.include(refused.text, "<title>Sign-in needed | Handbook</title>")
        assert.match(refused.text, /<style>:root\{[^<]*--font:/)
        const valid = yield* VisitorToken.sign({ plan: "pro" }, s.key, 3600)
        const ok = yield* get(`${base}/?jwt_token=${valid}`)
        assert.strictEqual(ok.status, 200)
        assert.strictEqual(ok.headers.get("x-robots-tag"), "noindex")
        const cookie = cookiesOf(ok)
        assert.include(cookie, "quire_visitor_")
        assert.strictEqual((yield* get(`${base}/install`, { cookie })).status, 200)
        const expired = yield* VisitorToken.sign({}, s.key, 60, new Date(Date.now() - 3_600_000))
        assert.strictEqual((yield* get(`${base}/?jwt_token=${expired}`)).status, 401)
        const forged = yield* VisitorToken.sign({}, VisitorToken.newKey(), 3600)
        assert.strictEqual((yield* get(`${base}/?jwt_token=${forged}`)).status, 403)

        // The token's claims choose what the reader sees.
        yield* s.api.siteSections.updateSiteSectionById({
          params: { ...s.siteParams, siteSectionId: s.betaSection.id },
          payload: { condition: `visitor.claims.plan === "pro"` }
        })
        const betaPath = `${base}/${s.betaSection.path}/`
        const pro = yield* get(betaPath, { cookie })
        assert.strictEqual(pro.status, 200)
        assert.include(pro.text, "Secret beta okapis.")
        const free = yield* VisitorToken.sign({ plan: "free" }, s.key, 3600)
        const denied = yield* get(`${betaPath}?jwt_token=${free}`)
        assert.strictEqual(denied.status, 404)
        const freeCookie = cookiesOf(denied)
        const freeHome = yield* get(`${base}/`, { cookie: freeCookie })
        assert.strictEqual(freeHome.status, 200)
        assert.notInclude(freeHome.text, betaPath)
        assert.notInclude((yield* get(`${base}/llms.txt`, { cookie: freeCookie })).text, "Beta features")
        assert.include((yield* get(`${base}/llms.txt`, { cookie })).text, "Beta features")
      }))

    it.effect("a visitor-auth site with a sign-in fallback URL sends readers without a valid token there, with the page they asked for", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("visitor-auth")
        const base = `/~sites/${s.siteId}`
        yield* s.api.sites.updateSitePublishingAuthById({
          params: s.siteParams,
          payload: { backend: "custom", fallbackURL: "https://auth.example.com/login?app=docs" }
        })
        const missing = yield* get(`${base}/install/docker?tab=cli`)
        assert.strictEqual(missing.status, 302)
        assert.strictEqual(missing.headers.get("location"), "https://auth.example.com/login?app=docs&location=%2Finstall%2Fdocker%3Ftab%3Dcli")
        assert.include(missing.headers.get("cache-control") ?? "", "no-store")
        const forged = yield* VisitorToken.sign({}, VisitorToken.newKey(), 3600)
        const bad = yield* get(`${base}/install?jwt_token=${forged}`)
        assert.strictEqual(bad.status, 302)
        assert.strictEqual(bad.headers.get("location"), "https://auth.example.com/login?app=docs&location=%2Finstall")
        // A valid token still opens the site.
        const valid = yield* VisitorToken.sign({}, s.key, 3600)
        assert.strictEqual((yield* get(`${base}/install?jwt_token=${valid}`)).status, 200)
        // Without a fallback URL, the sign-in page again.
        yield* s.api.sites.updateSitePublishingAuthById({ params: s.siteParams, payload: { backend: "custom", fallbackURL: null } })
        assert.strictEqual((yield* get(`${base}/install`)).status, 401)
      }))

    it.effect("unpublished and unknown sites are 404; a site's hostname serves it at /", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite()
        const unknown = yield* get(`/~sites/nope/`)
        assert.strictEqual(unknown.status, 404)
        // Styled like the sites' pages, its stylesheet allowed by the CSP, naming no site.
        assert.include(unknown.text, "<title>Site not found</title>")
        assert.match(unknown.text, /<style>:root\{[^<]*--font:/)
        assert.match(unknown.headers.get("content-security-policy") ?? "", /style-src 'sha256-/)
        const host = `docs.${s.siteId.toLowerCase().replace(/[^a-z0-9]/g, "")}.example.com`
        const withHost = yield* s.api.sites.updateSiteById({ params: s.siteParams, payload: { hostname: host } })
        assert.strictEqual(withHost.urls.published, `https://${host}/`)
        const byHost = yield* getOnHost(host, `/install/docker`)
        assert.strictEqual(byHost.status, 200)
        assert.include(byHost.text, "Docker steps with giraffes.")
        assert.include(byHost.text, `href="/install"`)
        // The site's hostname keeps `/` for the site's home; the main host's `/` is the browser app.
        const home = yield* getOnHost(host, `/`)
        assert.strictEqual(home.status, 200)
        assert.include(home.text, `href="/install"`)
        assert.notInclude(home.text, "api-reference-container")
        const app = yield* get(`/`)
        assert.notInclude(app.text, "Docker steps with giraffes.")
        // The main host keeps the API.
        assert.strictEqual((yield* get(`/v1/orgs/${s.organizationId}`)).status, 401)
        yield* s.api.sites.unpublishSite({ params: s.siteParams })
        assert.strictEqual((yield* get(`/~sites/${s.siteId}/`)).status, 404)
        assert.strictEqual((yield* getOnHost(host, `/install/docker`)).status, 404)
      }))
  })
}
