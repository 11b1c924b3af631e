import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { LocalServer } from "@quire/testkit"
import { OutboundFetch, OutboundFetchError } from "@quire/outbound"
import { importWebsite, WebsiteImportError } from "../../src/importing/WebsiteImporter.ts"
import { classifyLinks } from "@quire/markdown"
import { htmlLinks } from "../../src/markdown/Dom.ts"

const local = OutboundFetch.layer({ allow: ["127.0.0.1"] })

const site = (elsewhere: string) => ({
  "/": {
    body: `<html><head><title>Acme Docs</title></head><body>
      <nav><a href="/">Home</a> <a href="/guide.html">Guide</a></nav>
      <h1>Welcome</h1>
      <p>Start with the <a href="guide.html#install">guide</a>, read <a href="/about/">about us</a>,
         or see <a href="${elsewhere}/other">another site</a>.</p>
      <p><a href="/missing">Old page</a> <a href="/logo.png">Logo</a></p>
    </body></html>`
  },
  "/guide.html": {
    body: `<html><head><title>Guide | Acme</title></head><body>
      <h1>Guide</h1><h2 id="install">Install</h2><p>Run <code>acme</code>. Back to the <a href="/">start</a>, or <a href="/about">about</a>.</p>
    </body></html>`
  },
  "/about/": {
    body: `<html><head><title>About Acme</title></head><body><p>We write <a href="../guide.html">guides</a>.</p></body></html>`
  },
  "/about": { status: 301, headers: { location: "/about/" } },
  "/logo.png": { type: "image/png", body: "PNG" }
})

describe("importWebsite", () => {
  it.live("turns a 3-page local site into 3 markdown pages with titles and resolved links", () =>
    Effect.gen(function*() {
      const other = yield* LocalServer.serveRoutes({ "/other": { body: "<h1>Other</h1>" } })
      const server = yield* LocalServer.serveRoutes(site(other.origin))
      const result = yield* importWebsite(`${server.origin}/`).pipe(Effect.provide(local))

      assert.deepStrictEqual(result.pages.map(({ path, title, url }) => ({ path, title, url })), [
        { path: "welcome", title: "Welcome", url: `${server.origin}/` },
        { path: "guide", title: "Guide", url: `${server.origin}/guide.html` },
        { path: "about", title: "About Acme", url: `${server.origin}/about/` }
      ])
      const [welcome, guide, about] = result.pages
      assert.include(welcome?.markdown, "[guide](guide.md#install)")
      assert.include(welcome?.markdown, "[about us](about.md)")
      assert.include(welcome?.markdown, `[another site](${other.origin}/other)`)
      assert.include(welcome?.markdown, `[Old page](${server.origin}/missing)`)
      assert.notInclude(welcome?.markdown, "# Welcome")
      assert.include(guide?.markdown, "## Install")
      assert.include(guide?.markdown, "[about](about.md)")
      assert.include(about?.markdown, "[guides](guide.md)")

      // The pages link to each other once they are a revision.
      const pagesByPath = new Map(result.pages.map((page, index) => [page.path, `page-${index}`]))
      for (const page of result.pages) {
        const links = classifyLinks(page.markdown, {
          pagePath: page.path,
          pagesByPath,
          fileIds: new Set(),
          appBaseUrl: "https://quire.test"
        }, htmlLinks).filter((link) => link.target.kind === "page")
        assert.isTrue(links.length > 0)
        assert.isTrue(links.every((link) => link.status === "ok"), page.path)
      }

      // Found on the site: the 3 pages, a redirect to one of them, the missing page and the image.
      assert.strictEqual(result.importedResources, 3)
      assert.strictEqual(result.totalResources, 6)
      assert.strictEqual(other.connections(), 0)
    }))

  it.live("stops at maxPages, counting what it found", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serveRoutes(site("https://example.invalid"))
      const result = yield* importWebsite(`${server.origin}/`, { maxPages: 2 }).pipe(Effect.provide(local))
      assert.deepStrictEqual(result.pages.map((page) => page.path), ["welcome", "guide"])
      assert.strictEqual(result.importedResources, 2)
      assert.strictEqual(result.totalResources, 6)
    }))

  it.live("fails when the start page cannot be imported", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serveRoutes(site("https://example.invalid"))
      const missing = yield* Effect.flip(importWebsite(`${server.origin}/nothing-here`).pipe(Effect.provide(local)))
      assert.instanceOf(missing, OutboundFetchError)
      const image = yield* Effect.flip(importWebsite(`${server.origin}/logo.png`).pipe(Effect.provide(local)))
      assert.instanceOf(image, WebsiteImportError)
      const blocked = yield* Effect.flip(importWebsite(`${server.origin}/`).pipe(Effect.provide(OutboundFetch.layer({ allow: [] }))))
      assert.strictEqual(blocked instanceof OutboundFetchError && blocked.reason, "blocked")
    }))

  it.live("keeps within the total size budget", () =>
    Effect.gen(function*() {
      const routes = site("https://example.invalid")
      const server = yield* LocalServer.serveRoutes(routes)
      // Room for the start page and 50 bytes more: no other page fits.
      const maxTotalBytes = Buffer.byteLength(routes["/"].body) + 50
      const result = yield* importWebsite(`${server.origin}/`, { maxTotalBytes }).pipe(Effect.provide(local))
      assert.deepStrictEqual(result.pages.map((page) => page.path), ["welcome"])
      assert.strictEqual(result.totalResources, 5)
    }))
})
