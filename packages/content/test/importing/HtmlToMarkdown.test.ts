import { assert, describe, it } from "@effect/vitest"
import { extractLinks, extractTitle, htmlToMarkdown } from "../../src/importing/HtmlToMarkdown.ts"

const page = `<!doctype html>
<html>
<head>
  <title> Install  — Acme Docs </title>
  <style>body { color: red }</style>
  <script>document.write("tracking")</script>
</head>
<body>
  <nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav>
  <h1>Install</h1>
  <p>Read the <a href="setup.html#requirements">setup guide</a>, not the <del>old one</del>.
     <img src="img/diagram.png" alt="Diagram"> <a href="javascript:alert(1)">click</a> <a href="mailto:help@acme.test">mail us</a></p>
  <h2>Commands</h2>
  <pre><code class="language-sh">acme install
acme start
</code></pre>
  <table>
    <thead><tr><th>Flag</th><th>Meaning</th></tr></thead>
    <tbody><tr><td>-v</td><td>verbose</td></tr></tbody>
  </table>
  <ol><li>First</li><li>Second</li></ol>
  <footer>© Acme <a href="/legal">Legal</a></footer>
</body>
</html>`

describe("htmlToMarkdown", () => {
  const markdown = htmlToMarkdown(page, "https://acme.test/docs/install.html")

  it("writes ATX headings, fenced code, GFM tables and strikethrough", () => {
    assert.include(markdown, "# Install\n")
    assert.include(markdown, "## Commands\n")
    assert.include(markdown, "```sh\nacme install\nacme start\n```")
    assert.include(markdown, "| Flag | Meaning |\n| --- | --- |\n| \\-v | verbose |")
    assert.include(markdown, "~~old one~~")
    assert.include(markdown, "1. First\n2. Second")
  })

  it("makes link and image URLs absolute and drops script links", () => {
    assert.include(markdown, "[setup guide](https://acme.test/docs/setup.html#requirements)")
    assert.include(markdown, "![Diagram](https://acme.test/docs/img/diagram.png)")
    assert.include(markdown, "[mail us](mailto:help@acme.test)")
    assert.notInclude(markdown, "javascript:")
  })

  it("leaves out scripts, styles, navigation and footers", () => {
    assert.notInclude(markdown, "tracking")
    assert.notInclude(markdown, "color: red")
    assert.notInclude(markdown, "Pricing")
    assert.notInclude(markdown, "Legal")
  })

  it("can point links elsewhere, e.g. at imported pages", () => {
    const rewritten = htmlToMarkdown(page, "https://acme.test/docs/install.html", {
      rewriteUrl: (url, kind) => (kind === "link" && url.startsWith("https://acme.test/docs/setup.html") ? "setup.md#requirements" : url)
    })
    assert.include(rewritten, "[setup guide](setup.md#requirements)")
  })

  it("resolves against the page's <base href> and keeps only <main> when there is one", () => {
    const markdown = htmlToMarkdown(
      `<html><head><base href="https://cdn.acme.test/v2/"></head><body><header>Site header</header><main><p><a href="a.html">A</a></p></main></body></html>`,
      "https://acme.test/"
    )
    assert.strictEqual(markdown, "[A](https://cdn.acme.test/v2/a.html)")
  })
})

describe("extractTitle", () => {
  it("reads <title>, else the first <h1>", () => {
    assert.strictEqual(extractTitle(page), "Install — Acme Docs")
    assert.strictEqual(extractTitle("<body><h1>Only <em>a</em> heading</h1></body>"), "Only a heading")
    assert.isUndefined(extractTitle("<p>nothing</p>"))
  })
})

describe("extractLinks", () => {
  it("lists absolute http(s) links once each, without fragments or links within the page", () => {
    const links = extractLinks(
      `<a href="#top">top</a><a href="install.html#x">self</a><a href="setup.html#a">a</a><a href="setup.html#b">b</a>
       <a href="../api/">api</a><a href="https://other.test/x">other</a><a href="mailto:x@y.z">mail</a>`,
      "https://acme.test/docs/install.html"
    )
    assert.deepStrictEqual(links, ["https://acme.test/docs/setup.html", "https://acme.test/api/", "https://other.test/x"])
  })
})
