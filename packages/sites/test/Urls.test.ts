/** Published URLs and the paths derived from titles. */
import { assert, describe, it } from "@effect/vitest"
import { publishedUrl, siteRoot } from "../src/domain/Urls.ts"
import { slugify, uniquePath } from "../src/domain/Structure.ts"

const site = { id: "site1", hostname: null, visibility: "public" as const }

describe("published URLs", () => {
  it("live under the public URL, or at the site's hostname, without the segments of defaults", () => {
    const options = { publicUrl: "https://quire.example.com/" }
    assert.strictEqual(siteRoot(site, options.publicUrl), "https://quire.example.com/~sites/site1/")
    assert.strictEqual(publishedUrl(site, options), "https://quire.example.com/~sites/site1/")
    assert.strictEqual(publishedUrl(site, options, { path: "api", default: false }), "https://quire.example.com/~sites/site1/api/")
    assert.strictEqual(publishedUrl(site, options, { path: "guides", default: true }, { path: "v2", default: false }), "https://quire.example.com/~sites/site1/v2/")
    assert.strictEqual(publishedUrl(site, options, null, { path: "v1", default: true }), "https://quire.example.com/~sites/site1/")
    assert.strictEqual(publishedUrl({ ...site, hostname: "docs.acme.com" }, options, { path: "a b", default: false }), "https://docs.acme.com/a%20b/")
  })

  it("carry a valid share secret for share-link sites only", () => {
    const options = { publicUrl: "https://q.example.com", shareSecret: "s3cr-t_" }
    assert.strictEqual(publishedUrl({ ...site, visibility: "share-link" }, options), "https://q.example.com/~sites/site1/?share=s3cr-t_")
    assert.strictEqual(publishedUrl(site, options), "https://q.example.com/~sites/site1/")
  })
})

describe("paths", () => {
  it("are slugs of titles, made unique with a number", () => {
    assert.strictEqual(slugify("Getting Started — Déjà vu!"), "getting-started-deja-vu")
    assert.strictEqual(slugify("!!!"), "untitled")
    assert.strictEqual(slugify("日本語 ドキュメント"), "日本語-ドキュメント")
    assert.strictEqual(uniquePath("guide", new Set(["guide", "guide-2"])), "guide-3")
    assert.isAtMost(uniquePath("x".repeat(100), new Set(["x".repeat(100)])).length, 100)
  })
})
