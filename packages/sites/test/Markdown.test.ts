import { sections } from "@quire/markdown"
import { assert, describe, it } from "vitest"
import { unreportedHighlighting } from "../src/render/Highlight.ts"
import { type RenderOptions, renderPage, renderPageSync } from "../src/render/Markdown.ts"
import { pageScript } from "../src/render/Assets.ts"
import { operationOf } from "../src/render/OpenApiOperation.ts"

const pages: Record<string, string> = {
  "./guide.md": "/docs/guide",
  "guide.md": "/docs/guide",
  "reference/api.md": "/docs/reference/api",
  "/pages/p1": "/docs/p1",
  "/pages/p1#usage": "/docs/p1#usage"
}
const files: Record<string, { url: string; name?: string; contentType?: string }> = {
  "/files/f1": { url: "/assets/f1", name: "manual.pdf", contentType: "application/pdf" },
  "../.gitbook/assets/diagram.png": { url: "/assets/diagram" }
}

const highlighter = unreportedHighlighting()

const options: RenderOptions = {
  resolveLink: (url) => pages[url],
  resolveFile: (ref) => files[ref],
  resolveTitle: (url) => (url === "reference/api.md" ? "API reference" : undefined),
  highlighter
}

const render = (markdown: string, extra: Partial<RenderOptions> = {}) => renderPage(markdown, { ...options, ...extra })

const count = (html: string, needle: string | RegExp) =>
  typeof needle === "string" ? html.split(needle).length - 1 : (html.match(new RegExp(needle, "g")) ?? []).length

describe("GitBook blocks", () => {
  it("a hint is a note box in its style, with markdown inside", async () => {
    for (const style of ["info", "success", "warning", "danger"]) {
      const { html } = await render(`{% hint style="${style}" %}\nKeep **this** in mind.\n{% endhint %}`)
      assert.include(html, `<div class="hint hint-${style}" role="note"`)
      assert.include(html, "<p>Keep <strong>this</strong> in mind.</p></div>")
      assert.notInclude(html, "{%")
    }
    const { html } = await render(`{% hint style="bogus" %}\nText\n{% endhint %}`)
    assert.include(html, `class="hint hint-info"`)
  })

  it("tabs are radio buttons with labels and panels: the first is chosen, each group has its own name", async () => {
    const markdown = `{% tabs %}
{% tab title="npm" %}
Run \`npm install\`.
{% endtab %}

{% tab title="pnpm" %}
- Run \`pnpm install\`.
{% endtab %}
{% endtabs %}

{% tabs %}
{% tab title="Other" %}
Text
{% endtab %}
{% endtabs %}`
    const { html, text } = await render(markdown)
    assert.strictEqual(count(html, `<div class="tabs">`), 2)
    // A tab's id is GitBook's, its title's: a link to `page#pnpm` selects it.
    assert.include(html, `<input type="radio" name="quire-tabs-1" id="npm" class="tab-input" checked><label for="npm" class="tab-label">npm</label>`)
    assert.include(html, `<input type="radio" name="quire-tabs-1" id="pnpm" class="tab-input"><label for="pnpm" class="tab-label">pnpm</label>`)
    assert.include(html, `name="quire-tabs-2"`)
    assert.include(html, `<div class="tab-panel" role="group" aria-label="npm"><p>Run <code>npm install</code>.</p></div>`)
    assert.include(html, `<div class="tab-panel" role="group" aria-label="pnpm"><ul>`)
    assert.include(text, "pnpm\nRun pnpm install.")
  })

  it("a code block with a title, wrapping and line numbers", async () => {
    const markdown = `{% code title="index.js" overflow="wrap" lineNumbers="true" %}
\`\`\`javascript
const answer = 42
\`\`\`
{% endcode %}`
    const { html } = await render(markdown)
    assert.include(html, `<div class="code-block code-wrap line-numbers"><div class="code-title">index.js</div><pre class="shiki`)
    assert.include(html, `data-language="javascript"`)
  })

  it("an embed of an unknown provider is a link card, never a frame", async () => {
    const { html } = await render(`{% embed url="https://example.com/x" %}\nA caption\n{% endembed %}`)
    assert.include(html, `<div class="embed"><a href="https://example.com/x" class="embed-link" rel="noopener"><span class="embed-host">example.com</span>`)
    assert.include(html, `<div class="embed-caption"><p>A caption</p></div>`)
    assert.notInclude(html, "iframe")
    assert.notInclude(html, "<script")
    const hostile = await render(`{% embed url="javascript:alert(1)" %}`)
    assert.notInclude(hostile.html, "href")
    assert.include(hostile.html, `<span class="embed-url">javascript:alert(1)</span>`)
  })

  it("a content-ref is a card linking to the page, titled by the page", async () => {
    const { html } = await render(`{% content-ref url="reference/api.md" %}\n[api.md](reference/api.md)\n{% endcontent-ref %}`)
    assert.include(html, `<div class="content-ref"><a href="/docs/reference/api" class="content-ref-link"><span class="content-ref-title">API reference</span></a></div>`)
    const other = await render(`{% content-ref url="guide.md" %}[The guide](guide.md){% endcontent-ref %}`)
    assert.include(other.html, `<a href="/docs/guide" class="content-ref-link"><span class="content-ref-title">The guide</span></a>`)
    const missing = await render(`{% content-ref url="gone.md" %}\n[gone.md](gone.md)\n{% endcontent-ref %}`)
    assert.include(missing.html, `class="content-ref-link broken-link"`)
  })

  it("a file is a download link through the file resolver, with its caption", async () => {
    const { html } = await render(`{% file src="/files/f1" %}\nThe **manual**\n{% endfile %}`)
    assert.include(html, `<a href="/assets/f1" download="manual.pdf" class="file-link"><span class="file-name">manual.pdf</span><span class="file-type">application/pdf</span></a>`)
    assert.include(html, `<div class="file-caption"><p>The <strong>manual</strong></p></div>`)
    const missing = await render(`{% file src="/files/nope/report.pdf" %}`)
    assert.include(missing.html, `<span class="file-link broken-link"><span class="file-name">report.pdf</span></span>`)
  })

  it("a stepper is a numbered list of steps", async () => {
    const { html } = await render(`{% stepper %}
{% step %}
### Install
Run it.
{% endstep %}
{% step %}
### Configure
Edit it.
{% endstep %}
{% endstepper %}`)
    assert.match(html, /^<ol class="stepper"><li class="step"><h3 id="install">Install .*<\/h3><p>Run it.<\/p><\/li><li class="step"><h3 id="configure">/)
  })

  it("details, figures and marks written as HTML keep their structure, with markdown inside details", async () => {
    const { html } = await render(`<details>

<summary>Show more</summary>

Hidden **text**.

</details>

<figure><img src="../.gitbook/assets/diagram.png" alt="A diagram"><figcaption><p>The diagram</p></figcaption></figure>

Some <mark>marked</mark> words.`)
    assert.include(html, `<details id="show-more"><summary>Show more</summary><p>Hidden <strong>text</strong>.</p></details>`)
    assert.include(html, `<figure><img src="/assets/diagram" alt="A diagram" loading="lazy"><figcaption><p>The diagram</p></figcaption></figure>`)
    assert.include(html, `<p>Some <mark>marked</mark> words.</p>`)
  })

  it("unknown tags show what they hold, and no tag is ever shown as text", async () => {
    const { html, text } = await render(`{% tip kind="x" %}\nBody **text**\n{% endtip %}\n\n{% endhint %}\n\n{% tabs %}\nNever closed\n\n{% raw %}`)
    assert.include(html, `<p>Body <strong>text</strong></p>`)
    assert.notInclude(html, "{%")
    assert.notInclude(html, "%}")
    assert.include(text, "Never closed")
  })

  it("tags in code stay as they are written", async () => {
    const { html } = await render("```liquid\n{% hint style=\"info\" %}\n```\n\nWrite `{% endhint %}` to close.")
    assert.notInclude(html, `class="hint`)
    assert.include(html, "<code>{% endhint %}</code>")
    assert.match(html, /hint/)
  })

  it("blocks read the same with indentation, without blank lines, nested and inside lists", async () => {
    const indented = await render(`{% tabs %}
  {% tab title="A" %}
    Indented **content**
  {% endtab %}
{% endtabs %}`)
    assert.include(indented.html, `<div class="tab-panel" role="group" aria-label="A"><p>Indented <strong>content</strong></p></div>`)
    const tight = await render(`Before\n{% hint style="warning" %}\n# Big\nInside\n{% endhint %}\nAfter`)
    assert.include(tight.html, `<p>Before</p>`)
    assert.match(tight.html, /<div class="hint hint-warning"[^>]*><h1 id="big">Big .*<\/h1><p>Inside<\/p><\/div>/)
    assert.include(tight.html, `<p>After</p>`)
    const oneLine = await render(`{% hint style="success" %} All on **one** line {% endhint %}`)
    assert.include(oneLine.html, `<div class="hint hint-success" role="note" aria-label="Success"><p>All on <strong>one</strong> line</p></div>`)
    const nested = await render(`{% tabs %}\n{% tab title="T" %}\n{% hint style="danger" %}\nCareful\n{% endhint %}\n{% endtab %}\n{% endtabs %}`)
    assert.include(nested.html, `<div class="tab-panel" role="group" aria-label="T"><div class="hint hint-danger" role="note" aria-label="Danger"><p>Careful</p></div></div>`)
    const listed = await render(`1. First\n\n   {% hint style="info" %}\n   A note\n   {% endhint %}\n2. Second`)
    assert.match(listed.html, /<ol>\s*<li>\s*<p>First<\/p>\s*<div class="hint hint-info"[^>]*>\s*<p>A note<\/p>\s*<\/div>\s*<\/li>\s*<li>\s*<p>Second<\/p>\s*<\/li>\s*<\/ol>/)
  })

  it("a page as GitBook exports it: hints written as HTML in tables and lists, cards, columns, unknown blocks", async () => {
    const { html, text } = await render(`Columns and cells:

{% columns %}
{% column %}
<figure><img src="../.gitbook/assets/diagram.png" alt=""><figcaption></figcaption></figure>
{% endcolumn %}

{% column %}
Second column

{% hint style="info" %}
A hint in a column.
{% endhint %}
{% endcolumn %}
{% endcolumns %}

<table><tbody><tr><td><p>hint</p><div data-gb-custom-block data-tag="hint" data-style="warning" class="hint hint-warning"><p>In a cell.</p></div></td></tr></tbody></table>

<table data-view="cards"><thead><tr><th></th></tr></thead><tbody><tr><td><a href="guide.md">Guide</a></td></tr></tbody></table>

* Some text<br>

  <div data-gb-custom-block data-tag="hint" data-style="danger" class="hint hint-danger"><p>Indented admonition.</p></div>

{% openapi-operation spec="spec" path="/x" method="get" %}
[OpenAPI spec](https://example.com/spec.json)
{% endopenapi-operation %}`)
    assert.include(html, `<div class="columns"><div class="column"><figure><img src="/assets/diagram" alt="" loading="lazy"><figcaption></figcaption></figure></div><div class="column"><p>Second column</p>`)
    assert.include(html, `<div class="hint hint-warning" role="note" aria-label="Warning"><p>In a cell.</p></div>`)
    assert.include(html, `<table class="cards"><thead><tr><th></th></tr></thead><tbody><tr><td><a href="/docs/guide">Guide</a></td></tr></tbody></table>`)
    assert.include(html, `<div class="hint hint-danger" role="note" aria-label="Danger"><p>Indented admonition.</p></div>`)
    assert.include(html, `<div class="openapi-missing" role="note">OpenAPI operation not found: GET /x in spec "spec".</div>`)
    assert.include(html, `<a href="https://example.com/spec.json" rel="noopener">OpenAPI spec</a>`)
    assert.notInclude(html, "data-gb")
    assert.include(text, "In a cell.")
  })

  it("blocks next to HTML, in quotes and in indented code", async () => {
    const inTab = await render(`{% tabs %}\n{% tab title="A" %}\n<details>\n<summary>S</summary>\n\nIn\n\n</details>\n{% endtab %}\n{% endtabs %}`)
    assert.include(inTab.html, `<div class="tab-panel" role="group" aria-label="A"><details id="s"><summary>S</summary><p>In</p></details></div></div>`)
    const inDiv = await render(`<div>\n{% hint style="success" %}\nInside\n{% endhint %}\n</div>`)
    assert.include(inDiv.html, `<div><div class="hint hint-success" role="note" aria-label="Success"><p>Inside</p></div>`)
    const quoted = await render(`> {% hint style="warning" %}\n> Quoted\n> {% endhint %}`)
    assert.match(quoted.html, /<blockquote>\s*<div class="hint hint-warning"[^>]*><p>Quoted<\/p><\/div>\s*<\/blockquote>/)
    const code = await render(`Text\n\n    {% hint style="info" %}\n    shown as code`)
    assert.include(code.text, `{% hint style="info" %}\nshown as code`)
    assert.notInclude(code.html, "quire-tag")
    const inline = await render(`- see {% embed url="https://a.example/x" %} here`)
    assert.match(inline.html, /<li>see\s*<div class="embed">.*<\/div>\s*here<\/li>/s)
  })
})

const petsSpec = {
  openapi: "3.1.0",
  info: { title: "Pets", version: "1" },
  paths: {
    "/pets/{petId}": {
      parameters: [{ name: "petId", in: "path", schema: { type: "string", format: "uuid" }, description: "The <pet>'s id" }],
      put: {
        summary: "Replace a pet <script>alert(1)</script>",
        description: "Replaces **all** of a pet & its tags.",
        parameters: [{ name: "dryRun", in: "query", schema: { type: "boolean" } }, { name: "X-Trace", in: "header", required: true, schema: { type: "string" } }],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { title: "Pet", type: "object", properties: { name: { type: "string", example: "Rex" }, age: { type: "integer" } } } } }
        },
        responses: {
          "200": { description: "The pet", content: { "application/json": { example: { name: "Rex", id: "<b>1</b>" } } } },
          "404": { description: "No such pet" }
        }
      }
    }
  }
}

const withSpec: Partial<RenderOptions> = {
  resolveOperation: (spec, path, method) => (spec === "pets" ? operationOf(petsSpec, path, method) : undefined)
}

describe("openapi-operation", () => {
  it("renders the operation: method and path, summary, parameters, request body, responses and highlighted examples", async () => {
    await highlighter.load(["json"])
    for (const source of [
      `{% openapi-operation spec="pets" path="/pets/{petId}" method="put" %}`,
      `{% openapi-operation spec="pets" path="/pets/{petId}" method="put" %}\n{% endopenapi-operation %}`
    ]) {
      const { html, text } = await render(`Before\n\n${source}\n\nAfter`, withSpec)
      assert.notInclude(html, "{%")
      assert.include(html, `<section class="openapi-operation" aria-label="PUT /pets/{petId}">`)
      assert.include(html, `<span class="openapi-method openapi-method-put">PUT</span> <code class="openapi-path">/pets/{petId}</code>`)
      // Text from the spec is text: escaped, never markup.
      assert.include(html, `Replace a pet &#x3C;script>alert(1)&#x3C;/script>`)
      assert.notInclude(html, "<script")
      assert.include(html, "Replaces **all** of a pet &#x26; its tags.")
      assert.include(html, `<th scope="col">Name</th>`)
      assert.match(html, /<td><code>petId<\/code><\/td><td>path<\/td><td>string \(uuid\)<\/td><td>required<\/td><td>The &#x3C;pet>'s id<\/td>/)
      assert.match(html, /<td><code>dryRun<\/code><\/td><td>query<\/td><td>boolean<\/td><td>optional<\/td>/)
      assert.match(html, /<td><code>X-Trace<\/code><\/td><td>header<\/td><td>string<\/td><td>required<\/td>/)
      assert.include(html, "application/json · Pet · required")
      assert.include(html, `<div class="openapi-example" role="group" aria-label="Request example"><pre class="shiki`)
      assert.include(html, `data-language="json"`)
      assert.include(html, `<span class="openapi-status">200</span> <span>The pet</span>`)
      assert.include(html, `<span class="openapi-status">404</span> <span>No such pet</span>`)
      assert.include(text, `"name": "Rex"`)
      assert.include(text, `"age": 0`)
      assert.include(text, `"id": "<b>1</b>"`)
      assert.notInclude(html, "<b>1</b>")
      assert.include(text, "Before")
      assert.include(text, "After")
    }
  })

  it("an unknown spec or operation, or no resolver, is a note, never a crash", async () => {
    for (const [source, extra] of [
      [`{% openapi-operation spec="nope" path="/pets" method="get" %}`, withSpec],
      [`{% openapi-operation spec="pets" path="/pets/{petId}" method="delete" %}`, withSpec],
      [`{% openapi-operation spec="pets" path="/other" method="get" %}{% endopenapi-operation %}`, withSpec],
      [`{% openapi-operation spec="pets" path="/pets/{petId}" method="put" %}`, {}],
      [`{% openapi-operation %}`, withSpec],
      [`{% openapi-operation spec="<img src=x onerror=alert(1)>" path="/<script>x</script>" method="get" %}`, withSpec]
    ] as const) {
      const { html } = await render(source, extra)
      assert.include(html, `<div class="openapi-missing" role="note">OpenAPI operation not found`, source)
      assert.notInclude(html, "<img", source)
      assert.notInclude(html, "<script", source)
    }
  })

  it("reads Swagger 2.0 bodies and responses, and malformed documents as missing operations", () => {
    const swagger = {
      swagger: "2.0",
      paths: {
        "/things": {
          post: {
            parameters: [{ name: "body", in: "body", required: true, schema: { type: "array", items: { type: "string" } } }, { name: "q", in: "query", type: "integer" }],
            responses: { "201": { description: "Made", examples: { "application/json": { ok: true } } } }
          }
        }
      }
    }
    const op = operationOf(swagger, "/things", "POST")!
    assert.deepStrictEqual(op.parameters.map((p) => [p.name, p.in, p.type]), [["q", "query", "integer"]])
    assert.strictEqual(op.requestBody?.schema, "array of string")
    assert.strictEqual(op.requestBody?.example, JSON.stringify(["string"], null, 2))
    assert.strictEqual(op.responses[0]?.example, JSON.stringify({ ok: true }, null, 2))
    for (const bad of [null, 1, { paths: [] }, { paths: { "/things": { post: "x" } } }, { paths: { "/things": { post: { responses: [1], parameters: "x" } } } }]) {
      const found = operationOf(bad, "/things", "post")
      assert.isTrue(found === undefined || (found.parameters.length === 0 && found.responses.length === 0))
    }
  })
})

describe("markdown", () => {
  it("GFM tables, task lists, strikethrough and autolinks", async () => {
    const { html } = await render(`| Name | Value |\n| :--- | ---: |\n| a | 1 |\n\n- [x] done\n- [ ] todo\n\n~~old~~ www.example.com`)
    assert.include(html, `<th align="left">Name</th>`)
    assert.include(html, `<td align="right">1</td>`)
    assert.include(html, `<li class="task-list-item"><input type="checkbox" checked disabled> done</li>`)
    assert.include(html, `<li class="task-list-item"><input type="checkbox" disabled> todo</li>`)
    assert.include(html, `<del>old</del>`)
    assert.include(html, `<a href="http://www.example.com" rel="noopener">www.example.com</a>`)
  })

  it("a table, which scrolls sideways on a narrow screen, takes the keyboard's focus; a card grid does not", async () => {
    const { html } = await render(`| Name | Value |\n| --- | --- |\n| a | 1 |\n\n<table data-view="cards"><thead><tr><th></th></tr></thead><tbody><tr><td>Card</td></tr></tbody></table>\n`)
    assert.include(html, `<table tabindex="0">`)
    assert.include(html, `<table class="cards">`)
    assert.notInclude(html, `<table class="cards" tabindex`)
  })

  it("headings get unique, stable anchors (those of search sections) and make the table of contents", async () => {
    const markdown = `Intro\n\n## Setup\n\n### Options\n\n## Setup\n\n#### Deep\n\n## Setup\n\n> ## Quoted\n\n## Ünïcode & \`code\``
    const first = await render(markdown)
    const again = await render(markdown)
    assert.deepStrictEqual(first.headings, again.headings)
    assert.deepStrictEqual(first.headings, [
      { depth: 2, id: "setup", text: "Setup" },
      { depth: 3, id: "options", text: "Options" },
      { depth: 2, id: "setup-1", text: "Setup" },
      { depth: 2, id: "setup-2", text: "Setup" },
      { depth: 2, id: "quoted", text: "Quoted" },
      { depth: 2, id: "ünïcode-and-code", text: "Ünïcode & code" }
    ])
    const ids = sections(markdown).filter((section) => section.id !== "").map((section) => section.id)
    for (const id of ids) assert.include(first.html, `id="${id}"`)
    assert.include(first.html, `<h2 id="setup-1">Setup <a href="#setup-1" class="heading-anchor" aria-label="Link to this section">#</a></h2>`)
    assert.include(first.html, `<h4 id="deep">`)
  })

  it("headings get GitBook's ids, and keep the GitHub-style id they had before reachable", async () => {
    const { html, headings } = await render(`## Math & TeX\n\n### 1. Create a new application in Auth0\n\n## Plain`)
    assert.deepStrictEqual(headings.map((heading) => heading.id), ["math-and-tex", "id-1.-create-a-new-application-in-auth0", "plain"])
    assert.include(html, `<h2 id="math-and-tex"><span id="math--tex" class="legacy-anchor"></span>Math &#x26; TeX`)
    assert.include(html, `<h3 id="id-1.-create-a-new-application-in-auth0"><span id="1-create-a-new-application-in-auth0" class="legacy-anchor"></span>1. Create`)
    assert.include(html, `<h2 id="plain">Plain <a`)
  })

  it("expandables get GitBook's id from their summary, and the page script opens the one a link targets", async () => {
    const { html, assets } = await render(`## Admin\n\n<details>\n\n<summary>Guest role</summary>\n\nGuests see one space.\n\n</details>\n\n<details>\n\n<summary>Admin</summary>\n\nAll of it.\n\n</details>`)
    assert.include(html, `<details id="guest-role"><summary>Guest role</summary>`)
    // The heading has #admin already: the expandable gets the next one.
    assert.include(html, `<details id="admin-1"><summary>Admin</summary>`)
    assert.include(assets, "script")
    assert.include(pageScript, `addEventListener("hashchange"`)
  })

  it("a GitBook image with a dark variant inside a heading shows as the image", async () => {
    const { html, headings } = await render(`### Custom logo <picture><source srcset="https://example.com/dark.png" media="(prefers-color-scheme: dark)"><img src="https://example.com/light.png" alt="Logo"></picture>\n\nText`)
    assert.notInclude(html, "&#x3C;picture")
    assert.deepStrictEqual(headings, [{ depth: 3, id: "custom-logo", text: "Custom logo" }])
    assert.include(html, `<picture><source srcset="https://example.com/dark.png" media="(prefers-color-scheme: dark)"><img src="https://example.com/light.png" alt="Logo"`)
  })

  it("a GitBook heading's empty anchor gives the heading its id and is not drawn inside it", async () => {
    const { html, headings } = await render(`## Get Started <a href="#getting-started" id="getting-started"></a>\n\nBody [back](#getting-started)\n\n### *Deep* title <a href='#d' id='d'></a>`)
    assert.deepStrictEqual(headings, [{ depth: 2, id: "getting-started", text: "Get Started" }, { depth: 3, id: "d", text: "Deep title" }])
    assert.include(html, `<h2 id="getting-started">Get Started <a href="#getting-started" class="heading-anchor" aria-label="Link to this section">#</a></h2>`)
    assert.include(html, `<h3 id="d"><em>Deep</em> title <a href="#d" class="heading-anchor" aria-label="Link to this section">#</a></h3>`)
    assert.strictEqual(count(html, `href="#getting-started"`), 2)
  })

  it("code is highlighted in both themes; an unknown language is plain text in the same frame", async () => {
    const { html } = await render("```ts\nconst x: number = 1\n```\n\n```nosuchlang\n<b>not bold</b>\n```\n\n```\nplain\n```")
    assert.include(html, `<pre class="shiki shiki-themes github-light github-dark"`)
    assert.match(html, /<span style="--shiki-light:#[0-9A-Fa-f]{6};--shiki-dark:#[0-9A-Fa-f]{6}">const<\/span>/)
    assert.strictEqual(count(html, `<pre class="shiki`), 3)
    assert.include(html, "&#x3C;b>not bold&#x3C;/b>")
    assert.notInclude(html, "<b>")
  })

  it("a language loaded on first use is highlighted; the sync renderer uses what is loaded", async () => {
    await highlighter.load(["rust"])
    const { html } = renderPageSync("```rust\nfn main() {}\n```", options)
    assert.include(html, `data-language="rust"`)
    assert.match(html, /--shiki-dark:#[0-9A-Fa-f]{6}">fn<\/span>/)
  })

  it("frontmatter is not shown", async () => {
    const { html } = await render(`---\ndescription: Hello\n---\n\nBody`)
    assert.strictEqual(html, "<p>Body</p>")
  })

  it("frontmatter closed by YAML's `...` is not shown either", async () => {
    const { html } = await render(`---\ndescription: Hello\n...\n\nBody`)
    assert.strictEqual(html, "<p>Body</p>")
  })

  it("plain text has the words a reader sees, one line per block", async () => {
    const { text } = await render(`## Title\n\nSome **bold** [link](./guide.md).\n\n{% hint style="info" %}\nA hint\n{% endhint %}\n\n\`\`\`js\nlet a = 1\n\`\`\``)
    assert.strictEqual(text, "Title\nSome bold link.\nA hint\nlet a = 1")
  })

  // The sample page's render time once warm is measured by `pnpm bench --unit` (goal: median under 100 ms), not here.
})

/** A group of one tab, titled `title`. */
const tabs = (title: string) => `{% tabs %}\n{% tab title="${title}" %}\nText\n{% endtab %}\n{% endtabs %}`

describe("links and files", () => {
  it("page links resolve, external ones open safely, broken ones are marked, anchors stay", async () => {
    const { html } = await render(
      `[guide](./guide.md) [usage](/pages/p1#usage) [site](https://example.com) [gone](./gone.md) [here](#setup) [mail](mailto:a@b.c)`
    )
    assert.include(html, `<a href="/docs/guide">guide</a>`)
    assert.include(html, `<a href="/docs/p1#usage">usage</a>`)
    assert.include(html, `<a href="https://example.com" rel="noopener">site</a>`)
    assert.include(html, `<a class="broken-link" title="Broken link">gone</a>`)
    assert.include(html, `<a href="#setup">here</a>`)
    assert.include(html, `<a href="mailto:a@b.c">mail</a>`)
    const file = await render(`[the manual](/files/f1) and [a picture](../.gitbook/assets/diagram.png)`)
    assert.include(file.html, `<a href="/assets/f1">the manual</a> and <a href="/assets/diagram">a picture</a>`)
  })

  it("images come from the revision's files; an unknown one is marked broken, an external one kept", async () => {
    const { html } = await render(`![A diagram](../.gitbook/assets/diagram.png) ![Gone](missing.png) ![Web](https://example.com/a.png)`)
    assert.include(html, `<img src="/assets/diagram" alt="A diagram" loading="lazy">`)
    assert.include(html, `<img alt="Gone" loading="lazy" class="broken-image">`)
    assert.include(html, `<img src="https://example.com/a.png" alt="Web" loading="lazy">`)
    const variants = await render(`<div align="center"><figure><picture><source srcset="/files/f1" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/diagram.png" alt="Light"></picture><figcaption></figcaption></figure></div>`)
    assert.include(variants.html, `<div align="center"><figure><picture><source srcset="/assets/f1" media="(prefers-color-scheme: dark)"><img src="/assets/diagram" alt="Light" loading="lazy"></picture>`)
    const hostile = await render(`<picture><source srcset="javascript:alert(1)"><img src="https://example.com/a.png"></picture>`)
    assert.notInclude(hostile.html, "javascript")
  })

  it("an image with no source is nothing, as on GitBook; its figure keeps its caption", async () => {
    const { html } = await render([
      "Before ![]() after ![alt]()",
      "",
      "<img src=\"\" alt=\"Empty\"> <img alt=\"None\">",
      "",
      "<figure><img src=\"\" alt=\"\"><figcaption><p>Only the caption</p></figcaption></figure>"
    ].join("\n"))
    assert.notInclude(html, "<img")
    assert.include(html, "<p>Before  after </p>")
    assert.include(html, "<figure><figcaption><p>Only the caption</p></figcaption></figure>")
  })

  it("anchors GitBook gives resolve: headings with code, emoji or closing punctuation, expandables and tabs, inside them too", async () => {
    const { html, assets } = await render([
      "## The `config.yaml` file",
      "",
      "## 🚀 Deploy now!",
      "",
      "## Step 1: install.",
      "",
      "{% tabs %}",
      "{% tab title=\"macOS (Intel)\" %}",
      "### Install on `mac`",
      "{% endtab %}",
      "{% tab title=\"Step 1: install.\" %}",
      "Same words as a heading.",
      "{% endtab %}",
      "{% endtabs %}",
      "",
      "<details>",
      "",
      "<summary>How do I reset?</summary>",
      "",
      "### Inside it",
      "",
      "</details>"
    ].join("\n"))
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1])
    assert.includeMembers(ids, [
      "the-config.yaml-file", "deploy-now", "step-1-install.", "macos-intel", "install-on-mac", "step-1-install.-1", "how-do-i-reset", "inside-it"
    ])
    assert.strictEqual(new Set(ids).size, ids.length)
    assert.include(html, `<label for="macos-intel" class="tab-label">macOS (Intel)</label>`)
    // The page script selects the tab (or opens the expandable) a link's hash names.
    assert.include(assets, "script")
  })

  it("legacy and loose forms of GitBook's blocks are drawn, never shown as their tags", async () => {
    const { html } = await render([
      "{% openapi src=\"https://petstore.swagger.io/v2/swagger.json\" path=\"/pet\" method=\"post\" %}",
      "[https://petstore.swagger.io/v2/swagger.json](https://petstore.swagger.io/v2/swagger.json)",
      "{% endopenapi %}",
      "",
      "{% swagger src=\"https://example.com/a.yaml\" path=\"/pets\" method=\"get\" %}",
      "[a.yaml](https://example.com/a.yaml)",
      "{% endswagger %}",
      "",
      "{% embed url='https://example.com/a' %}",
      "",
      "{% embed url=\"https://example.com/b\" %}",
      "Its caption",
      "{% endembed %}",
      "",
      "{%hint style='warning'%}",
      "Loose hint",
      "{%endhint%}",
      "",
      "{% hint style=\"working\" %}single line{% endhint %}"
    ].join("\n"))
    assert.notInclude(html, "{%")
    assert.include(html, `<span class="openapi-method openapi-method-post">POST</span> <code class="openapi-path">/pet</code>`)
    assert.include(html, `<span class="openapi-method openapi-method-get">GET</span> <code class="openapi-path">/pets</code>`)
    assert.include(html, `<a href="https://example.com/a" class="embed-link" rel="noopener">`)
    assert.include(html, `<div class="embed-caption"><p>Its caption</p></div>`)
    assert.include(html, `<div class="hint hint-warning" role="note" aria-label="Warning"><p>Loose hint</p></div>`)
    assert.include(html, `<div class="hint hint-info" role="note" aria-label="Info"><p>single line</p></div>`)
  })

  it("a page rendered while another renders (from one of its resolvers) keeps its own resolvers and tab groups", async () => {
    const inner: Array<string> = []
    const { html } = await render(`${tabs("First")}\n\n{% content-ref url="guide.md" %}\n[Guide](guide.md)\n{% endcontent-ref %}\n\n${tabs("Second")}\n\n[guide](./guide.md)`, {
      resolveTitle: () => {
        inner.push(renderPageSync(`${tabs("Inner")}\n\n[guide](./guide.md)`, { resolveLink: () => "/elsewhere/guide", resolveFile: () => undefined }).html)
        return "The guide"
      }
    })
    assert.include(inner[0], `name="quire-tabs-1"`)
    assert.include(inner[0], `<a href="/elsewhere/guide">guide</a>`)
    assert.include(html, `<span class="content-ref-title">The guide</span>`)
    assert.include(html, `<input type="radio" name="quire-tabs-2" id="second" class="tab-input" checked><label for="second" class="tab-label">Second</label>`)
    assert.include(html, `<a href="/docs/guide">guide</a>`)
    assert.notInclude(html, "/elsewhere/")
  })
})

describe("hostile markdown", () => {
  it("scripts, handlers, frames, styles and javascript: URLs are removed", async () => {
    const { html } = await render(`<script>alert(1)</script>

<img src="https://example.com/x.png" onerror="alert(2)">

<iframe src="https://evil.example"></iframe>

<a href="javascript:alert(3)" onclick="alert(4)">click</a> [link](javascript:alert(5)) [data](data:text/html;base64,PHNjcmlwdD4=)

<div style="position:fixed;inset:0" class="tabs" id="main"><svg onload="alert(6)"><p>inner</p></svg></div>

<img src="javascript:alert(7)">

Inline <script>alert(8)</script> and <span onmouseover="alert(9)">span</span>.`)
    for (const bad of ["<script", "alert(", "onerror", "onclick", "onload", "onmouseover", "<iframe", "javascript:", "data:", "<svg", "style=\"position", "id=\"main\""]) {
      assert.notInclude(html, bad)
    }
    assert.include(html, `<img src="https://example.com/x.png" loading="lazy">`)
    assert.include(html, `<p>inner</p>`)
    assert.include(html, `<span>span</span>`)
    assert.notInclude(html, `class="tabs"`)
  })
})
