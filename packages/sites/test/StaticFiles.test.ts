/** How an exported site's files are named and linked (export/StaticFiles.ts): relative links that work from file://, a subdirectory or any host. */
import { assert, describe, it } from "@effect/vitest"
import { fileOf, pageFileOfMarkdown, relativeUrl, siteBase, staticHtml } from "../src/export/StaticFiles.ts"

const root = "https://docs.example.com/~sites/s1/"
const base = siteBase(root)

describe("exported files", () => {
  it("a page is a folder's index.html; machine files, markdown, assets and files keep their names; server routes are no file", () => {
    assert.strictEqual(fileOf(""), "index.html")
    assert.strictEqual(fileOf("guides/install"), "guides/install/index.html")
    assert.strictEqual(fileOf("guides/install.md"), "guides/install.md")
    assert.strictEqual(fileOf("sitemap.xml"), "sitemap.xml")
    assert.strictEqual(fileOf("~assets/katex/fonts/KaTeX_Main-Regular.woff2"), "~assets/katex/fonts/KaTeX_Main-Regular.woff2")
    assert.strictEqual(fileOf("~files/sp1/f1"), "~files/sp1/f1")
    assert.strictEqual(fileOf("caf%C3%A9"), "café/index.html")
    for (const path of ["~search", "~ask", "a/%2e%2e/b", "%E0%A4%A"]) assert.isUndefined(fileOf(path), path)
    assert.strictEqual(pageFileOfMarkdown("index.md"), "index.html")
    assert.strictEqual(pageFileOfMarkdown("api/index.md"), "api/index.html")
    assert.strictEqual(pageFileOfMarkdown("guides/install.md"), "guides/install/index.html")
  })

  it("links are relative to the file that holds them", () => {
    assert.strictEqual(relativeUrl("index.html", "guides/install/index.html"), "guides/install/index.html")
    assert.strictEqual(relativeUrl("guides/install/index.html", "index.html"), "../../index.html")
    assert.strictEqual(relativeUrl("a/index.html", "café au lait/index.html"), "../caf%C3%A9%20au%20lait/index.html")
  })

  it("a page's links to the site become relative, the canonical stays the site's, search runs offline and Ask and insights go", () => {
    const html = `<html><head><link rel="canonical" href="${root}guides/install"><link rel="alternate" type="text/markdown" href="${root}guides/install.md"></head>` +
      `<body data-insights="${root}~insights" data-insights-views><form class="search" action="/~sites/s1/~search" method="get" data-search data-ask="/~sites/s1/~ask">` +
      `<input name="q"></form><a href="/~sites/s1/">Home</a> <a href="/~sites/s1/guides/docker?x=1#run">Docker</a> <a href="#top">Top</a> ` +
      `<a href="https://other.example.com/x">Out</a> <img src="/~sites/s1/~files/sp1/f1" srcset="/~sites/s1/~files/sp1/f1 1x, /~sites/s1/~files/sp1/f2 2x">` +
      `<div style="background:url('/~sites/s1/~files/sp1/f3')"></div><style>.x{background:url(/~sites/s1/~files/sp1/f4)}</style></body></html>`
    const made = staticHtml(html, `${root}guides/install`, "guides/install/index.html", base)
    assert.include(made.html, `<link rel="canonical" href="${root}guides/install">`)
    assert.include(made.html, `href="../../guides/install.md"`)
    assert.include(made.html, `<a href="../../index.html">Home</a>`)
    assert.include(made.html, `<a href="../../guides/docker/index.html#run">Docker</a>`)
    assert.include(made.html, `<a href="#top">Top</a>`)
    assert.include(made.html, `<a href="https://other.example.com/x">Out</a>`)
    assert.include(made.html, `src="../../~files/sp1/f1" srcset="../../~files/sp1/f1 1x, ../../~files/sp1/f2 2x"`)
    assert.include(made.html, `url('../../~files/sp1/f3')`)
    assert.include(made.html, `url(../../~files/sp1/f4)`)
    assert.include(made.html, "data-export-search")
    assert.notInclude(made.html, "data-ask")
    assert.notInclude(made.html, "data-insights")
    assert.include(made.html, `<script src="../../~export/search.js" data-root="../../" defer></script></body>`)
    assert.sameMembers([...made.links], ["guides/install.md", "", "guides/docker", "~files/sp1/f1", "~files/sp1/f2", "~files/sp1/f3", "~files/sp1/f4"])
  })
})
