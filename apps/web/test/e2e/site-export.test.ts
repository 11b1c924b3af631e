/**
 * A published site as static files: the dashboard's "Download as static files" downloads the export;
 * unpacked and served by a plain static file server (at its root and under a subdirectory) and from
 * `file://`, every page is crawled in Chromium with every link and asset resolving, and the site's
 * search box finds a page by a word of its body with no Quire server behind it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { dirname, extname, join, normalize } from "node:path"
import { pathToFileURL } from "node:url"
import { unzipSync } from "fflate"
import type { Download, Page } from "playwright-core"
import { expect, inject, it } from "vitest"
import { open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64")

const bytesOf = async (download: Download): Promise<Buffer> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

const types: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".md": "text/markdown", ".txt": "text/plain", ".xml": "application/xml", ".woff2": "font/woff2" }

/** A plain static file server of `root`: a path is a file below it, or 404. */
const serveFiles = (root: string) =>
  new Promise<{ readonly url: string; readonly server: Server }>((resolve) => {
    const server = createServer((request, response) => {
      const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname))
      const file = join(root, path)
      try {
        if (!file.startsWith(root) || !statSync(file).isFile()) throw new Error("not a file")
        response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" })
        response.end(readFileSync(file))
      } catch {
        response.writeHead(404).end("not found")
      }
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({ url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`, server })
    })
  })

/**
 * Every page reachable from `start` by the links of the pages, each loaded in Chromium: every
 * `href` and `src` of the export (the canonical link names the live site) answers, and nothing the
 * page loads fails. Answers the pages' addresses.
 */
const crawl = async (page: Page, start: string): Promise<Set<string>> => {
  const seen = new Set<string>([start])
  const queue = [start]
  const origin = new URL(start).origin
  const failed: Array<string> = []
  page.on("requestfailed", (request) => failed.push(`${request.url()} (${request.failure()?.errorText})`))
  page.on("response", (response) => {
    if (response.status() >= 400) failed.push(`${response.url()} (${response.status()})`)
  })
  while (queue.length > 0) {
    const at = queue.shift()!
    await page.goto(at)
    const refs = await page.evaluate(() =>
      [...document.querySelectorAll("[href], [src]")]
        .filter((element) => !(element.tagName === "LINK" && element.getAttribute("rel") === "canonical"))
        .map((element) => (element as HTMLAnchorElement).href || (element as HTMLImageElement).src))
    for (const ref of refs) {
      const target = new URL(ref)
      if (target.origin !== origin) continue
      target.hash = ""
      const address = target.toString()
      if (seen.has(address)) continue
      seen.add(address)
      if (address.endsWith(".html")) queue.push(address)
      else {
        const response = await page.request.get(address)
        expect(response.status(), `${address}, linked from ${at}`).toBe(200)
      }
    }
  }
  expect(failed).toEqual([])
  return new Set([...seen].filter((address) => address.endsWith(".html")))
}

/** Types `word` in the site's search box: the result titled `title` is offered, and opens its page. */
const searchFinds = async (page: Page, word: string, title: string) => {
  await page.getByRole("searchbox").first().fill(word)
  const result = page.getByRole("option").filter({ hasText: title }).first()
  await result.waitFor()
  await result.click()
  await expect.poll(() => page.locator("h1").first().textContent()).toContain(title)
}

it("downloads a published site from its dashboard, and the files run from a static server, a subdirectory and file://", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Export Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Field guide" })
  const reference = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Reference" })
  const seed = async (spaceId: string, changes: ReadonlyArray<unknown>) => {
    const cr = await api<{ id: string }>(url, "POST", `/spaces/${spaceId}/change-requests`, { subject: "Seed" })
    await api(url, "POST", `/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes })
    await api(url, "POST", `/spaces/${spaceId}/change-requests/${cr.id}/merge`)
  }
  await seed(space.id, [
    { operation: "insert_files", files: [{ name: "dot.png", contentType: "image/png", base64: png.toString("base64") }] },
    { operation: "insert_page", title: "Welcome", slug: "welcome", document: { markdown: "Welcome, reader.\n\n![A dot](.gitbook/assets/dot.png)\n\nSee [the animals](animals/mammals/okapi.md).\n" } },
    { operation: "insert_page", ref: "animals", title: "Animals", slug: "animals", document: { markdown: "All the animals.\n" } },
    { operation: "insert_page", ref: "mammals", title: "Mammals", slug: "mammals", into: "animals", document: { markdown: "Mammals here.\n" } },
    { operation: "insert_page", title: "Okapi", slug: "okapi", into: "mammals", document: { markdown: "## Habitat\n\nThe okapi lives in rainforests with pangolins.\n" } }
  ])
  await seed(reference.id, [{ operation: "insert_page", title: "Glossary", slug: "glossary", document: { markdown: "Words and their meanings.\n" } }])
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Field site" })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/sections`, { spaceId: space.id, title: "Guide" })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/sections`, { spaceId: reference.id, title: "Reference" })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/publish`)

  const dir = mkdtempSync(join(tmpdir(), "quire-site-export-"))
  const session = await open(browser(), url)
  const { page, context } = session
  const servers: Array<Server> = []
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/sites/${site.id}`)
    const button = page.getByRole("region", { name: "Published" }).getByRole("button", { name: "Download as static files" })
    const [download] = await Promise.all([page.waitForEvent("download"), button.click()])
    expect(download.suggestedFilename()).toBe("Field site.zip")
    const files = unzipSync(new Uint8Array(await bytesOf(download)))
    // The same files at the root of one host and in a subdirectory of another.
    for (const root of [join(dir, "root"), join(dir, "sub", "docs", "site")]) {
      for (const [name, bytes] of Object.entries(files)) {
        mkdirSync(dirname(join(root, name)), { recursive: true })
        writeFileSync(join(root, name), bytes)
      }
    }
    expect(Object.keys(files)).toContain("animals/mammals/okapi/index.html")

    const reader = await context.newPage()
    for (const [root, start] of [[join(dir, "root"), "/index.html"], [join(dir, "sub"), "/docs/site/index.html"]] as const) {
      const served = await serveFiles(root)
      servers.push(served.server)
      const pages = await crawl(reader, `${served.url}${start}`)
      const base = `${served.url}${start.slice(0, -"index.html".length)}`
      for (const path of ["index.html", "animals/index.html", "animals/mammals/index.html", "animals/mammals/okapi/index.html"]) expect(pages).toContain(`${base}${path}`)
      // The second section's home page, at the section's path.
      expect([...pages].some((address) => address.endsWith("/reference/index.html")), [...pages].join(", ")).toBe(true)
      await reader.goto(`${base}index.html`)
      const image = reader.locator("img[alt='A dot']")
      await image.scrollIntoViewIfNeeded()
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1)
      await searchFinds(reader, "pangolins", "Okapi")
    }

    // From the file system, with no server at all.
    await reader.goto(pathToFileURL(join(dir, "root", "index.html")).toString())
    await searchFinds(reader, "rainfor", "Okapi")
    expect(reader.url()).toMatch(/^file:.*\/animals\/mammals\/okapi\/index\.html#habitat$/)
  } finally {
    for (const server of servers) server.close()
    await context.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
