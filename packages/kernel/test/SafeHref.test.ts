/** The one link filter of the published site and the app: what a browser would run never passes. */
import { assert, describe, it } from "@effect/vitest"
import { isSafeHref, safeHref } from "../src/SafeHref.ts"

describe("safeHref", () => {
  it("keeps relative links and http(s), mailto and tel", () => {
    for (const url of ["guides/setup.md", "../x", "/pages/abc", "#anchor", "?q=1", "https://example.com/a:b", "HTTP://EXAMPLE.COM", "mailto:a@example.com", "tel:+1555", "a/b:c"]) {
      assert.strictEqual(safeHref(url), url, url)
    }
  })

  it("turns every other scheme into #, however a browser would still read it", () => {
    for (const url of [
      "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "\tjava\nscript:alert(1)", "java\u0000script:alert(1)",
      "\u0001javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "file:///etc/passwd", "blob:https://x/1"
    ]) {
      assert.strictEqual(safeHref(url), "#", JSON.stringify(url))
      assert.isFalse(isSafeHref(url), JSON.stringify(url))
    }
  })
})
