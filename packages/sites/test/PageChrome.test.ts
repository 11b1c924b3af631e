/**
 * What surrounds a page's content as GitBook shows it: the cover, the icon, the page's `layout`
 * (width and the parts shown), the refusal pages in the site's styling, the page's raw markdown,
 * and where a visitor-auth site sends a reader without a token.
 */
import { type DomDocument, type DomElement, parseHtml } from "@quire/content"
import { assert, describe, it } from "@effect/vitest"
import { signInRedirect } from "../src/Audience.ts"
import { unknownSitePage } from "../src/answer/Chrome.ts"
import { pageMarkdown } from "../src/answer/PageAnswer.ts"
import { iconSvg } from "../src/render/Icons.ts"
import { renderPage, renderRefusal } from "../src/render/Layout.ts"
import { defaultPageLayout, type RefusalView } from "../src/render/View.ts"
import { sampleView } from "./SiteViewFixture.ts"

type Queryable = Pick<DomDocument, "querySelector" | "querySelectorAll">
const one = (node: Queryable, selector: string): DomElement | null => node.querySelector(selector) ?? null
const all = (node: Queryable, selector: string): Array<DomElement> =>
  Array.from(node.querySelectorAll(selector) as unknown as ArrayLike<DomElement>)

const withPage = (page: Partial<ReturnType<typeof sampleView>["page"]>) =>
  parseHtml(renderPage(sampleView({ page: { ...sampleView().page, ...page } })))

describe("page frontmatter", () => {
  it("shows the cover above the title at its height and offset, the icon beside the title and in the sidebar, wide", () => {
    const doc = parseHtml(renderPage(sampleView({
      tree: [
        { type: "document", id: "q", title: "Quickstart", url: "/q", icon: "rocket-launch", children: [] },
        { type: "document", id: "g", title: "Glossary", url: "/g", icon: "📖", children: [] }
      ],
      page: {
        ...sampleView().page,
        icon: "rocket-launch",
        cover: { url: "/~files/s/hero.png", darkUrl: "/~files/s/hero-dark.png", yPos: -42, height: 461 },
        layout: { ...defaultPageLayout, width: "wide" }
      }
    })))
    const figure = one(doc, "main figure.page-cover")
    assert.strictEqual(figure?.getAttribute("style"), "--cover-height:461px")
    const images = all(doc, "main figure.page-cover img")
    assert.deepStrictEqual(images.map((i) => i.getAttribute("src")), ["/~files/s/hero.png", "/~files/s/hero-dark.png"])
    // Moved up 42 px, and as much taller, so that no gap shows below it.
    assert.strictEqual(images[0]?.getAttribute("style"), "height:calc(100% + 42px);margin-top:-42px")
    // The cover comes before the title.
    const main = one(doc, "main")!.innerHTML
    assert.isBelow(main.indexOf("page-cover"), main.indexOf("<h1"))
    // `rocket-launch` is Font Awesome Pro: the free `rocket` is drawn, inline.
    const rocket = /<path d="([^"]+)"/.exec(iconSvg("rocket")!)?.[1]
    assert.isString(rocket)
    assert.strictEqual(one(doc, "main h1 .page-icon svg path")?.getAttribute("d"), rocket)
    assert.strictEqual((one(doc, "main h1")?.textContent ?? "").trim(), "Install with Docker")
    assert.isNotNull(one(doc, `.tree a[href="/q"] .page-icon svg`))
    assert.strictEqual(one(doc, `.tree a[href="/g"] .emoji`)?.textContent, "📖")
    assert.include(one(doc, ".layout")?.getAttribute("class") ?? "", "page-wide")
  })

  it("draws a section's Font Awesome icon in its tab, and none for a name no free icon has", () => {
    const doc = parseHtml(renderPage(sampleView({
      tabs: [
        { type: "section", title: "Guides", url: "/", icon: "book-open", current: true },
        { type: "section", title: "API", url: "/api", icon: "zzzz-none", current: false }
      ]
    })))
    assert.isNotNull(one(doc, `.site-tabs a[href="/"] .tab-icon svg path`))
    assert.isNull(one(doc, `.site-tabs a[href="/api"] .tab-icon`))
  })

  it("draws the cover 240 px high by default, and none when the layout hides it", () => {
    const shown = withPage({ cover: { url: "https://example.com/c.png" } })
    assert.strictEqual(one(shown, "figure.page-cover")?.getAttribute("style"), "--cover-height:240px")
    assert.isNull(one(shown, "figure.page-cover img")?.getAttribute("style") ?? null)
    const hidden = withPage({ cover: { url: "https://example.com/c.png" }, layout: { ...defaultPageLayout, cover: false } })
    assert.isNull(one(hidden, "figure.page-cover"))
  })

  it("hides the title, description, page tree, outline, pagination and metadata a page's layout hides", () => {
    const shown = withPage({})
    assert.isNotNull(one(shown, "aside.sidebar .tree"))
    assert.isNotNull(one(shown, "aside.toc nav"))
    assert.isNotNull(one(shown, "nav.pagination"))
    assert.isNotNull(one(shown, "p.page-description"))
    assert.isNotNull(one(shown, "footer.page-meta"))
    const hidden = withPage({
      layout: { width: "default", cover: true, title: false, description: false, tableOfContents: false, outline: false, pagination: false, metadata: false }
    })
    // The title stays for screen readers and the document outline, out of sight.
    assert.strictEqual(one(hidden, "main h1")?.getAttribute("class"), "visually-hidden")
    assert.isNull(one(hidden, "p.page-description"))
    assert.isNull(one(hidden, "aside.sidebar"))
    assert.isNull(one(hidden, ".nav-button"))
    assert.isNull(one(hidden, "aside.toc"))
    assert.isNull(one(hidden, "nav.pagination"))
    assert.isNull(one(hidden, "footer.page-meta"))
    const layout = one(hidden, ".layout")?.getAttribute("class") ?? ""
    assert.include(layout, "no-sidebar")
    assert.include(layout, "no-outline")
    // The description still describes the page to search engines.
    assert.strictEqual(one(hidden, `meta[name="description"]`)?.getAttribute("content"), "Run Quire in a container in five minutes.")
  })

  it("draws Font Awesome icons by name, with or without fa-, and nothing for an unknown or unsafe name", () => {
    assert.match(iconSvg("book-open") ?? "", /^<svg class="fa-icon" viewBox="[0-9 ]+" fill="currentColor" aria-hidden="true" focusable="false"><path d="[^"]+"\/><\/svg>$/)
    assert.strictEqual(iconSvg("fa-github"), iconSvg("github"))
    assert.isUndefined(iconSvg("zzzz-not-an-icon"))
    assert.isUndefined(iconSvg("../../package"))
    const unknown = withPage({ icon: "zzzz-not-an-icon" })
    assert.isNull(one(unknown, "main h1 .page-icon"))
  })
})

const refusal = (overrides: Partial<RefusalView> = {}): RefusalView => ({
  site: { title: "Acme Developer Documentation", url: "" },
  styling: { primaryColor: { light: "#e11d48", dark: "#fb7185" }, font: "Inter" },
  themes: { default: "system", toggeable: true },
  code: "401",
  title: "Sign-in needed",
  message: "This site is for signed-in readers.",
  ...overrides
})

describe("refusal pages", () => {
  it("use the site's title, colors and fonts, and show nothing of its pages", () => {
    const html = renderRefusal(refusal())
    const doc = parseHtml(html)
    assert.strictEqual(doc.title, "Sign-in needed | Acme Developer Documentation")
    assert.strictEqual(one(doc, `meta[name="robots"]`)?.getAttribute("content"), "noindex")
    const css = one(doc, "style")?.textContent ?? ""
    assert.include(css, "--primary: #e11d48")
    assert.include(css, `--font: "Inter"`)
    // Compared without whitespace: the sources' sheets are formatted, the build's minified.
    assert.include(css.replace(/\s+/g, ""), "body{margin:0;background:var(--bg);color:var(--text);font-family:var(--font)")
    assert.strictEqual((one(doc, ".site-header .brand-title")?.textContent ?? "").trim(), "Acme Developer Documentation")
    assert.strictEqual(one(doc, "main h1")?.textContent, "Sign-in needed")
    assert.strictEqual(one(doc, "main .page-description")?.textContent, "This site is for signed-in readers.")
    assert.isNull(one(doc, ".tree"))
    assert.isNull(one(doc, "form.search"))
  })

  it("escapes what it shows, follows the site's theme mode and offers only safe links", () => {
    const doc = parseHtml(renderRefusal(refusal({
      site: { title: `<script>x</script>`, url: "" },
      themes: { default: "dark", toggeable: false },
      action: { label: "Sign in", url: "javascript:alert(1)" }
    })))
    assert.strictEqual(one(doc, "html")?.getAttribute("data-theme"), "dark")
    assert.strictEqual(all(doc, "script").length, 1)
    assert.strictEqual(one(doc, "main a.button")?.getAttribute("href"), "#")
  })
})

describe("the page of an address no site answers", () => {
  it("is styled like a site's pages and names no site", () => {
    const { html, policy } = unknownSitePage()
    const doc = parseHtml(html)
    assert.strictEqual(doc.title, "Site not found")
    assert.isNull(one(doc, ".site-header"))
    assert.strictEqual(one(doc, "main h1")?.textContent, "Site not found")
    assert.include((one(doc, "style")?.textContent ?? "").replace(/\s+/g, ""), "font-family:var(--font)")
    assert.match(policy, /style-src 'sha256-/)
  })
})

describe("a page's raw markdown", () => {
  it("starts with its # Title, then its description, then its body", () => {
    assert.strictEqual(
      pageMarkdown({ title: "Quickstart", description: "Up in five minutes." }, "Install it:\n\n```sh\nnpm i\n```\n"),
      "# Quickstart\n\nUp in five minutes.\n\nInstall it:\n\n```sh\nnpm i\n```\n"
    )
    assert.strictEqual(pageMarkdown({ title: "Empty" }, ""), "# Empty\n\n")
  })

  it("keeps a body's own title heading once, and leaves frontmatter out", () => {
    assert.strictEqual(pageMarkdown({ title: "Quickstart" }, "# Quickstart\n\nText.\n"), "# Quickstart\n\nText.\n")
    assert.strictEqual(pageMarkdown({ title: "Quickstart" }, "---\nicon: rocket\n---\n\nText.\n"), "# Quickstart\n\nText.\n")
    assert.strictEqual(pageMarkdown({ title: "Guide" }, "# Another heading\n"), "# Guide\n\n# Another heading\n")
  })
})

describe("a visitor-auth site's sign-in fallback", () => {
  it("sends a reader without a valid token to the fallback URL with the page asked for as location", () => {
    const query = new URLSearchParams("jwt_token=bad&tab=cli")
    assert.strictEqual(
      signInRedirect("https://auth.example.com/login?app=docs", "visitor-token-missing", "guides/setup", query),
      "https://auth.example.com/login?app=docs&location=%2Fguides%2Fsetup%3Ftab%3Dcli"
    )
    assert.strictEqual(
      signInRedirect("https://auth.example.com/login", "visitor-token-expired", "", new URLSearchParams()),
      "https://auth.example.com/login?location=%2F"
    )
    assert.isString(signInRedirect("https://auth.example.com/login", "visitor-token-invalid", "", new URLSearchParams()))
  })

  it("does not redirect without a fallback URL, for share links, nor for a token whose lifetime the instance refuses", () => {
    const none = new URLSearchParams()
    assert.isUndefined(signInRedirect(undefined, "visitor-token-missing", "", none))
    assert.isUndefined(signInRedirect("https://auth.example.com/login", "share-key-missing", "", none))
    assert.isUndefined(signInRedirect("https://auth.example.com/login", "visitor-token-lifetime", "", none))
    assert.isUndefined(signInRedirect("javascript:alert(1)", "visitor-token-missing", "", none))
  })
})
