/**
 * GitBook page frontmatter written through the API: kept on the page, answered in its markdown
 * and shown by the published site; bad values refused naming the key; on every backend.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, errorCode, errorMessage, raw, spaceWith } from "./Harness.ts"
import { get, write } from "./SiteFixtures.ts"

const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64")

const markdown = `---
icon: rocket
cover: .gitbook/assets/hero.png
coverY: -20
coverHeight: 320
layout:
  width: wide
  outline:
    visible: false
tags:
  - launch
---

# Launch

Lift off.
`

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`page frontmatter through the API on ${backend.name}`, (it) => {
    it.effect("a page written with icon, cover and layout frontmatter reads back with it, and the published page shows the icon and cover", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const api = alice.api
        yield* write(api, space.id, [
          { operation: "insert_files", files: [{ name: "hero.png", contentType: "image/png", base64: png.toString("base64") }] },
          { operation: "insert_page", slug: "launch", document: { markdown } }
        ])
        const revision = yield* api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })
        const page = revision.pages[0]!
        const hero = revision.files.find((f) => f.name === "hero.png")!
        assert.deepStrictEqual(
          [page.title, page.icon, page.cover?.ref, page.cover?.yPos, page.cover?.height, page.layout?.width, page.layout?.outline, page.layout?.title],
          ["Launch", "rocket", { kind: "file", file: hero.id }, -20, 320, "wide", false, true]
        )
        const read = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId: page.id }, query: { format: "markdown" } })
        assert.strictEqual(
          read.markdown,
          "---\nicon: rocket\ncover: .gitbook/assets/hero.png\ncoverY: -20\ncoverHeight: 320\nlayout:\n  width: wide\n  outline:\n    visible: false\ntags:\n  - launch\n---\n\nLift off.\n"
        )

        // Written back as read, nothing changes; the icon field of update_page replaces it.
        yield* write(api, space.id, [{ operation: "update_page", page: page.id, document: { markdown: read.markdown! } }])
        const again = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId: page.id }, query: { format: "markdown" } })
        assert.strictEqual(again.markdown, read.markdown)
        yield* write(api, space.id, [{ operation: "update_page", page: page.id, icon: "gear" }])
        const regeared = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId: page.id }, query: {} })
        assert.strictEqual(regeared.icon, "gear")
        yield* write(api, space.id, [{ operation: "update_page", page: page.id, icon: "rocket" }])

        const site = yield* api.sites.createSite({ params: { organizationId }, payload: { title: "Handbook", visibility: "public" } })
        const siteParams = { organizationId, siteId: site.id }
        yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: space.id } })
        yield* api.sites.publishSite({ params: siteParams })
        // The first page is the site's home: its own path redirects there.
        let html = yield* get(`/~sites/${site.id}/launch`)
        for (let hops = 0; hops < 3 && html.status >= 300 && html.status < 400; hops++) {
          html = yield* get(new URL(html.headers.get("location")!, "http://x").pathname)
        }
        assert.strictEqual(html.status, 200)
        assert.match(html.text, /<figure class="page-cover[^"]*" style="--cover-height:320px">/)
        assert.include(html.text, "page-icon")
        assert.include(html.text, "Lift off.")
        assert.notInclude(html.text, "coverY")
      }))

    it.effect("frontmatter sent with an explicit title, or against an older revision that is merged, still sets the page's fields", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const api = alice.api
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Merging" } })
        const params = { spaceId: space.id, changeRequestId: cr.id }
        const first = yield* api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "insert_page", title: "Guide", document: { markdown: "---\nicon: book\n---\nLine one.\n\nLine two.\n" } }] }
        })
        const { pages } = yield* api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
        const page = pages[0]!.id
        const read = () => api.changeRequestContent.getPageInChangeRequestById({ params: { ...params, pageId: page }, query: { format: "markdown" } })
        assert.deepStrictEqual([(yield* read()).icon, (yield* read()).markdown], ["book", "---\nicon: book\n---\n\nLine one.\n\nLine two.\n"])
        yield* api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "update_page", page, document: { markdown: "Line ONE.\n\nLine two.\n" } }] }
        })
        yield* api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { baseRevision: first.revision, changes: [{ operation: "update_page", page, document: { markdown: "---\nicon: gear\nowner: docs\n---\n\nLine one.\n\nLine two, edited.\n" } }] }
        })
        const merged = yield* read()
        assert.deepStrictEqual([merged.icon, merged.markdown], ["gear", "---\nicon: gear\nowner: docs\n---\n\nLine ONE.\n\nLine two, edited.\n"])
      }))

    it.effect("frontmatter with a value GitBook does not have is refused with a 400 naming the key", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Bad" } })
        const params = { spaceId: space.id, changeRequestId: cr.id }
        const refused = (md: string) =>
          Effect.flip(alice.api.changeRequestContent.updateChangeRequestContent({
            params,
            payload: { changes: [{ operation: "insert_page", title: "P", document: { markdown: md } }] }
          }))
        const width = yield* refused("---\nlayout:\n  width: huge\n---\nBody")
        assert.strictEqual(errorCode(width), 400)
        assert.include(errorMessage(width), "layout.width")
        const coverY = yield* refused("---\ncover: https://example.com/c.png\ncoverY: high\n---\nBody")
        assert.strictEqual(errorCode(coverY), 400)
        assert.include(errorMessage(coverY), "coverY")
        const icon = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          token: alice.token,
          body: JSON.stringify({ changes: [{ operation: "insert_page", title: "P", icon: "x".repeat(51), document: { markdown: "Body" } }] })
        })
        assert.strictEqual(icon.status, 400)
        assert.include(JSON.stringify(icon.body), "icon")
      }))
  })
}
