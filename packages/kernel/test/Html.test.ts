/** The one HTML escape: what a page, an attribute or the sitemap gets from user text. */
import { assert, describe, it } from "@effect/vitest"
import { escapeHtml } from "../src/Html.ts"

describe("escapeHtml", () => {
  it("escapes the five characters that matter in text and attributes", () => {
    assert.strictEqual(escapeHtml(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
  })

  it("escapes an ampersand once, so an entity already in the text shows as typed", () => {
    assert.strictEqual(escapeHtml("&amp; &#39;"), "&amp;amp; &amp;#39;")
  })

  it("leaves other text, non-ASCII included, as it is", () => {
    assert.strictEqual(escapeHtml("Café — 東京 /v1/a?b=1"), "Café — 東京 /v1/a?b=1")
  })
})
