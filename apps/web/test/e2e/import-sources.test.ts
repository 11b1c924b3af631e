/**
 * Every import source, end to end: through the space's Import screen an editor imports a
 * Confluence export, a Notion export, a Word document, MkDocs, Docusaurus and Docsify folders
 * (zips) and a website (served here on localhost), all into one space published on one site. On
 * the published site an imported page of each source shows its images (loaded: naturalWidth > 0)
 * and its links to other imported pages open them. Then a Docsify zip imported "as a change
 * request" lands in a new change request, the space's pages unchanged until it is merged.
 * `QUIRE_SCREENSHOTS=1` writes docs/images/imports/<source>.png (the published pages) and the
 * app's screens to test/artifacts.
 */
import { zipSync } from "fflate"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Page } from "playwright-core"
import { expect, inject, it } from "vitest"
import { filesOfFolder } from "@quire/testkit"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { captureScreen, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()
const fixtures = fileURLToPath(new URL("../../../../packages/content/test/importing/fixtures/", import.meta.url))
const docsImages = fileURLToPath(new URL("../../../../docs/images/imports/", import.meta.url))

const zipOf = (dir: string): Buffer => Buffer.from(zipSync(filesOfFolder(join(fixtures, dir))))

/** A small documentation website: two pages linking each other, each showing an image of its own. */
const website = () => {
  const pngs: Record<string, Buffer> = {
    "/img/map.png": readFileSync(join(fixtures, "mkdocs/docs/img/architecture.png")),
    "/img/trail.png": readFileSync(join(fixtures, "docusaurus/docs/img/flow.png"))
  }
  const html: Record<string, string> = {
    "/": `<!doctype html><html><head><title>Field Guide</title></head><body><nav><a href="/">Home</a></nav><main><h1>Field Guide</h1>
<p>Everything a ranger needs on day one. Read about the <a href="/trails.html">trails</a> next.</p>
<p><img src="/img/map.png" alt="Park map" width="320" height="160"></p></main></body></html>`,
    "/trails.html": `<!doctype html><html><head><title>Trails</title></head><body><main><h1>Trails</h1>
<p>The ridge trail takes four hours. Back to the <a href="/">field guide</a>.</p>
<p><img src="img/trail.png" alt="Trail profile"></p></main></body></html>`
  }
  const server = createServer((request, response) => {
    const path = request.url ?? "/"
    if (html[path] !== undefined) response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html[path])
    else if (pngs[path] !== undefined) response.writeHead(200, { "content-type": "image/png" }).end(pngs[path])
    else response.writeHead(404).end()
  })
  return server
}

interface Run {
  readonly id: string
  readonly status: string
  readonly reason?: string
  readonly target: { readonly changeRequest?: string }
  readonly pages: ReadonlyArray<{ readonly id: string }>
  readonly progress: { readonly files: number }
}
interface Listed { readonly id: string; readonly title: string; readonly path?: string; readonly pages?: ReadonlyArray<Listed> }
const flat = (items: ReadonlyArray<Listed>): Array<Listed> => items.flatMap((item) => [item, ...flat(item.pages ?? [])])

interface Source {
  readonly name: string
  readonly kind: string
  readonly file?: { readonly name: string; readonly mimeType: string; readonly buffer: Buffer }
  readonly pages: number
  readonly images: number
  /** The imported page shown on the site: it has images, and links to other imported pages. */
  readonly page: string
  readonly text: string
}

const sources = (): ReadonlyArray<Source> => [
  { name: "confluence", kind: "confluence", file: { name: "Confluence-space-export-ENG.html.zip", mimeType: "application/zip", buffer: zipOf("confluence") }, pages: 4, images: 2, page: "Onboarding", text: "Your accounts are ready after 24 hours." },
  { name: "notion", kind: "notion", file: { name: "Export-2f1e8b0c.zip", mimeType: "application/zip", buffer: zipOf("notion") }, pages: 6, images: 2, page: "Getting Started", text: "Request access." },
  { name: "docx", kind: "docx", file: { name: "release-notes.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: readFileSync(join(fixtures, "release-notes.docx")) }, pages: 1, images: 1, page: "Release Notes 4.2", text: "Sync is twice as fast." },
  { name: "mkdocs", kind: "markdown", file: { name: "acme-mkdocs.zip", mimeType: "application/zip", buffer: zipOf("mkdocs") }, pages: 5, images: 1, page: "Home", text: "Welcome. Start with the" },
  { name: "docusaurus", kind: "markdown", file: { name: "widgets-docusaurus.zip", mimeType: "application/zip", buffer: zipOf("docusaurus") }, pages: 4, images: 1, page: "Create a Page", text: "to create a page." },
  { name: "docsify", kind: "markdown", file: { name: "gizmo-docsify.zip", mimeType: "application/zip", buffer: zipOf("docsify") }, pages: 4, images: 1, page: "Home", text: "A gizmo for everything." },
  { name: "website", kind: "website", pages: 2, images: 2, page: "Field Guide", text: "Everything a ranger needs on day one." }
]

/** Starts an import on the screen and waits for its run to complete; answers it. */
const importOnScreen = async (page: Page, runs: () => Promise<ReadonlyArray<Run>>, source: Source, websiteUrl: string, asChangeRequest = false): Promise<Run> => {
  const before = (await runs()).length
  await page.getByLabel("What are you importing?").selectOption(source.kind)
  if (source.file === undefined) await page.getByLabel("Website address").fill(websiteUrl)
  else await page.getByLabel("File", { exact: true }).setInputFiles(source.file)
  await page.getByRole("radio", { name: asChangeRequest ? /Propose them in a new change request/ : /Straight into the space/ }).check()
  await page.getByRole("button", { name: "Start the import" }).click()
  const status = page.locator(".import-screen > .status")
  // A run into a change request opens it once done, leaving this screen.
  if (asChangeRequest) await page.waitForURL("**/~/changes/**", { timeout: 90_000 })
  else await expect.poll(() => status.textContent(), { timeout: 90_000 }).toMatch(/^Import: (Imported|Failed)/)
  const [run] = await eventually(`the ${source.name} run`, runs, (items) => items.length === before + 1 && items[0]?.status !== "pending" && items[0]?.status !== "in-progress")
  expect(run!.reason).toBeUndefined()
  expect(run!.status).toBe("completed")
  return run!
}

/** The page's images in its content have loaded (naturalWidth > 0); answers how many there are. */
const imagesLoaded = async (page: Page): Promise<number> => {
  const images = page.locator("main img")
  await expect.poll(() => images.evaluateAll((all) => all.every((img) => (img as HTMLImageElement).complete)), { timeout: 30_000 }).toBe(true)
  const widths = await images.evaluateAll((all) => all.map((img) => (img as HTMLImageElement).naturalWidth))
  expect(widths.every((width) => width > 0), `every image loads: ${JSON.stringify(widths)}`).toBe(true)
  return widths.length
}

/** The links of the page's content into the site (other pages); each answers 200. */
const linksResolve = async (page: Page, siteRoot: string): Promise<number> => {
  const hrefs = await page.locator("main .page a[href]").evaluateAll((all) => all.map((a) => (a as HTMLAnchorElement).href))
  const internal = [...new Set(hrefs.map((href) => href.split("#")[0]!))]
    .filter((href) => new URL(href).pathname.startsWith(siteRoot) && !/\/~(files|search)/.test(new URL(href).pathname) && new URL(href).pathname !== new URL(page.url()).pathname)
  for (const href of internal) {
    const answer = await page.request.get(href)
    expect(answer.status(), href).toBe(200)
  }
  return internal.length
}

it("imports each source through the Import screen and shows its pages, images and links on the published site", async () => {
  const site = website()
  await new Promise<void>((done) => site.listen(0, done))
  const websiteUrl = `http://localhost:${(site.address() as AddressInfo).port}/`
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Imports Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Imported docs" })
  const published = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Imported docs", visibility: "public" })
  await api(url, "POST", `/orgs/${org.id}/sites/${published.id}/site-spaces`, { spaceId: space.id })
  await api(url, "POST", `/orgs/${org.id}/sites/${published.id}/publish`)
  const runs = () => api<{ items: ReadonlyArray<Run> }>(url, "GET", `/org/${org.id}/imports?space=${space.id}`).then((answer) => answer.items)
  const tree = async () => flat((await api<{ pages: ReadonlyArray<Listed> }>(url, "GET", `/spaces/${space.id}/content/pages`)).pages)
  const session = await open(browser(), url)
  const { page, problems } = session
  const siteRoot = `/~sites/${published.id}/`
  const summary: Array<string> = []
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/import`)
    await page.getByRole("heading", { name: "Import", level: 1 }).waitFor()

    // 1. Each source imported from the screen: its pages and its images stored as the space's files.
    const imported = new Map<string, Run>()
    for (const source of sources()) {
      const run = await importOnScreen(page, runs, source, websiteUrl)
      expect([source.name, run.pages.length, run.progress.files]).toEqual([source.name, source.pages, source.images])
      imported.set(source.name, run)
    }
    await captureScreen(page, "import-sources")

    // 2. On the published site: an imported page of each source, its images loaded and its links open.
    const pages = await tree()
    await page.setViewportSize({ width: 1280, height: 800 })
    for (const source of sources()) {
      const ids = new Set(imported.get(source.name)!.pages.map((p) => p.id))
      const found = pages.find((item) => ids.has(item.id) && item.title === source.page)
      expect(found?.path, `${source.name}: ${source.page}`).toBeDefined()
      const answer = await page.goto(`${siteRoot}${found!.path}`)
      expect(answer?.status()).toBe(200)
      await page.locator("main").getByText(source.text).first().waitFor()
      const images = await imagesLoaded(page)
      expect(images, `${source.name}: images shown`).toBeGreaterThan(0)
      const links = await linksResolve(page, siteRoot)
      if (source.name !== "docx") expect(links, `${source.name}: links to imported pages`).toBeGreaterThan(0)
      summary.push(`${source.name}: ${source.pages} pages, ${source.images} images; ${found!.path}: ${images} images shown, ${links} links open`)
      if (screenshotsWanted()) {
        await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" })
        await page.screenshot({ path: `${docsImages}${source.name}.png`, fullPage: true })
      }
    }
    console.log(summary.join("\n"))

    // 3. Imported as a change request: the pages go into a new change request, the space's main unchanged.
    const mainBefore = (await tree()).length
    await page.goto(`/s/${space.id}/~/import`)
    const docsify = sources().find((s) => s.name === "docsify")!
    const run = await importOnScreen(page, runs, docsify, websiteUrl, true)
    expect(run.target.changeRequest).toBeDefined()
    expect((await tree()).length).toBe(mainBefore)
    const cr = await api<{ number: number; subject: string }>(url, "GET", `/spaces/${space.id}/change-requests/${run.target.changeRequest}`)
    expect(cr.subject).toBe("Import of gizmo-docsify.zip")
    const crPages = flat((await api<{ pages: ReadonlyArray<Listed> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)).pages)
    expect(crPages.length).toBe(mainBefore + docsify.pages)
    // The screen opens the change request once the run is done.
    await page.waitForURL(`**/s/${space.id}/~/changes/${cr.number}**`, { timeout: 60_000 })
    await page.getByRole("navigation", { name: "Pages of the change request" }).getByText("Quick start").first().waitFor({ timeout: 30_000 })
    expect(problems).toEqual([])
  } finally {
    await session.context.close()
    site.close()
  }
})
