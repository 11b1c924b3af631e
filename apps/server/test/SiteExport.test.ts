/** A published site as static files (exportSite and its signed zip), through the typed client. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { unzipSync } from "fflate"
import { createContext, runInContext } from "node:vm"
import { baseUrl, errorCode, inviteAndAccept, memoryAndPostgres, newUser, publicUrl } from "./Harness.ts"
import { get, png, publishedSite } from "./SiteFixtures.ts"

/** The export's files, downloaded from the link `exportSite` answered. */
const downloadExport = Effect.fnUntraced(function*(url: string) {
  const base = yield* baseUrl
  assert.isTrue(url.startsWith(`${publicUrl}/~exports/`), url)
  const response = yield* Effect.promise(() => fetch(`${base}${url.slice(publicUrl.length)}`))
  assert.strictEqual(response.status, 200)
  assert.strictEqual(response.headers.get("content-type"), "application/zip")
  assert.match(response.headers.get("content-disposition") ?? "", /attachment; filename="Handbook\.zip"/)
  return unzipSync(new Uint8Array(yield* Effect.promise(() => response.arrayBuffer())))
})

const text = (files: Record<string, Uint8Array>, name: string): string => {
  const file = files[name]
  assert.isDefined(file, `${name} is in the export (it holds ${Object.keys(files).toSorted().join(", ")})`)
  return new TextDecoder().decode(file)
}

/** The relative links (`href`/`src`) of a page that point at files of the export, resolved from its own file. */
const localTargets = (html: string, file: string): Array<string> =>
  [...html.matchAll(/\s(?:href|src)="([^"#]*)(?:#[^"]*)?"/g)]
    .map((m) => m[1]!.replace(/&amp;/g, "&"))
    .filter((url) => url !== "" && !/^[a-z]+:/i.test(url))
    .map((url) => decodeURIComponent(new URL(url, `file:///x/${file}`).pathname.slice("/x/".length)))

/** The export's own search (its index and script, run as a page would), answering `query` as titles and URLs. */
const offlineSearch = (files: Record<string, Uint8Array>) => {
  const context: Record<string, unknown> = { document: { currentScript: null, querySelector: () => null } }
  context["window"] = context
  createContext(context)
  runInContext(text(files, "~export/search-index.js"), context)
  runInContext(text(files, "~export/search.js"), context)
  const search = context["quireSearch"] as (query: string) => ReadonlyArray<{ readonly title: string; readonly url: string; readonly score: number; readonly section: string }>
  return (query: string) => search(query)
}

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`site export on ${backend.name}`, (it) => {
    it.effect("writes every page, its markdown, the machine files, the image and a search index, linked relatively", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite()
        const link = yield* site.api.siteExport.exportSite({ params: site.siteParams })
        assert.strictEqual(link.object, "site-export")
        assert.strictEqual(link.visibility, "public")
        assert.isNull(link.notice)
        const files = yield* downloadExport(link.url)
        const names = Object.keys(files)

        // Pages of the default section and variant at the root, nested pages in folders, other sections below their paths.
        for (const name of ["index.html", "install/index.html", "install/docker/index.html", "configure/index.html", "index.md", "install/docker.md", "sitemap.xml", "robots.txt", "llms.txt", "llms-full.txt", "~export/search.js", "~export/search-index.js"]) {
          assert.include(names, name)
        }
        const apiPage = names.find((name) => name.endsWith("/index.html") && text(files, name).includes("The endpoints."))
        assert.isDefined(apiPage, "the API section's page is exported")
        assert.include(text(files, "install/docker.md"), "Docker steps with giraffes.")
        assert.include(text(files, "llms-full.txt"), "Docker steps with giraffes.")
        assert.include(text(files, "sitemap.xml"), `${publicUrl}/~sites/${site.siteId}/install/docker`)
        // The section only visitors with the beta claim see is not in a public export.
        assert.notInclude(names.map((name) => text(files, name)).join("\n"), "Secret beta okapis")

        // The image the introduction shows, as stored.
        const image = names.find((name) => name.startsWith("~files/"))
        assert.isDefined(image)
        assert.deepStrictEqual(Buffer.from(files[image!]!), png)

        // Every link to the site is relative and names a file of the export.
        const docker = text(files, "install/docker/index.html")
        assert.notInclude(docker.replace(/<link rel="canonical"[^>]*>/, ""), `href="/~sites/`)
        assert.include(docker, `href="../../index.html"`)
        for (const name of names.filter((n) => n.endsWith(".html"))) {
          for (const target of localTargets(text(files, name), name)) assert.include(names, target, `${name} links to ${target}`)
        }
        assert.include(text(files, "index.html"), `src="${image!.split("/").map(encodeURIComponent).join("/")}"`)

        // The search index holds each page's sections: a word of a body finds its page.
        const index = text(files, "~export/search-index.js")
        assert.match(index, /^window\.quireSearchIndex=/)
        const pages = JSON.parse(index.slice("window.quireSearchIndex=".length).replace(/;\s*$/, "")).pages as Array<{ title: string; url: string; sections: Array<[string, string, string]> }>
        const found = pages.find((page) => page.sections.some(([, , body]) => body.includes("giraffes")))
        assert.strictEqual(found?.title, "Docker")
        assert.strictEqual(found?.url, "install/docker/index.html")

        // The export's search finds the pages the site's `~search` finds, and on memory the same best page.
        const offline = offlineSearch(files)
        for (const query of ["giraffes", "install", "zebr", "docker or configure", "install -docker", "the install"]) {
          const online = JSON.parse((yield* get(`${site.path}~search?q=${encodeURIComponent(query)}`, { accept: "application/json" })).text) as { items: Array<{ title: string; section?: string }> }
          const found = offline(query)
          // Each page with the section the site names it in.
          const named = (items: ReadonlyArray<{ readonly title: string; readonly section?: string | undefined }>) => items.map((r) => `${r.title} (${r.section || "-"})`).toSorted()
          assert.deepStrictEqual(named(found), named(online.items), query)
          // The order is the memory index's (PostgreSQL's ts_rank also counts repetitions); pages of the same score are in no particular order.
          if (backend.name === "memory" && found.length > 0 && (found[1] === undefined || found[1].score < found[0]!.score)) assert.strictEqual(found[0]!.title, online.items[0]!.title, `${query}: the best page`)
        }
        assert.strictEqual(offline("giraffes")[0]?.url, "install/docker/index.html")
      }))

    it.effect("is for the site's editors: a reader of the organization is refused, another organization finds nothing", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite()
        const reader = yield* newUser("Reader")
        yield* inviteAndAccept(site.api, site.organizationId, reader, "read")
        assert.strictEqual(errorCode(yield* Effect.flip(reader.api.siteExport.exportSite({ params: site.siteParams }))), 403)
        const outsider = yield* newUser("Outsider")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.siteExport.exportSite({ params: site.siteParams }))), 404)
        // A link that was tampered with opens nothing.
        const link = yield* site.api.siteExport.exportSite({ params: site.siteParams })
        const base = yield* baseUrl
        const forged = yield* Effect.promise(() => fetch(`${base}${link.url.slice(publicUrl.length)}x`))
        assert.strictEqual(forged.status, 404)
      }))

    it.effect("a visitor-auth site exports what its public audience sees, and says so", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("visitor-auth")
        const link = yield* site.api.siteExport.exportSite({ params: site.siteParams })
        assert.strictEqual(link.visibility, "visitor-auth")
        assert.match(link.notice ?? "", /only what its public audience sees/)
        const files = yield* downloadExport(link.url)
        assert.include(text(files, "install/docker/index.html"), "Docker steps with giraffes.")
        assert.notInclude(Object.keys(files).map((name) => text(files, name)).join("\n"), "Secret beta okapis")
        assert.include(text(files, "robots.txt"), "Disallow: /")
      }))
  })
}
