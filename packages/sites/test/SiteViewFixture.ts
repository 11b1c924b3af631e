/** A published page's view as a server would build it: two sections and a group, two variants, a nested tree. */
import type { SiteView, TreeItem } from "../src/render/View.ts"

const base = "/~sites/site_1/"

export const sampleTree: ReadonlyArray<TreeItem> = [
  {
    type: "group",
    title: "Getting started",
    children: [
      { type: "document", id: "introduction", title: "Introduction", url: `${base}guides`, children: [], emoji: "👋" },
      {
        type: "document",
        id: "installation",
        title: "Installation",
        url: `${base}guides/installation`,
        children: [
          { type: "document", id: "docker", title: "Docker", url: `${base}guides/installation/docker`, children: [] },
          { type: "document", id: "from-source", title: "From source", url: `${base}guides/installation/source`, children: [] }
        ]
      },
      { type: "document", id: "configuration", title: "Configuration", url: `${base}guides/configuration`, children: [] }
    ]
  },
  {
    type: "group",
    title: "Publishing",
    children: [
      {
        type: "document",
        id: "sites",
        title: "Sites",
        url: `${base}guides/sites`,
        children: [{ type: "document", id: "custom-domains", title: "Custom domains", url: `${base}guides/sites/domains`, children: [] }]
      },
      { type: "link", title: "Changelog", url: "https://example.com/changelog", external: true }
    ]
  }
]

export const sampleHtml = [
  `<p>Quire runs as a single container next to PostgreSQL. This guide takes you from an empty machine to a running server in <strong>five minutes</strong>, with <a href="/~sites/site_1/guides/configuration">configuration</a> left for later.</p>`,
  `<div class="hint hint-info"><p>You need Docker 24 or newer. Run <code>docker version</code> to check.</p></div>`,
  `<h2 id="pull-the-image">Pull the image</h2>`,
  `<p>The image is published for <code>amd64</code> and <code>arm64</code>:</p>`,
  `<pre class="shiki shiki-themes github-light github-dark" style="--shiki-light:#24292e;--shiki-dark:#e1e4e8;--shiki-light-bg:#fff;--shiki-dark-bg:#24292e" tabindex="0"><code><span class="line"><span style="--shiki-light:#6F42C1;--shiki-dark:#B392F0">docker</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF"> pull</span><span style="--shiki-light:#032F62;--shiki-dark:#9ECBFF"> ghcr.io/quire/quire:latest</span></span></code></pre>`,
  `<h2 id="start-the-server">Start the server</h2>`,
  `<ol><li>Create a <code>.env</code> file with the database URL.</li><li>Start the container with the file.</li><li>Open <a href="http://localhost:3000">localhost:3000</a>.</li></ol>`,
  `<h3 id="environment">Environment</h3>`,
  `<table><thead><tr><th>Variable</th><th>Default</th><th>Meaning</th></tr></thead><tbody><tr><td><code>DATABASE_URL</code></td><td>none</td><td>PostgreSQL connection string</td></tr><tr><td><code>QUIRE_PUBLIC_URL</code></td><td><code>http://localhost:3000</code></td><td>Where readers reach the server</td></tr></tbody></table>`,
  `<div class="hint hint-warning"><p>Keep the <code>.env</code> file out of version control: it holds your database password.</p></div>`,
  `<h2 id="next-steps">Next steps</h2>`,
  `<p>Read about <a href="/~sites/site_1/guides/sites">publishing sites</a> once the server runs.</p>`
].join("\n")

/** The Docker page of the Guides section, variant "v2". */
export const sampleView = (overrides: Partial<SiteView> = {}): SiteView => ({
  site: { title: "Quire Docs", url: base, favicon: { emoji: "📘" } },
  basePath: base,
  styling: {
    primaryColor: { light: "#346DDB", dark: "#6F9CF2" },
    corners: "rounded",
    font: "Inter",
    sidebar: { background: "default", list: "default" }
  },
  header: {
    links: [
      { title: "Blog", url: "https://example.com/blog", links: [] },
      { title: "Get started", url: `${base}guides`, style: "button-primary", links: [] }
    ]
  },
  footer: {
    groups: [
      { title: "Product", links: [{ title: "Home", url: "https://example.com" }, { title: "Pricing", url: "https://example.com/pricing" }] },
      { title: "Community", links: [{ title: "GitHub", url: "https://github.com/quire" }] }
    ],
    copyright: "© 2026 Quire"
  },
  themes: { default: "system", toggeable: true },
  tabs: [
    { type: "section", title: "Guides", url: base, current: true },
    { type: "section", title: "API reference", url: `${base}api`, current: false },
    {
      type: "group",
      title: "Resources",
      sections: [
        { type: "section", title: "Tutorials", url: `${base}tutorials`, current: false },
        { type: "section", title: "FAQ", url: `${base}faq`, current: false }
      ]
    }
  ],
  variants: [
    { title: "v2 (latest)", url: base, current: true },
    { title: "v1", url: `${base}v1`, current: false }
  ],
  tree: sampleTree,
  currentPage: "docker",
  searchUrl: `${base}~search`,
  noindex: false,
  page: {
    title: "Install with Docker",
    description: "Run Quire in a container in five minutes.",
    html: sampleHtml,
    headings: [
      { id: "pull-the-image", text: "Pull the image", depth: 2 },
      { id: "start-the-server", text: "Start the server", depth: 2 },
      { id: "environment", text: "Environment", depth: 3 },
      { id: "next-steps", text: "Next steps", depth: 2 }
    ],
    lastModified: new Date("2026-11-02T10:00:00Z"),
    editUrl: "https://github.com/quire/docs/blob/main/guides/installation/docker.md",
    canonicalUrl: "https://docs.example.com/guides/installation/docker",
    markdownUrl: "https://docs.example.com/guides/installation/docker.md"
  },
  pagination: true,
  previous: { title: "Installation", url: `${base}guides/installation` },
  next: { title: "From source", url: `${base}guides/installation/source` },
  ...overrides
})
