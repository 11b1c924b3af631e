/** The files a published site serves to crawlers and language models. */
import { assert, describe, it } from "@effect/vitest"
import { llmsFullTxt, llmsTxt, robots, sitemap, type MachinePage } from "../src/render/Machines.ts"

const root = "https://docs.example.com"
const pages: ReadonlyArray<MachinePage> = [
  {
    title: "Introduction",
    url: `${root}/`,
    markdownUrl: `${root}/.md`,
    description: "What Quire is.",
    lastModified: new Date("2026-11-01T08:00:00Z"),
    markdown: "Quire is a documentation platform.\n"
  },
  {
    title: "Install [Docker]",
    url: `${root}/install?a=1&b=2`,
    markdownUrl: `${root}/install.md`,
    markdown: "## Pull\n\n```bash\ndocker pull quire\n```"
  }
]

describe("sitemap", () => {
  it("lists every page with its lastmod, URLs escaped for XML", () => {
    const xml = sitemap(pages)
    assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/)
    const urls = [...xml.matchAll(/<url><loc>([^<]*)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?<\/url>/g)].map((m) => [m[1], m[2]])
    assert.deepStrictEqual(urls, [
      [`${root}/`, "2026-11-01T08:00:00.000Z"],
      [`${root}/install?a=1&amp;b=2`, undefined]
    ])
    assert.match(xml, /<\/urlset>\n$/)
    assert.notInclude(sitemap([]), "<url>")
  })
})

describe("robots", () => {
  it("lets crawlers into a public site and points them at its sitemap", () => {
    assert.strictEqual(
      robots({ indexable: true, sitemapUrl: `${root}/sitemap.xml` }),
      `User-agent: *\nAllow: /\n\nSitemap: ${root}/sitemap.xml\n`
    )
  })

  it("keeps crawlers out of unlisted, share-link and visitor-auth sites, without naming a sitemap", () => {
    const text = robots({ indexable: false, sitemapUrl: `${root}/sitemap.xml` })
    assert.strictEqual(text, "User-agent: *\nDisallow: /\n")
  })
})

describe("llms.txt", () => {
  it("titles the site, groups pages by section and links each page's markdown with its description", () => {
    const text = llmsTxt({
      title: "Quire Docs",
      description: "Docs for\nQuire.",
      sections: [
        { title: "Guides", pages },
        { title: "Empty", pages: [] },
        { title: "API", pages: [{ title: "Auth", url: `${root}/api/auth`, markdownUrl: `${root}/api/auth.md` }] }
      ]
    })
    assert.strictEqual(
      text,
      [
        "# Quire Docs",
        "",
        "> Docs for Quire.",
        "",
        "## Guides",
        "",
        `- [Introduction](${root}/.md): What Quire is.`,
        `- [Install \\[Docker\\]](${root}/install.md)`,
        "",
        "## API",
        "",
        `- [Auth](${root}/api/auth.md)`,
        ""
      ].join("\n")
    )
  })

  it("lists pages right under the title for a site without sections", () => {
    const text = llmsTxt({ title: "Quire", sections: [{ pages: pages.slice(0, 1) }] })
    assert.strictEqual(text, `# Quire\n\n- [Introduction](${root}/.md): What Quire is.\n`)
  })
})

describe("llms-full.txt", () => {
  it("holds every page's markdown in order, each with its title and URL", () => {
    const text = llmsFullTxt({ title: "Quire Docs", sections: [{ title: "Guides", pages }] })
    assert.strictEqual(
      text,
      [
        "# Quire Docs",
        "",
        "# Introduction",
        "",
        `Source: ${root}/`,
        "",
        "Quire is a documentation platform.",
        "",
        "---",
        "",
        "# Install [Docker]",
        "",
        `Source: ${root}/install?a=1&b=2`,
        "",
        "## Pull",
        "",
        "```bash",
        "docker pull quire",
        "```",
        ""
      ].join("\n")
    )
  })
})
