/** The SiteRenderer over content's memory repositories: what a reader of a published site gets at each path. */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { documentHash, type PageNode, ParsePool, PublishedContent, type Revision, RevisionsRepo, SearchIndex, SpaceContent, SpacesRepo, type Space } from "@quire/content"
import { Errors, Ids } from "@quire/kernel"
import { SiteQuestionRecorder } from "../src/questions/QuestionRecorder.ts"
import { SiteQuestionsRepo } from "../src/questions/SiteQuestionsRepo.ts"
import type { PublishedSite } from "../src/PublishedSites.ts"
import { RedirectsRepo } from "../src/RedirectsRepo.ts"
import { SpaceRedirects } from "../src/SpaceRedirects.ts"
import { SpecOperations } from "../src/SpecOperations.ts"
import { CodeHighlighter } from "../src/render/Highlight.ts"
import { type RenderAnswer, SiteRenderer } from "../src/SiteRenderer.ts"

const at = "2026-11-01T10:00:00.000Z"

const page = (id: string, title: string, slug: string, extra: Partial<PageNode> = {}): PageNode => ({
  id, type: "document", title, slug, createdAt: at, updatedAt: at, pages: [], ...extra
})

const markdown: Record<string, string> = {
  intro: "Welcome.\n\n## First steps\n\nSee [Docker](/pages/docker#run).",
  docker: "## Run\n\nRun with a whale.",
  secret: "Hidden page."
}

const tree = (introText: string): ReadonlyArray<PageNode> => [
  page("intro", "Introduction", "intro", { document: documentHash(introText) }),
  {
    ...page("group", "Deploy", "deploy", { type: "group" }),
    pages: [
      { ...page("install", "Install", "install", { document: documentHash("Install."), linkTitle: "Installing" }), pages: [page("docker", "Docker", "docker", { document: documentHash(markdown.docker!), git: { oid: "x", path: "deploy/docker.md" } })] },
      page("link", "Changelog", "changelog", { type: "link", target: { kind: "url", url: "https://example.com/changelog" } }),
      page("running", "Running it", "running", { type: "link", target: { kind: "page", page: "docker", anchor: "run" } })
    ]
  },
  page("secret", "Secret", "secret", { hidden: true, document: documentHash(markdown.secret!) })
]

const revision = (id: string, introText: string): Revision => ({
  id,
  spaceId: "space1",
  parents: [],
  type: "edits",
  pages: tree(introText),
  files: [],
  variables: {},
  git: { oid: "abc", message: "m", createdByService: false, url: "https://github.com/acme/docs", ref: "refs/heads/main" },
  createdAt: new Date(at)
})

const space = (revisionId: string): Space => ({
  id: "space1", organizationId: "org", parentId: null, title: "Docs", emoji: "", visibility: "private", editMode: "live",
  defaultLevel: "inherit", language: null, position: 0, revisionId, shareKey: "k", createdAt: new Date(at), updatedAt: new Date(at), deletedAt: null
} as unknown as Space)

const site = (revisionId: string): PublishedSite => ({
  site: {
    id: "site1", organizationId: "org", type: "basic", title: "Acme Docs", hostname: null, basename: null, proxy: null,
    visibility: "public", published: true, adaptiveContent: false, agentsContext: "included", defaultSectionId: null,
    defaultSiteSpaceId: "ss1", createdAt: new Date(at), updatedAt: new Date(at)
  },
  sections: [],
  groups: [],
  rootSiteSpaces: [{
    siteSpace: { id: "ss1", siteId: "site1", sectionId: null, spaceId: "space1", path: "docs", condition: null, position: 0, createdAt: new Date(at), updatedAt: new Date(at) },
    space: space(revisionId),
    default: true
  }],
  customization: {
    styling: { primaryColor: { light: "#112233", dark: "#445566" } },
    header: { links: [{ title: "Blog", to: { kind: "url", url: "https://example.com/blog" }, links: [] }] },
    footer: { groups: [{ title: "Company", links: [{ title: "About", to: { kind: "url", url: "https://example.com/about" } }] }], copyright: "© Acme" }
  },
  visitorKey: "key"
})

/** SpaceContent's downloads (none here); the renderer reads the rest through PublishedContent. */
const spaceContent = Layer.succeed(SpaceContent, {
  download: () => Effect.fail(new Errors.NotFound({ resource: "File", id: "x" }))
} as unknown as SpaceContent["Service"])

/** The `.gitbook.yaml` redirects of space1, as Git sync would give them. */
const spaceRedirects = Layer.succeed(SpaceRedirects, SpaceRedirects.of({
  forSpace: (spaceId) =>
    Effect.succeed(spaceId === "space1"
      ? [{ source: "setup/docker", target: "deploy/docker.md" }, { source: "nowhere", target: "deploy/missing.md" }, { source: "old-docker", target: "deploy/missing.md" }]
      : [])
}))

const testLayer = SiteRenderer.layer.pipe(
  Layer.provide([spaceRedirects, SpecOperations.layerNone, SiteQuestionRecorder.layer.pipe(Layer.provide([SiteQuestionsRepo.layerMemory, Ids.Ids.layer]))]),
  Layer.provideMerge(Layer.mergeAll(spaceContent, PublishedContent.layer, CodeHighlighter.layer)),
  Layer.provideMerge(Layer.mergeAll(RevisionsRepo.layerMemory, SearchIndex.layerMemory, RedirectsRepo.layerMemory, SpacesRepo.layerMemory, ParsePool.layerMainThread))
)

const store = (id: string, introText: string) =>
  Effect.gen(function*() {
    const revisions = yield* RevisionsRepo
    const docs = new Map([introText, "Install.", markdown.docker!, markdown.secret!].map((m) => [documentHash(m), m] as const))
    yield* revisions.insert(revision(id, introText), docs)
    yield* (yield* SearchIndex).update("space1", [{ pageId: "docker", title: "Docker", path: "deploy/install/docker", sections: [{ id: "run", title: "Run", body: "Run with a whale." }] }], [])
  })

const render = (rev: string, path: string, query = "", json = false, claims: Readonly<Record<string, unknown>> = {}) =>
  Effect.flatMap(Effect.service(SiteRenderer), (renderer) =>
    renderer.render({ site: site(rev), root: "http://quire.test/~sites/site1/", path, query: new URLSearchParams(query), claims, noindex: false, json }))

const html = (answer: RenderAnswer): string => {
  assert.strictEqual(answer.kind, "Html")
  return answer.kind === "Html" ? answer.html : ""
}

/** The links of the tree marked as the page read, and those of the branches open. */
const current = (doc: string) => [...doc.matchAll(/<a class="tree-link" href="([^"]+)" aria-current="page">/g)].map((m) => m[1])
const open = (doc: string) => [...doc.matchAll(/<details class="tree-branch" open><summary><a class="tree-link" href="([^"]+)"/g)].map((m) => m[1])

layer(testLayer)("SiteRenderer", (it) => {
  it.effect("renders the home page with the sidebar's groups, nested pages and links, toc and next", () =>
    Effect.gen(function*() {
      yield* store("r1", markdown.intro!)
      const home = html(yield* render("r1", ""))
      assert.include(home, "Acme Docs")
      assert.include(home, "Welcome.")
      assert.include(home, "Deploy")
      assert.include(home, `href="/~sites/site1/deploy/install/docker"`)
      assert.include(home, `href="/~sites/site1/deploy/install/docker#run"`)
      assert.include(home, "https://example.com/changelog")
      // A link page to a heading (a SUMMARY.md entry `[Running it](docker.md#run)`) lands on it.
      assert.match(home, /href="\/~sites\/site1\/deploy\/install\/docker#run"[^>]*>(?:<[^>]+>)*Running it/)
      // A page's link title is its label in the sidebar.
      assert.include(home, "Installing")
      assert.notInclude(home, ">Secret<")
      assert.include(home, `href="#first-steps"`)
      assert.notInclude(home, "nonce=")
      assert.include(home, "#112233")
      assert.include(home, `href="https://example.com/blog"`)
      assert.include(home, `href="https://example.com/about"`)
      assert.include(home, "© Acme")
    }))

  it.effect("renders a nested page with previous/next and its edit-on-Git link; a hidden page by URL; groups redirect", () =>
    Effect.gen(function*() {
      yield* store("r1", markdown.intro!)
      const docker = html(yield* render("r1", "deploy/install/docker"))
      assert.include(docker, "Run with a whale.")
      assert.include(docker, `href="/~sites/site1/deploy/install"`)
      assert.include(docker, "https://github.com/acme/docs/blob/main/deploy/docker.md")
      assert.include(html(yield* render("r1", "secret")), "Hidden page.")
      const group = yield* render("r1", "deploy")
      assert.deepStrictEqual(group, { kind: "Redirect", location: "/~sites/site1/deploy/install" })
      const missing = yield* render("r1", "nope")
      assert.strictEqual(missing.kind === "Html" && missing.status, 404)
    }))

  it.effect("answers markdown, machine files and search", () =>
    Effect.gen(function*() {
      yield* store("r1", markdown.intro!)
      const md = yield* render("r1", "deploy/install/docker.md")
      // The page's title first, as GitBook's .md answers.
      assert.strictEqual(md.kind === "Text" && md.body, `# Docker\n\n${markdown.docker}`)
      const sitemap = yield* render("r1", "sitemap.xml")
      assert.isTrue(sitemap.kind === "Text" && sitemap.body.includes("<loc>http://quire.test/~sites/site1/deploy/install/docker</loc>"))
      assert.isTrue(sitemap.kind === "Text" && !sitemap.body.includes("secret"))
      const llms = yield* render("r1", "llms.txt")
      assert.isTrue(llms.kind === "Text" && llms.body.includes("[Docker](http://quire.test/~sites/site1/deploy/install/docker.md)"))
      const search = yield* render("r1", "~search", "q=whale", true)
      assert.deepStrictEqual(search, {
        kind: "Json",
        body: { items: [{ title: "Docker", url: "/~sites/site1/deploy/install/docker#run", snippet: "Run with a whale.", section: undefined }] }
      })
    }))

  it.effect("shows a page's frontmatter: its cover file at its height and offset, its icon, its layout", () =>
    Effect.gen(function*() {
      const revisions = yield* RevisionsRepo
      const body = "Start here.\n\n## Install\n\nRun it."
      const chrome: Revision = {
        ...revision("rc", markdown.intro!),
        pages: [
          page("intro", "Quickstart", "intro", {
            document: documentHash(body),
            description: "Five minutes.",
            icon: "rocket-launch",
            cover: { ref: { kind: "file", file: "hero" }, yPos: -30, height: 320 },
            layout: { width: "wide", coverSize: "full", description: false, outline: false, tableOfContents: false }
          })
        ],
        files: [{ id: "hero", name: "hero.png", contentType: "image/png", size: 10, blob: "b" }]
      }
      yield* revisions.insert(chrome, new Map([[documentHash(body), body]]))
      const doc = html(yield* render("rc", ""))
      assert.match(doc, /<figure class="page-cover cover-full" style="--cover-height:320px"><img src="\/~sites\/site1\/~files\/space1\/hero" alt="" style="height:calc\(100% \+ 30px\);margin-top:-30px"><\/figure>/)
      assert.match(doc, /<h1><span class="page-icon" aria-hidden="true"><svg class="fa-icon"[^>]*><path d="[^"]+"\/><\/svg><\/span> Quickstart<\/h1>/)
      assert.include(doc, `class="layout sidebar-default no-sidebar page-wide no-outline with-cover-full"`)
      assert.notInclude(doc, `<p class="page-description">`)
      assert.notInclude(doc, `class="toc"`)
      const md = yield* render("rc", "intro.md")
      assert.strictEqual(md.kind === "Text" && md.body, `# Quickstart\n\nFive minutes.\n\n${body}`)
    }))

  it.effect("a new revision gives a new page and ETag; the same revision the cached one", () =>
    Effect.gen(function*() {
      yield* store("r1", markdown.intro!)
      const first = yield* render("r1", "")
      const again = yield* render("r1", "")
      assert.strictEqual(first, again)
      yield* store("r2", "Welcome anew.")
      const next = yield* render("r2", "")
      assert.include(html(next), "Welcome anew.")
      assert.notStrictEqual(next.kind === "Html" && next.etag, first.kind === "Html" && first.etag)
    }))

  it.effect("each page of a revision marks itself in the tree all its pages share, its branches open; a new revision or root gets its own tree", () =>
    Effect.gen(function*() {
      yield* store("r1", markdown.intro!)
      const home = html(yield* render("r1", ""))
      assert.deepStrictEqual([current(home), open(home)], [["/~sites/site1/"], []])
      const docker = html(yield* render("r1", "deploy/install/docker"))
      assert.deepStrictEqual([current(docker), open(docker)], [["/~sites/site1/deploy/install/docker"], ["/~sites/site1/deploy/install"]])
      const install = html(yield* render("r1", "deploy/install"))
      assert.deepStrictEqual([current(install), open(install)], [["/~sites/site1/deploy/install"], ["/~sites/site1/deploy/install"]])
      assert.include(install, `<a class="pager next" rel="next" href="/~sites/site1/deploy/install/docker">`)
      const missing = yield* render("r1", "nope")
      assert.deepStrictEqual([current(html(missing)), open(html(missing))], [[], []])
      const elsewhere = yield* Effect.flatMap(Effect.service(SiteRenderer), (renderer) =>
        renderer.render({ site: site("r1"), root: "http://docs.test/", path: "deploy/install/docker", query: new URLSearchParams(), claims: {}, noindex: false }))
      assert.deepStrictEqual([current(html(elsewhere)), open(html(elsewhere))], [["/deploy/install/docker"], ["/deploy/install"]])
      const revisions = yield* RevisionsRepo
      const renamed = revision("r5", markdown.intro!)
      yield* revisions.insert(
        { ...renamed, pages: renamed.pages.map((p) => p.id === "intro" ? { ...p, title: "Start here" } : p) },
        new Map([markdown.intro!, "Install.", markdown.docker!, markdown.secret!].map((m) => [documentHash(m), m] as const))
      )
      const next = html(yield* render("r5", "deploy/install/docker"))
      assert.include(next, `<a class="tree-link" href="/~sites/site1/"><span>Start here</span></a>`)
      assert.deepStrictEqual([current(next), open(next)], [["/~sites/site1/deploy/install/docker"], ["/~sites/site1/deploy/install"]])
    }))

  it.effect("a page's {% if %} shows each reader the branch of their claims, even when the site's own conditions read none", () =>
    Effect.gen(function*() {
      yield* store("r3", "{% if visitor.claims.beta %}\nBeta notes.\n{% else %}\nStable notes.\n{% endif %}")
      const anonymous = html(yield* render("r3", ""))
      const beta = html(yield* render("r3", "", "", false, { beta: true }))
      const other = html(yield* render("r3", "", "", false, { beta: false, plan: "pro" }))
      assert.include(anonymous, "Stable notes.")
      assert.notInclude(anonymous, "Beta notes.")
      assert.include(beta, "Beta notes.")
      assert.notInclude(beta, "Stable notes.")
      assert.include(other, "Stable notes.")
      assert.notInclude(html(yield* render("r3", "")), "Beta notes.")
    }))

  it.effect("serves KaTeX, Mermaid and the page script from the site; a page with formulas and players allows exactly those", () =>
    Effect.gen(function*() {
      yield* store("r4", "Area $$\\pi r^2$$.\n\n{% embed url=\"https://www.youtube.com/watch?v=D_uLM5i0Z4c\" %}")
      const page = yield* render("r4", "")
      assert.include(html(page), `<link rel="stylesheet" href="/~sites/site1/~assets/katex/katex.min.css">`)
      assert.include(html(page), `<script src="/~sites/site1/~assets/blocks.js" defer></script>`)
      const policy = page.kind === "Html" ? page.policy : ""
      assert.include(policy, "http://quire.test/~sites/site1/~assets/blocks.js")
      assert.include(policy, "http://quire.test/~sites/site1/~assets/katex/katex.min.css")
      assert.match(policy, /frame-src https:\/\/www\.youtube-nocookie\.com /)
      const css = yield* render("r4", "~assets/katex/katex.min.css")
      assert.isTrue(css.kind === "Text" && css.contentType.startsWith("text/css") && css.body.includes("KaTeX_Main"))
      const font = yield* render("r4", "~assets/katex/fonts/KaTeX_Main-Regular.woff2")
      assert.isTrue(font.kind === "File" && font.contentType === "font/woff2" && font.bytes.length > 1000)
      const script = yield* render("r4", "~assets/blocks.js")
      assert.isTrue(script.kind === "Text" && script.body.includes("embed-play"))
      const missing = yield* render("r4", "~assets/katex/../../package.json")
      assert.strictEqual(missing.kind === "Html" && missing.status, 404)
    }))

  it.effect("answers a path without a page with the site's live redirect: exact, or the longest wildcard with its rest", () =>
    Effect.gen(function*() {
      yield* store("r-redirects", "Welcome.")
      const repo = yield* RedirectsRepo
      const base = { siteId: "site1", draft: false, captureWildcard: false, permanent: false, createdAt: new Date(at), updatedAt: null }
      yield* repo.insert({ ...base, id: "rd1", source: "/old-docker", permanent: true, destination: { kind: "site-page", siteSpaceId: "ss1", pageId: "docker" } })
      yield* repo.insert({ ...base, id: "rd2", source: "/blog/*", captureWildcard: true, destination: { kind: "external", url: "https://example.com/news" } })
      yield* repo.insert({ ...base, id: "rd3", source: "/deploy/install", destination: { kind: "external", url: "https://example.com/never" } })
      yield* repo.insert({ ...base, id: "rd4", source: "/soon", draft: true, destination: { kind: "external", url: "https://example.com/draft" } })
      yield* repo.insert({ ...base, id: "rd5", source: "/gone-page", destination: { kind: "site-page", siteSpaceId: "ss1", pageId: "missing" } })
      assert.deepStrictEqual(yield* render("r-redirects", "old-docker"), { kind: "Redirect", location: "/~sites/site1/deploy/install/docker", status: 308 })
      assert.deepStrictEqual(yield* render("r-redirects", "old-docker/"), { kind: "Redirect", location: "/~sites/site1/deploy/install/docker", status: 308 })
      assert.deepStrictEqual(yield* render("r-redirects", "blog/2024/post"), { kind: "Redirect", location: "https://example.com/news/2024/post", status: 307 })
      // A permanent redirect is 308 only to public traffic: a share-link site's readers get 307.
      const shared = yield* Effect.flatMap(Effect.service(SiteRenderer), (renderer) => {
        const published = site("r-redirects")
        return renderer.render({
          site: { ...published, site: { ...published.site, visibility: "share-link" } },
          root: "http://quire.test/~sites/site1/",
          path: "old-docker",
          query: new URLSearchParams(),
          claims: {},
          noindex: true
        })
      })
      assert.deepStrictEqual(shared, { kind: "Redirect", location: "/~sites/site1/deploy/install/docker", status: 307 })
      // A page that exists is served, a redirect from its path notwithstanding; drafts and destinations that are gone answer nothing.
      assert.strictEqual((yield* render("r-redirects", "deploy/install")).kind, "Html")
      // The space's own redirects (`.gitbook.yaml`) come after the site's, below the site space's URL, to the page of the file.
      assert.deepStrictEqual(yield* render("r-redirects", "setup/docker"), { kind: "Redirect", location: "/~sites/site1/deploy/install/docker", status: 308 })
      for (const path of ["soon", "gone-page", "nowhere"]) {
        const answer = yield* render("r-redirects", path)
        assert.strictEqual(answer.kind === "Html" ? answer.status : answer.kind, 404)
      }
    }))
})
