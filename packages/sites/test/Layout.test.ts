/** What a reader of a published page sees, read back from the HTML with a DOM parser. */
import { type DomDocument, type DomElement, parseHtml } from "@quire/content"
import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { BoundedCache } from "@quire/kernel"
import { emojiText, encodeDocument, htmlText, layoutMemo, pageDocument, policyOf, renderNotFound, renderPage, renderSearch } from "../src/render/Layout.ts"
import { renderPage as renderMarkdown, samplePage } from "../src/render/Markdown.ts"
import { themeCss } from "../src/render/Theme.ts"
import { neighbours, readingOrder } from "../src/render/View.ts"
import { sampleTree, sampleView } from "./SiteViewFixture.ts"

const page = (overrides: Parameters<typeof sampleView>[0] = {}): DomDocument => parseHtml(renderPage(sampleView(overrides)))
type Queryable = Pick<DomDocument, "querySelector" | "querySelectorAll">
/** domino answers a miss with undefined and a NodeList that is not iterable: both made plain here. */
const one = (node: Queryable | null | undefined, selector: string): DomElement | null => node?.querySelector(selector) ?? null
const all = (node: Queryable, selector: string): Array<DomElement> =>
  Array.from(node.querySelectorAll(selector) as unknown as ArrayLike<DomElement>)
const texts = (doc: DomDocument, selector: string): Array<string> =>
  all(doc, selector).map((el) => (el.textContent ?? "").replace(/\s+/g, " ").trim())
const attrs = (doc: DomDocument, selector: string, name: string): Array<string | null> =>
  all(doc, selector).map((el) => el.getAttribute(name))

const hostile = `<script>alert("x")</script>&"'`

describe("renderPage", () => {
  it("is a whole HTML5 document with the page's title, description, canonical and markdown links", () => {
    const html = renderPage(sampleView())
    assert.match(html, /^<!DOCTYPE html>\n<html lang="en"/)
    const doc = parseHtml(html)
    assert.strictEqual(doc.title, "Install with Docker | Quire Docs")
    assert.strictEqual(one(doc, `meta[name="description"]`)?.getAttribute("content"), "Run Quire in a container in five minutes.")
    assert.strictEqual(one(doc, `link[rel="canonical"]`)?.getAttribute("href"), "https://docs.example.com/guides/installation/docker")
    const alternate = one(doc, `link[rel="alternate"][type="text/markdown"]`)
    assert.strictEqual(alternate?.getAttribute("href"), "https://docs.example.com/guides/installation/docker.md")
    assert.deepStrictEqual(texts(doc, "main h1"), ["Install with Docker"])
    assert.deepStrictEqual(texts(doc, "header.site-header .brand"), ["Quire Docs"])
  })

  it("shows page emoji stored as code points as characters, and the favicon's emoji", () => {
    assert.strictEqual(emojiText("1f44b"), "\u{1f44b}")
    assert.strictEqual(emojiText("1f1eb-1f1f7"), "\u{1f1eb}\u{1f1f7}")
    assert.strictEqual(emojiText("\u{1f680}"), "\u{1f680}")
    const doc = page({
      tree: [{ type: "document", id: "overview", title: "Overview", url: "/p", emoji: "1f44b", children: [] }],
      currentPage: "overview",
      page: { ...sampleView().page, emoji: "1f680" }
    })
    assert.deepStrictEqual(texts(doc, "main h1 .emoji"), ["\u{1f680}"])
    assert.include(texts(doc, "nav .emoji").join(" "), "\u{1f44b}")
    const icon = one(doc, `link[rel="icon"]`)?.getAttribute("href") ?? ""
    assert.match(icon, /^data:image\/svg\+xml,/)
    assert.include(decodeURIComponent(icon.slice("data:image/svg+xml,".length)), "\u{1f4d8}")
    // A lone surrogate in the favicon's emoji or the site's title (text may hold one) renders, as U+FFFD.
    for (const site of [{ ...sampleView().site, favicon: { emoji: "a\ud800" } }, { ...sampleView().site, title: "\udc00x", favicon: undefined }]) {
      const odd = one(page({ site }), `link[rel="icon"]`)?.getAttribute("href") ?? ""
      assert.include(decodeURIComponent(odd.slice("data:image/svg+xml,".length)), "\ufffd")
    }
  })

  it("escapes hostile titles, descriptions and links everywhere, and inserts the page's sanitized HTML as is", () => {
    const html = renderPage(
      sampleView({
        site: { title: `Site ${hostile}`, url: "/" },
        tabs: [{ type: "section", title: hostile, url: `/"><script>`, current: true }],
        variants: [
          { title: hostile, url: "/a", current: true },
          { title: "v1", url: "javascript:alert(1)", current: false },
          { title: "v0", url: " \u0001java\tscript:alert(1)", current: false }
        ],
        tree: [{ type: "document", id: "p", title: hostile, url: "/p", children: [] }],
        currentPage: "p",
        page: {
          ...sampleView().page,
          title: hostile,
          description: hostile,
          html: `<p class="kept">Body <em>as is</em></p>`,
          headings: [{ id: `x"><script>`, text: hostile, depth: 2 }]
        },
        footer: { groups: [{ title: hostile, links: [{ title: hostile, url: "/f" }] }], copyright: hostile }
      })
    )
    // The only scripts are the layout's own two.
    assert.strictEqual(html.match(/<script/g)?.length, 2)
    const doc = parseHtml(html)
        assert.strictEqual(all(doc, "script").length, 2)
    assert.strictEqual(doc.title, `${hostile} | Site ${hostile}`)
    assert.deepStrictEqual(texts(doc, "main h1"), [hostile])
    assert.deepStrictEqual(texts(doc, ".site-tabs a"), [hostile])
    assert.deepStrictEqual(texts(doc, ".toc a"), [hostile])
    assert.deepStrictEqual(texts(doc, ".copyright"), [hostile])
    assert.strictEqual(one(doc, ".markdown p.kept em")?.textContent, "as is")
    // A javascript: URL never becomes a link.
    assert.deepStrictEqual(attrs(doc, ".variants a", "href"), ["/a", "#", "#"])
  })

  it("marks the current section tab, opens a group's menu of sections, and the current variant", () => {
    const doc = page({
      tabs: [
        { type: "section", title: "Guides", url: "/g", current: false },
        {
          type: "group",
          title: "Resources",
          sections: [
            { type: "section", title: "Tutorials", url: "/t", current: true },
            { type: "section", title: "FAQ", url: "/faq", current: false }
          ]
        }
      ]
    })
    assert.deepStrictEqual(texts(doc, ".site-tabs > ul > li > a"), ["Guides"])
    assert.deepStrictEqual(texts(doc, `.site-tabs [aria-current="page"]`), ["Tutorials"])
    assert.deepStrictEqual(texts(doc, ".site-tabs details.tab-group > summary"), ["Resources"])
    assert.isNotNull(one(doc, ".site-tabs details.tab-group > summary.current"))
    assert.deepStrictEqual(texts(doc, ".site-tabs details.tab-group a"), ["Tutorials", "FAQ"])
    assert.deepStrictEqual(attrs(doc, ".site-tabs details.tab-group a", "href"), ["/t", "/faq"])

    assert.deepStrictEqual(texts(doc, ".variants > summary"), ["v2 (latest)"])
    assert.deepStrictEqual(texts(doc, ".variants a"), ["v2 (latest)", "v1"])
    assert.deepStrictEqual(texts(doc, `.variants a[aria-current="page"]`), ["v2 (latest)"])
  })

  it("shows no tabs for a site without sections and no switcher for a single variant", () => {
    const doc = page({ tabs: [], variants: [{ title: "Only", url: "/", current: true }] })
    assert.isNull(one(doc, ".site-tabs"))
    assert.isNull(one(doc, ".variants"))
  })

  it("shows the page tree with group headings, nested pages, the current page and its parents open, and external links", () => {
    const doc = page()
    assert.deepStrictEqual(texts(doc, ".sidebar .tree-heading"), ["Getting started", "Publishing"])
    assert.deepStrictEqual(texts(doc, `.sidebar .tree [aria-current="page"]`), ["Docker"])
    // The current page's parent is open, the other branch is closed (but present without JS).
    const branches = all(doc, ".sidebar details.tree-branch")
    assert.deepStrictEqual(
      branches.map((b) => [one(b, "summary a")?.textContent?.trim(), b.getAttribute("open") !== null]),
      [["Installation", true], ["Sites", false]]
    )
    assert.deepStrictEqual(texts(doc, ".sidebar details.tree-branch a"), [
      "Installation", "Docker", "From source", "Sites", "Custom domains"
    ])
    const changelog = all(doc, ".sidebar a").find((a) => a.textContent?.trim() === "Changelog")
    assert.strictEqual(changelog?.getAttribute("href"), "https://example.com/changelog")
    assert.isNotNull(one(changelog, "svg.external"))
  })

  it("answers the bytes of its HTML, the page tree's encoded once and shared by every page of it", () => {
    const tree = [
      ...sampleTree,
      { type: "document" as const, id: "odd", title: "Ünïcode \u{1f680} and a lone \ud800", url: "/odd", children: [] }
    ]
    const answers = ["docker", "installation", "odd", "none", undefined].map((currentPage) => {
      const view = sampleView({ tree, currentPage })
      const html = renderPage(view)
      assert.strictEqual(htmlText(pageDocument(view)), html)
      const encoded = encodeDocument(pageDocument(view))
      assert.deepStrictEqual(encoded.bytes, new TextEncoder().encode(html))
      assert.strictEqual(encodeDocument(pageDocument(view)).fingerprint, encoded.fingerprint)
      return [html, encoded.fingerprint] as const
    })
    // The fingerprint (the ETag) tells apart exactly the pages whose bytes differ.
    for (const [html, fingerprint] of answers) {
      for (const [other, its] of answers) assert.strictEqual(fingerprint === its, html === other)
    }
    assert.include(renderPage(sampleView({ tree, currentPage: "odd" })), `<a class="tree-link" href="/odd" aria-current="page"><span>Ünïcode \u{1f680} and a lone \ud800</span></a>`)
  })

  it("lists the page's headings under 'On this page' as links to their anchors", () => {
    const doc = page()
    assert.deepStrictEqual(texts(doc, ".toc h2"), ["On this page"])
    assert.deepStrictEqual(texts(doc, ".toc a"), ["Pull the image", "Start the server", "Environment", "Next steps"])
    assert.deepStrictEqual(attrs(doc, ".toc a", "href"), ["#pull-the-image", "#start-the-server", "#environment", "#next-steps"])
    assert.deepStrictEqual(attrs(doc, ".toc li", "class"), ["depth-2", "depth-2", "depth-3", "depth-2"])
    // Each anchor names a heading of the page.
    for (const href of attrs(doc, ".toc a", "href")) assert.isNotNull(one(doc, `.markdown [id="${href?.slice(1)}"]`))

    const none = page({ page: { ...sampleView().page, headings: [] } })
    assert.isNull(one(none, ".toc nav"))
  })

  it("links the previous and next pages, and hides them when pagination is off", () => {
    const doc = page()
    assert.deepStrictEqual(attrs(doc, `.pagination a[rel="prev"]`, "href"), ["/~sites/site_1/guides/installation"])
    assert.deepStrictEqual(attrs(doc, `.pagination a[rel="next"]`, "href"), ["/~sites/site_1/guides/installation/source"])
    assert.deepStrictEqual(texts(doc, ".pagination .pager-title"), ["Installation", "From source"])

    const first = page({ previous: undefined })
    assert.isNull(one(first, `.pagination a[rel="prev"]`))
    assert.isNotNull(one(first, `.pagination a[rel="next"]`))
    assert.isNull(one(page({ pagination: false }), ".pagination"))
  })

  it("shows when the page was last modified and where to edit it on Git, only when the space is Git-synced", () => {
    const doc = page()
    const time = one(doc, ".last-modified time")
    assert.strictEqual(time?.getAttribute("datetime"), "2026-11-02T10:00:00.000Z")
    assert.strictEqual(time?.textContent, "November 2, 2026")
    assert.deepStrictEqual(texts(doc, ".edit-link"), ["Edit on GitHub"])
    assert.deepStrictEqual(attrs(doc, ".edit-link", "href"), ["https://github.com/quire/docs/blob/main/guides/installation/docker.md"])

    const local = page({ page: { ...sampleView().page, editUrl: undefined } })
    assert.isNull(one(local, ".edit-link"))
    const gitlab = page({ page: { ...sampleView().page, editUrl: "https://gitlab.com/q/d/-/blob/main/a.md" } })
    assert.deepStrictEqual(texts(gitlab, ".edit-link"), ["Edit on GitLab"])
  })

  it("asks search engines not to index unlisted pages, and only those", () => {
    assert.isNull(one(page(), `meta[name="robots"]`))
    assert.strictEqual(one(page({ noindex: true }), `meta[name="robots"]`)?.getAttribute("content"), "noindex")
  })

  it("allows every inline script and style by its hash in policyOf, and nothing inline elsewhere", () => {
    const view = sampleView()
    const html = renderPage(view)
    const doc = parseHtml(html)
    const tags = all(doc, "script, style")
    assert.isAtLeast(tags.length, 3)
    const policy = policyOf(view.styling)
    for (const tag of tags) {
      const hash = createHash("sha256").update(tag.textContent ?? "", "utf8").digest("base64")
      assert.include(policy, `'sha256-${hash}'`)
      assert.isNull(tag.getAttribute("nonce"))
    }
    assert.notMatch(html.replace(/<div class="markdown">[\s\S]*?<\/article>/, ""), /\son[a-z]+=/i)
    assert.isNull(one(doc, "[style]:not(.markdown *)"))
  })

  it("searches without JavaScript: a GET form to the search URL with the query in q", () => {
    const doc = page()
    const form = one(doc, "form.search")
    assert.strictEqual(form?.getAttribute("action"), "/~sites/site_1/~search")
    assert.strictEqual(form?.getAttribute("method"), "get")
    assert.strictEqual(one(form, "input")?.getAttribute("name"), "q")
    // With JavaScript the box asks the same URL for JSON.
    assert.match(renderPage(sampleView()), /Accept:\s*"application\/json"/)
  })

  it("follows the theme settings: system by default, a fixed mode, and a toggle only when toggeable", () => {
    const system = page()
    assert.isNull(one(system, "html")?.getAttribute("data-theme") ?? null)
    assert.isNotNull(one(system, "[data-theme-toggle]"))
    const dark = page({ themes: { default: "dark", toggeable: false } })
    assert.strictEqual(one(dark, "html")?.getAttribute("data-theme"), "dark")
    assert.isNull(one(dark, "[data-theme-toggle]"))
    assert.strictEqual(one(dark, `meta[name="color-scheme"]`)?.getAttribute("content"), "dark")
  })

  it("shows the logo for each theme instead of the title, header links and the footer", () => {
    const doc = page({
      site: { title: "Quire", url: "/", logo: { light: "/logo-light.svg", dark: "/logo-dark.svg" } },
      announcement: { enabled: true, message: "v2 is out", url: "/news", style: "info" }
    })
    assert.deepStrictEqual(attrs(doc, ".brand img", "src"), ["/logo-light.svg", "/logo-dark.svg"])
    assert.deepStrictEqual(attrs(doc, ".brand img", "alt"), ["Quire", "Quire"])
    assert.deepStrictEqual(texts(doc, ".header-links a"), ["Blog", "Get started"])
    assert.deepStrictEqual(texts(doc, ".site-footer h2"), ["Product", "Community"])
    assert.deepStrictEqual(texts(doc, ".announcement a"), ["v2 is out"])
    assert.isNull(one(page({ announcement: { enabled: false, message: "hidden", style: "info" } }), ".announcement"))
  })
})

describe("renderPage with no customization", () => {
  it("renders with GitBook's defaults: the title as brand, a system theme, no footer, no menus", () => {
    const html = renderPage(
      sampleView({
        styling: {},
        header: { links: [] },
        footer: { groups: [] },
        themes: { default: "system", toggeable: false },
        tabs: [],
        variants: [],
        site: { title: "Plain", url: "/" }
      })
    )
    const doc = parseHtml(html)
    assert.deepStrictEqual(texts(doc, ".brand"), ["Plain"])
    assert.isNull(one(doc, ".header-links"))
    assert.isNull(one(doc, "[data-theme-toggle]"))
    // The site's initial, so that browsers do not ask the host for /favicon.ico.
    assert.include(decodeURIComponent(one(doc, "link[rel=icon]")?.getAttribute("href") ?? ""), ">P</text>")
    assert.isNull(one(doc, ".site-footer"))
    assert.include(html, "--primary: #346ddb")
  })

  it("opens header links with sub-links as a menu, and external links in a new tab when the site asks", () => {
    const doc = page({
      externalLinks: "blank",
      header: { links: [{ title: "More", links: [{ title: "Status", url: "https://status.example.com" }] }] }
    })
    assert.deepStrictEqual(texts(doc, ".header-links details > summary"), ["More"])
    const status = one(doc, ".header-links details a")
    assert.strictEqual(status?.getAttribute("href"), "https://status.example.com")
    assert.strictEqual(status?.getAttribute("target"), "_blank")
    assert.strictEqual(status?.getAttribute("rel"), "noopener noreferrer")
    // Links inside the site stay in the tab.
    assert.isNull(one(doc, `.tree a[href="/~sites/site_1/guides"]`)?.getAttribute("target") ?? null)
  })
})

describe("renderSearch and renderNotFound", () => {
  it("lists the results with their section and snippet, escaped, and keeps the query in the box", () => {
    const doc = parseHtml(
      renderSearch({
        ...sampleView(),
        query: hostile,
        results: [{ title: `A <b>title</b>`, url: "/a", snippet: "one <i>two</i>", section: "Guides" }]
      })
    )
    assert.deepStrictEqual(texts(doc, ".search-page-results .search-result-title"), ["A <b>title</b>"])
    assert.deepStrictEqual(texts(doc, ".search-page-results .search-result-section"), ["Guides"])
    assert.deepStrictEqual(texts(doc, ".search-page-results .search-result-snippet"), ["one <i>two</i>"])
    assert.strictEqual(one(doc, `form.search input[name="q"]`)?.getAttribute("value"), hostile)
    assert.strictEqual(one(doc, `meta[name="robots"]`)?.getAttribute("content"), "noindex")
    assert.strictEqual(all(doc, "script").length, 2)

    const empty = parseHtml(renderSearch({ ...sampleView(), query: "zzz", results: [] }))
    assert.include(texts(empty, ".search-hint")[0], "No results for “zzz”")
  })

  it("answers a missing page with the site's navigation and a way home", () => {
    const doc = parseHtml(renderNotFound({ ...sampleView(), path: "/nope<x>" }))
    assert.deepStrictEqual(texts(doc, "main h1"), ["Page not found"])
    assert.include(texts(doc, "main .page-description")[0], "/nope<x>")
    assert.isNotNull(one(doc, ".sidebar .tree"))
    assert.strictEqual(one(doc, "main a.button")?.getAttribute("href"), "/~sites/site_1/")
  })
})

describe("themeCss", () => {
  it("takes the primary color per theme and refuses anything but a hex color", () => {
    const css = themeCss({ primaryColor: { light: "#ff0000", dark: "#00ff00" } })
    assert.include(css, "--primary: #ff0000")
    assert.include(css, "--primary: #00ff00")
    const hostileCss = themeCss({ primaryColor: { light: "red}</style><script>", dark: "#00ff00" } })
    assert.notInclude(hostileCss, "</style>")
    assert.include(hostileCss, "--primary: #346ddb")
    assert.notInclude(themeCss({ font: { fontFamily: `x";}</style>` } }), "</style>")
    // A font stored before fonts were checked (`{}`, a number) is the default font, not an error.
    for (const font of [{}, 3, { fontFamily: 5 }]) assert.include(themeCss({ font: font as never }), "--font: ")
  })

  it("rounds corners as the styling says", () => {
    assert.include(themeCss({ corners: "straight" }), "--radius: 0px")
    assert.include(themeCss({ corners: "circular" }), "--radius-pill: 999px")
  })
})

describe("readingOrder and neighbours", () => {
  it("walks documents depth first, skipping groups and links, and finds the pages around the current one", () => {
    assert.deepStrictEqual(
      readingOrder(sampleTree).map((d) => d.title),
      ["Introduction", "Installation", "Docker", "From source", "Configuration", "Sites", "Custom domains"]
    )
    const { previous, next } = neighbours(sampleTree, "docker")
    assert.deepStrictEqual(previous, { title: "Installation", url: "/~sites/site_1/guides/installation" })
    assert.deepStrictEqual(next, { title: "From source", url: "/~sites/site_1/guides/installation/source" })
  })
})

describe("themeCss and Markdown.ts", () => {
  it("styles every class the markdown renderer emits for GitBook's blocks", async () => {
    const blocks = [
      samplePage,
      `{% hint style="danger" %}\nNo.\n{% endhint %}`,
      `{% stepper %}\n{% step %}\nOne\n{% endstep %}\n{% endstepper %}`,
      `{% columns %}\n{% column %}\nLeft\n{% endcolumn %}\n{% endcolumns %}`,
      `{% code title="a.js" lineNumbers="true" overflow="wrap" %}\n\`\`\`js\nlet a\n\`\`\`\n{% endcode %}`,
      `{% embed url="https://example.com/v" %}\nCaption\n{% endembed %}`,
      `{% file src="a.pdf" %}\nCaption\n{% endfile %}`,
      `{% file src="missing.pdf" %}{% endfile %}`,
      `<table data-view="cards"><thead><tr><th></th><th data-card-target data-type="content-ref"></th></tr></thead>` +
        `<tbody><tr><td>Card</td><td><a href="a.md">a</a></td></tr></tbody></table>`,
      `<div data-gb-custom-block data-tag="hint" data-style="success"><p>Done.</p></div>`,
      `{% openapi-operation spec="s" path="/p/{id}" method="delete" %}`,
      `{% openapi-operation spec="s" path="/p/{id}" method="post" %}`,
      `{% openapi-operation spec="missing" path="/p" method="get" %}`
    ].join("\n\n")
    const { html } = await renderMarkdown(blocks, {
      resolveLink: (url) => (/^https?:/.test(url) ? undefined : `/docs/${url}`),
      resolveFile: (ref) => (ref === "a.pdf" ? { url: "/files/a.pdf", name: "a.pdf", contentType: "application/pdf" } : undefined),
      resolveOperation: (spec, path, method) => spec !== "s" ? undefined : ({
        method, path, summary: "S", description: "D", deprecated: method === "delete",
        parameters: [{ in: "path", name: "id", required: true, type: "string", description: undefined }],
        requestBody: { contentType: "application/json", required: true, description: "B", schema: "object", example: "{}" },
        responses: [{ status: "200", description: "OK", contentType: "application/json", example: "{}" }]
      })
    })
    const classes = new Set([...html.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1]!.split(/\s+/)))
    // Shiki names its themes on the <pre>; those classes carry no style of their own.
    for (const name of ["shiki-themes", "github-light", "github-dark"]) classes.delete(name)
    const css = themeCss({})
    const unstyled = [...classes].filter((name) => !new RegExp(`\\.${name}(?![\\w-])`).test(css))
    assert.deepStrictEqual(unstyled, [])
  })
})

describe("layoutMemo", () => {
  it.effect("makes a site's theme once per styling and lays a tree out once per way of opening links; the pages are the same bytes", () =>
    Effect.gen(function*() {
      const registry = BoundedCache.makeRegistry()
      const memo = yield* layoutMemo.pipe(Effect.provideService(BoundedCache.CacheRegistry, registry))
      const styling = { primaryColor: { light: "#346ddb", dark: "#6f9cf0" } }
      const first = memo.theme(styling)
      assert.strictEqual(memo.theme({ ...styling }), first)
      assert.notStrictEqual(memo.theme({}), first)
      const themes = registry.all().find((stats) => stats.name === "site_themes")!
      assert.deepInclude(themes, { entries: 2, hits: 1, misses: 2 })

      const view = sampleView()
      let laidOut = 0
      const counting = { ...memo, tree: (tree: typeof view.tree, links: string, layOut: () => ReturnType<Parameters<typeof memo.tree>[2]>) => memo.tree(tree, links, () => (laidOut++, layOut())) }
      const kept = renderPage({ ...view, memo: counting })
      // Another page of the same tree: the tree laid out before, marked for this page.
      assert.notStrictEqual(renderPage({ ...view, memo: counting, currentPage: undefined }), kept)
      assert.strictEqual(laidOut, 1)
      renderPage({ ...view, memo: counting, externalLinks: "blank" })
      assert.strictEqual(laidOut, 2)
      assert.strictEqual(kept, renderPage(view))
    }))
})
