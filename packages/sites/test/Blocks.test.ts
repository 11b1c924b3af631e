/**
 * GitBook's blocks as a reader gets them, from fixtures written in GitBook's syntax (test/fixtures/blocks):
 * never a `{% tag %}` or `$$` shown as text.
 */
import { readFileSync } from "node:fs"
import { assert, describe, it } from "vitest"
import { policyOf } from "../src/render/Layout.ts"
import { themeCss } from "../src/render/Theme.ts"
import { assetSources, isAssetName, pageScript, readAsset } from "../src/render/Assets.ts"
import { playerOf, playerOrigins } from "../src/render/Embeds.ts"
import { unreportedHighlighting } from "../src/render/Highlight.ts"
import { type RenderOptions, renderPage } from "../src/render/Markdown.ts"
import { operationOf } from "../src/render/OpenApiOperation.ts"
import { sampleView } from "./SiteViewFixture.ts"

const fixture = (name: string) => readFileSync(new URL(`./fixtures/blocks/${name}.md`, import.meta.url), "utf8")

const options: RenderOptions = {
  resolveLink: () => undefined,
  resolveFile: () => undefined,
  assetUrl: (name) => `/docs/~assets/${name}`,
  highlighter: unreportedHighlighting()
}

const render = (name: string, extra: Partial<RenderOptions> = {}) => renderPage(fixture(name), { ...options, ...extra })

/** The HTML without the formulas KaTeX drew (their MathML keeps the TeX as an annotation). */
const withoutTex = (html: string) => html.replace(/<annotation encoding="application\/x-tex">[\s\S]*?<\/annotation>/g, "")

const noRawTags = (html: string) => {
  assert.notMatch(withoutTex(html).replace(/<code[^>]*>[\s\S]*?<\/code>/g, ""), /\{%|%\}|\$\$/)
}

describe("math", () => {
  it("formulas inline, alone on a line and between $$ lines are drawn by KaTeX; code keeps its dollars", async () => {
    const { assets, html } = await render("math")
    assert.strictEqual((html.match(/<span class="math math-inline"><span class="katex">/g) ?? []).length, 4)
    assert.strictEqual((html.match(/<div class="math math-display"><span class="katex-display">/g) ?? []).length, 2)
    // TeX is never read as markdown: `x_i` keeps its subscript, `a|b` stays in its table cell.
    assert.include(html, `<annotation encoding="application/x-tex">x_i</annotation>`)
    assert.include(html, `<annotation encoding="application/x-tex">a|b</annotation>`)
    assert.include(html, `<td>a divides b</td>`)
    assert.include(html, `<code>$$not math$$</code>`)
    assert.include(html, `\\frac{a}{b}`)
    assert.include(html, `<link rel="stylesheet" href="/docs/~assets/katex/katex.min.css">`)
    assert.deepStrictEqual(assets, ["katex"])
    noRawTags(html)
  })

  it("TeX that KaTeX cannot read, or that asks for links, shows as an error and runs nothing", async () => {
    const { html } = await renderPage(`$$\\frac{1}{$$ and $$\\href{javascript:alert(1)}{x}$$`, options)
    assert.include(html, `katex-error`)
    assert.notInclude(html, `href="javascript`)
  })

  it("the stylesheet and its fonts are served by the site, from KaTeX's package", () => {
    const css = readAsset("katex/katex.min.css")
    assert.strictEqual(css?.contentType, "text/css; charset=utf-8")
    assert.include(new TextDecoder().decode(css!.bytes), "url(fonts/KaTeX_Main-Regular.woff2)")
    assert.strictEqual(readAsset("katex/fonts/KaTeX_Main-Regular.woff2")?.contentType, "font/woff2")
    assert.isTrue(isAssetName("katex/fonts/KaTeX_Main-Regular.woff2"))
    assert.isFalse(isAssetName("../package.json"))
    assert.isUndefined(readAsset("katex/fonts/../../package.json"))
  })
})

describe("mermaid", () => {
  it("a diagram's code is shown until the page script, loading Mermaid from the site, draws it", async () => {
    const { assets, html } = await render("mermaid")
    assert.include(html, `<pre class="mermaid">flowchart TD\n    A[Open the insert palette] --> B[Select Mermaid]`)
    assert.include(html, `<script src="/docs/~assets/blocks.js" defer data-mermaid="/docs/~assets/mermaid.min.js"></script>`)
    assert.sameMembers([...assets], ["script", "mermaid"])
    assert.include(pageScript, `querySelectorAll("pre.mermaid")`)
    assert.strictEqual(readAsset("mermaid.min.js")?.contentType, "text/javascript; charset=utf-8")
  })

  it("a page without a diagram loads no script", async () => {
    const { assets, html } = await renderPage("# Title\n\n```js\nx\n```", options)
    assert.deepStrictEqual(assets, [])
    assert.notInclude(html, "<script")
    assert.notInclude(html, "<link")
  })
})

describe("API blocks", () => {
  it("swagger shows its operation from what is written inside; openapi its spec's operation, else a card with method and path", async () => {
    const document = {
      openapi: "3.0.0",
      info: { title: "Pets", version: "1" },
      paths: { "/pets": { get: { summary: "List pets", responses: { "200": { description: "The pets" } } } } }
    }
    const { html } = await render("api", {
      resolveOperation: (spec, path, method) => (spec === "petstore" ? operationOf(document, path, method) : undefined)
    })
    assert.include(html, `<section class="openapi-operation" aria-label="GET https://api.example.com/v1/pets/{petId}">`)
    assert.include(html, `<p class="openapi-summary">Find a pet</p>`)
    assert.include(html, `<div class="openapi-description"><p>Returns <strong>one</strong> pet.</p></div>`)
    assert.include(html, `<td><code>petId</code></td><td>path</td><td>integer</td><td>required</td><td>The pet's id</td>`)
    assert.include(html, `<td><code>fields</code></td><td>query</td><td>string</td><td>optional</td><td>Fields to return</td>`)
    assert.include(html, `<span class="openapi-status">200</span> <span>The pet</span>`)
    assert.include(html, `<span class="openapi-status">404</span> <span>Not Found</span>`)
    // The remote spec is not at hand: a card naming the operation and the spec, its link kept.
    assert.include(html, `<span class="openapi-method openapi-method-post">POST</span> <code class="openapi-path">/pets</code>`)
    assert.include(html, `Described in the OpenAPI specification https://petstore.example.com/openapi.json.`)
    // A spec file of the repository is the organization's spec of its name.
    assert.include(html, `<section class="openapi-operation" aria-label="GET /pets"><div class="openapi-header"><span class="openapi-method openapi-method-get">GET</span>`)
    assert.include(html, `<p class="openapi-summary">List pets</p>`)
    assert.include(html, `<ul><li><code>Pet</code></li><li><code>Tag</code></li></ul>`)
    assert.include(html, `<span class="openapi-webhook-label">Webhook</span> <code class="openapi-path">newPet</code>`)
    noRawTags(html)
  })
})

describe("updates and prompts", () => {
  it("updates are dated entries with their tags; a prompt has its description, a copy button and its text", async () => {
    const { assets, html, headings } = await render("updates")
    assert.include(html, `<article class="update"><div class="update-meta"><time datetime="2025-12-25">December 25, 2025</time><span class="update-tags"><span class="update-tag">beta</span><span class="update-tag">api</span></span></div>`)
    assert.include(html, `<time datetime="2025-11-02">November 2, 2025</time>`)
    assert.include(html, `<p>Search now reads <strong>every</strong> language of a site.</p>`)
    assert.deepStrictEqual(headings.map((h) => h.text), ["Search in every language", "Faster pages"])
    assert.include(html, `<div class="prompt" role="group" aria-label="Prompt: Summarize a release">`)
    assert.include(html, `<span class="prompt-description">Summarize a release</span><button type="button" class="prompt-copy">Copy prompt</button>`)
    assert.include(html, `Summarize the key changes in this release note.`)
    assert.include(html, `<svg class="fa-icon"`)
    assert.deepStrictEqual(assets, ["script"])
    noRawTags(html)
  })
})

describe("conditional content", () => {
  it("shows the branch the visitor's claims choose, never both", async () => {
    const anonymous = await render("conditional")
    assert.notInclude(anonymous.html, "with</strong> attribute A")
    assert.include(anonymous.html, "<strong>without</strong> attribute A")
    assert.include(anonymous.html, "Free plan content.")
    assert.notInclude(anonymous.html, "Pro plan content.")
    const pro = await render("conditional", { claims: { plan: "pro", unsigned: { example_attribute_A: true } } })
    assert.include(pro.html, "<strong>with</strong> attribute A")
    assert.notInclude(pro.html, "<strong>without</strong> attribute A")
    assert.include(pro.html, "Pro plan content.")
    assert.notInclude(pro.html, "Free plan content.")
    // The conditions are reported, so that readers they tell apart get answers of their own.
    assert.deepStrictEqual(pro.conditions, [
      "visitor.claims.unsigned.example_attribute_A",
      "!visitor.claims.unsigned.example_attribute_A",
      `visitor.claims.plan === "pro"`
    ])
    noRawTags(anonymous.html)
    noRawTags(pro.html)
  })

  it("a condition that does not parse shows its content to nobody", async () => {
    const { html } = await renderPage(`{% if visitor.claims.( %}\nSecret\n{% endif %}`, { ...options, claims: { a: 1 } })
    assert.notInclude(html, "Secret")
  })
})

describe("integration blocks", () => {
  it("are link cards titled by their integration; the old Mermaid integration is a diagram", async () => {
    const { html } = await render("integrations")
    assert.include(html, `<div class="embed integration"><a href="https://github.com/acme/widgets/blob/main/src/index.ts" class="embed-link" rel="noopener"><span class="integration-title">GitHub code block</span><span class="embed-url">https://github.com/acme/widgets/blob/main/src/index.ts</span></a></div>`)
    assert.include(html, `<span class="integration-title">Figma embed</span>`)
    assert.include(html, `<pre class="mermaid">graph TD\n  A-->B</pre>`)
    noRawTags(html)
  })
})

describe("buttons, icons and emoji", () => {
  it("buttons keep their kind, icons are Font Awesome SVG and shortcodes are emoji", async () => {
    const { html } = await render("inline")
    assert.include(html, `<a href="https://example.com/start" class="button button-primary" rel="noopener">Get started</a>`)
    assert.match(html, /<a href="https:\/\/example.com\/docs" class="button button-secondary" rel="noopener"><span class="gb-icon" aria-hidden="true"><svg class="fa-icon"[^>]*><path d="[^"]+"\/><\/svg><\/span>Read the docs<\/a>/)
    assert.match(html, /<span class="gb-icon" aria-hidden="true"><svg class="fa-icon"[^>]*><path d="[^"]+"\/><\/svg><\/span> Launch/)
    assert.notInclude(html, ":rocket:")
    assert.notInclude(html, ":check:")
    // An icon outside the free set is the emoji of its name, else nothing rather than its name.
    assert.notInclude(html, ":claude:")
    assert.include(html, `<span class="gb-icon" aria-hidden="true">✨</span> new`)
    assert.include(html, `<span class="gb-icon" aria-hidden="true"></span> party`)
    assert.include(html, "This is 🔥 and ✅ but not :not-an-emoji: nor <code>:fire:</code> in code.")
  })
})

describe("embeds", () => {
  it("known providers are players loaded on click, with nothing requested before; unknown URLs stay link cards", async () => {
    const { assets, html } = await render("embeds")
    for (const [provider, src] of [
      ["YouTube", "https://www.youtube-nocookie.com/embed/D_uLM5i0Z4c?autoplay=1"],
      ["Vimeo", "https://player.vimeo.com/video/76979871?autoplay=1&#x26;dnt=1"],
      ["Loom", "https://www.loom.com/embed/0123456789abcdef0123456789abcdef?autoplay=1"],
      ["CodePen", "https://codepen.io/davidkpiano/embed/wMqXea?default-tab=result"],
      ["Figma", "https://www.figma.com/embed?embed_host=quire&#x26;url=https%3A%2F%2Fwww.figma.com%2Ffile%2Fabc123%2FDesign-system"],
      ["Spotify", "https://open.spotify.com/embed/track/4FmiciU3ZmfgABlbCSXcWw"]
    ]) {
      assert.include(html, `<button type="button" class="embed-play" data-embed-src="${src}"`, provider)
      assert.include(html, `<span class="embed-provider">${provider}</span>`, provider)
    }
    // Nothing of the provider's is loaded with the page: no frame, no image, no script of theirs.
    assert.notInclude(html, "<iframe")
    assert.notInclude(html, "<img")
    assert.notMatch(html, / src="https?:/)
    assert.include(html, `<div class="embed-caption"><p>A Vimeo video</p></div>`)
    assert.include(html, `<div class="embed"><a href="https://example.com/article" class="embed-link" rel="noopener">`)
    assert.deepStrictEqual(assets, ["script"])
    noRawTags(html)
  })

  it("the page's CSP frames the players' origins only, and loads the page's assets from its own site alone", () => {
    const sources = assetSources("https://docs.example.com/", ["script", "mermaid", "katex"])
    const policy = policyOf(sampleView().styling, sources)
    assert.match(policy, /frame-src https:\/\/www\.youtube-nocookie\.com https:\/\/player\.vimeo\.com [^;]*;/)
    assert.notMatch(policy, /frame-src[^;]*https:(?:;|\s)/)
    assert.include(policy, `https://docs.example.com/~assets/blocks.js https://docs.example.com/~assets/mermaid.min.js`)
    assert.include(policy, `https://docs.example.com/~assets/katex/katex.min.css`)
    assert.notMatch(policy, /script-src[^;]*'self'/)
    // Mermaid writes <style> elements as it draws: only a page with diagrams allows inline styles.
    assert.include(policy, "style-src 'unsafe-inline' https://docs.example.com/~assets/katex/katex.min.css;")
    assert.notInclude(policyOf(sampleView().styling, assetSources("https://docs.example.com/", ["katex"])), "'unsafe-inline' https://docs")
    for (const origin of playerOrigins) assert.isTrue(pageScript.includes(JSON.stringify(origin)), origin)
    assert.isUndefined(playerOf("https://evil.example.com/watch?v=x"))
    assert.isUndefined(playerOf("javascript:alert(1)"))
    assert.isUndefined(playerOf("https://www.youtube.com/watch?v=a\"b"))
  })
})

describe("footnotes", () => {
  it("are buttons opening their note in a popover, the note's markdown inline", async () => {
    const { html } = await render("footnotes")
    assert.include(html, `<sup class="footnote"><button type="button" class="footnote-ref" popovertarget="quire-note-1" aria-label="Note 1" aria-describedby="quire-note-1">1</button></sup><span id="quire-note-1" popover="auto" role="note" class="footnote-popover"><span class="footnote-paragraph">This is the first footnote.</span></span>`)
    assert.include(html, `popovertarget="quire-note-2" aria-label="Note 2" aria-describedby="quire-note-2">2</button>`)
    assert.include(html, `<span class="footnote-paragraph">Indent paragraphs to include them in the footnote.</span>`)
    // Not a list at the bottom of the page as well.
    assert.notInclude(html, "data-footnotes")
  })

  it("GitBook's annotation over words, [words](#user-content-fn-3)[^3], shows the words annotated, not a link to nowhere", async () => {
    const { html } = await render("footnotes")
    assert.include(html, `as <span class="annotated">0x address</span><sup class="footnote"><button type="button" class="footnote-ref" popovertarget="quire-note-3"`)
    assert.include(html, `<span class="footnote-paragraph">A wallet address.</span>`)
    assert.notInclude(html, `href="#user-content-fn-3"`)
    assert.include(html, `<a href="#user-content-fn-9">lone link</a>`)
  })
})

describe("unknown blocks", () => {
  it("show their content; tags without a partner show nothing, nor does an include naming no reusable content", async () => {
    const { html } = await render("unknown")
    assert.include(html, `<p>A block this renderer does not know shows <strong>its content</strong>.</p>`)
    assert.include(html, `<p>Stray closing tag next:</p>`)
    noRawTags(html)
    assert.notInclude(html, "rc12345")
  })
})

/** The HTML without what KaTeX drew inside each formula (its stylesheet styles that). */
const withoutKatex = (html: string): string => {
  let out = ""
  let at = 0
  for (const start of html.matchAll(/<span class="katex(?:-display)?">/g)) {
    if (start.index < at) continue
    out += html.slice(at, start.index)
    const tags = /<span\b|<\/span>/g
    tags.lastIndex = start.index
    let depth = 0
    for (const tag of html.matchAll(tags)) {
      if (tag.index < start.index) continue
      depth += tag[0] === "</span>" ? -1 : 1
      if (depth === 0) {
        at = tag.index + tag[0].length
        break
      }
    }
  }
  return out + html.slice(at)
}

describe("the site's stylesheet", () => {
  it("styles every class the blocks emit (KaTeX's own come with its stylesheet)", async () => {
    const names = ["math", "mermaid", "api", "updates", "conditional", "integrations", "inline", "embeds", "footnotes", "unknown"]
    const pages = await Promise.all(names.map((name) => render(name)))
    const classes = new Set(pages.flatMap(({ html }) => [...withoutKatex(html).matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1]!.split(/\s+/))))
    for (const name of ["shiki-themes", "github-light", "github-dark", "heading-anchor"]) classes.delete(name)
    const css = themeCss({})
    const styled = (name: string) => new RegExp(`\\.${name}(?![\\w-])`).test(css)
    assert.deepStrictEqual([...classes].filter((name) => !styled(name)), [])
  })
})
