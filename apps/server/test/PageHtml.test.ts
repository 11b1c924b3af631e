/**
 * `format=html` (Quire's extension) on the single-page reads, and the stylesheet the app loads for
 * it at `/app/render.css`: the published site's renderer, links to the app, signed file links.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { baseUrl, backends, download, errorCode, errorMessage, mergeIntoMain, newUser, publicUrl, raw, spaceWith } from "./Harness.ts"

const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64")

const home = [
  "{% hint style=\"warning\" %}",
  "Back up first.",
  "{% endhint %}",
  "",
  "Read [the guide](guide.md) and [its setup](guide.md#setup).",
  "",
  "![Logo](logo.png)",
  "",
  "$$E = mc^2$$",
  "",
  "```js",
  "const answer = 42",
  "```",
  "",
  "{% embed url=\"https://www.youtube.com/watch?v=dQw4w9WgXcQ\" %}",
  "",
  "<script>alert(1)</script>",
  ""
].join("\n")

/** A space whose main content has "Home" (blocks, links, an image) and "Guide". */
const seeded = Effect.fnUntraced(function*() {
  const setup = yield* spaceWith()
  const spaceId = setup.space.id
  yield* mergeIntoMain(setup.alice.api, spaceId, [
    { operation: "insert_files", files: [{ name: "logo.png", contentType: "image/png", base64: png.toString("base64") }] },
    { operation: "insert_page", title: "Home", document: { markdown: home } },
    { operation: "insert_page", title: "Guide", document: { markdown: "## Setup\n\nRun it." } }
  ])
  const { pages } = yield* setup.alice.api.spaceContent.listPages({ params: { spaceId }, query: {} })
  return { ...setup, spaceId, homeId: pages[0]!.id, guideId: pages[1]!.id }
})

const attribute = (html: string, pattern: RegExp): string | undefined => pattern.exec(html)?.[1]?.replace(/&#x26;|&amp;/g, "&")

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`page HTML on ${backend.name}`, (it) => {
    it.effect("answers a page's body as the published site draws it, its links to the app and its image to a signed link", () =>
      Effect.gen(function*() {
        const { alice, spaceId, homeId } = yield* seeded()
        const page = yield* alice.api.spaceContent.getPageById({ params: { spaceId, pageId: homeId }, query: { format: "html" } })
        const html = page.html ?? ""
        assert.isUndefined(page.document)
        assert.isUndefined(page.markdown)
        assert.match(html, /<div class="hint hint-warning" role="note" aria-label="Warning"><p>Back up first\.<\/p><\/div>/)
        assert.include(html, `href="${publicUrl}/s/${spaceId}/guide"`)
        assert.include(html, `href="${publicUrl}/s/${spaceId}/guide#setup"`)
        assert.include(html, "class=\"katex")
        assert.include(html, "shiki")
        // Players load nothing before the click, as on the site.
        assert.include(html, "embed-play")
        assert.notInclude(html, "<iframe")
        assert.notInclude(html, "<script")
        const image = attribute(html, /<img[^>]*src="([^"]+)"/)
        assert.isDefined(image)
        assert.isTrue(image!.startsWith(`${publicUrl}/files/`), image)
        const served = yield* download(image!)
        assert.strictEqual(served.status, 200)
        assert.strictEqual(served.headers.get("content-type"), "image/png")

        // A second read (kept, not drawn again) signs its file links afresh: no placeholder leaks.
        const again = yield* alice.api.spaceContent.getPageById({ params: { spaceId, pageId: homeId }, query: { format: "html" } })
        assert.notInclude(again.html, "~quire-file")
        assert.strictEqual(again.html?.replace(/\/files\/[^"]+/g, ""), html.replace(/\/files\/[^"]+/g, ""))
        assert.strictEqual((yield* download(attribute(again.html ?? "", /<img[^>]*src="([^"]+)"/)!)).status, 200)

        // By path, the same body.
        const byPath = yield* alice.api.spaceContent.getPageByPath({ params: { spaceId, pagePath: "home" }, query: { format: "html" } })
        assert.strictEqual(byPath.html?.replace(/\/files\/[^"]+/g, ""), html.replace(/\/files\/[^"]+/g, ""))
      }))

    it.effect("draws a revision's page and a change request's page as they are there", () =>
      Effect.gen(function*() {
        const { alice, spaceId, guideId } = yield* seeded()
        const before = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Edit" } })
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId, changeRequestId: cr.id },
          payload: { changes: [{ operation: "update_page", page: guideId, document: { markdown: "## Setup\n\nRun it **twice**." } }] }
        })
        const inChange = yield* alice.api.changeRequestContent.getPageInChangeRequestById({
          params: { spaceId, changeRequestId: cr.id, pageId: guideId },
          query: { format: "html" }
        })
        assert.include(inChange.html, "<strong>twice</strong>")
        assert.include(inChange.html, "<h2 id=\"setup\"")
        const inChangeByPath = yield* alice.api.changeRequestContent.getPageInChangeRequestByPath({
          params: { spaceId, changeRequestId: cr.id, pagePath: "guide" },
          query: { format: "html" }
        })
        assert.strictEqual(inChangeByPath.html, inChange.html)

        const revision = { spaceId, revisionId: before.id }
        const old = yield* alice.api.revisions.getPageInRevisionById({ params: { ...revision, pageId: guideId }, query: { format: "html" } })
        assert.include(old.html, "<p>Run it.</p>")
        const oldByPath = yield* alice.api.revisions.getPageInRevisionByPath({ params: { ...revision, pagePath: "guide" }, query: { format: "html" } })
        assert.strictEqual(oldByPath.html, old.html)
      }))

    it.effect("keeps role checks and organization isolation, and answers 400 naming format for a bad value", () =>
      Effect.gen(function*() {
        const { alice, spaceId, homeId } = yield* seeded()
        const stranger = yield* newUser("Mallory")
        const path = `/v1/spaces/${spaceId}/content/page/${homeId}?format=html`
        const refused = yield* stranger.api.spaceContent.getPageById({ params: { spaceId, pageId: homeId }, query: { format: "html" } }).pipe(Effect.flip)
        assert.include([403, 404], errorCode(refused))
        assert.strictEqual((yield* raw("GET", path)).status, 401)

        const bad = yield* raw("GET", `/v1/spaces/${spaceId}/content/page/${homeId}?format=pdf`, { token: alice.token })
        assert.strictEqual(bad.status, 400)
        assert.match(errorMessage(bad.body), /format/)
        const badPath = yield* raw("GET", `/v1/spaces/${spaceId}/content/path/home?format=HTML`, { token: alice.token })
        assert.strictEqual(badPath.status, 400)
        assert.match(errorMessage(badPath.body), /format/)
      }))

    it.effect("serves the body stylesheet at /app/render.css, revalidated by its hash, and KaTeX's fonts it names", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const get = (path: string, headers: Record<string, string> = {}) => Effect.promise(() => fetch(`${base}${path}`, { headers }))
        const css = yield* get("/app/render.css")
        assert.strictEqual(css.status, 200)
        assert.strictEqual(css.headers.get("content-type"), "text/css; charset=utf-8")
        const body = yield* Effect.promise(() => css.text())
        // The sources' sheets are formatted (`.markdown pre {`), the build's minified.
        const rules = body.replace(/\s*\{\s*/g, "{")
        for (const rule of [".markdown .hint{", ".markdown pre{", ".katex", ":root[data-theme=\"dark\"]", ".markdown .embed-play{"]) assert.include(rules, rule)
        const etag = css.headers.get("etag")!
        assert.match(etag, /^"[\w-]{16}"$/)
        const again = yield* get("/app/render.css", { "if-none-match": etag })
        assert.strictEqual(again.status, 304)

        const hashed = yield* get(`/app/render-${etag.slice(1, -1)}.css`)
        assert.strictEqual(hashed.status, 200)
        assert.include(hashed.headers.get("cache-control"), "immutable")
        assert.strictEqual(yield* Effect.promise(() => hashed.text()), body)

        const font = /url\((\/app\/render\/katex\/fonts\/KaTeX_Main-Regular\.woff2)\)/.exec(body)?.[1]
        assert.isDefined(font)
        const served = yield* get(font!)
        assert.strictEqual(served.status, 200)
        assert.strictEqual(served.headers.get("content-type"), "font/woff2")
        assert.strictEqual((yield* get("/app/render/blocks.js")).status, 404)
      }))
  })
}
