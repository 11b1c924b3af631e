/**
 * Links a page's author wrote with a scheme that runs (`javascript:`, `data:`) are not live in the
 * app: the review's diff, a revision's diff and the editor draw them with `href="#"`, as the
 * published site does (one filter: @quire/kernel SafeHref.ts); http(s) links stay as written.
 * And uploaded files, though on the app's origin (which its policy trusts as `'self'`), are never a
 * script or a stylesheet of the app; images, SVG included, still show; an SVG opened is a download.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { artifacts, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

const unsafe = [
  ["the script", "javascript:alert(document.domain)"],
  ["the shouted script", "JAVASCRIPT:alert(1)"],
  ["the data", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="],
  ["the vbscript", "vbscript:msgbox(1)"]
] as const

const markdown = (lead: string) =>
  `${lead}\n\nRead ${unsafe.map(([text, href]) => `[${text}](${href})`).join(", ")} or [the site](https://example.com/docs).\n`

/** In `scope` of `page`: every unsafe link drawn with `#`, the safe one as written, no live `javascript:`/`data:` link at all. */
const expectNeutralized = async (page: Page, scope: string, where: string) => {
  const area = page.locator(scope)
  for (const [text] of unsafe) {
    const link = area.locator("a", { hasText: text }).first()
    await link.waitFor()
    expect(await link.getAttribute("href"), `${where}: ${text}`).toBe("#")
  }
  expect(await area.locator("a", { hasText: "the site" }).first().getAttribute("href"), where).toBe("https://example.com/docs")
  const live = await page.evaluate(() =>
    Array.from(document.querySelectorAll("a[href]"), (a) => (a as HTMLAnchorElement).protocol).filter((p) => p !== "http:" && p !== "https:" && p !== "mailto:" && p !== "tel:"))
  expect(live, where).toEqual([])
}

it("javascript: and data: links are not live in the review, revision and editor views", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Unsafe Links Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Manual" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [{ operation: "insert_page", title: "Links", slug: "links", document: { markdown: "A first line.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const pages = await api<{ pages: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/spaces/${space.id}/content/pages`)
  const links = pages.pages.find((p) => p.title === "Links")!
  const added = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Add links" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${added.id}/content`, {
    changes: [{ operation: "update_page", page: links.id, document: { markdown: markdown("A first line.") } }]
  })

  const session = await open(browser(), url)
  const { page, context } = session
  try {
    await signInAsAdmin(session, url)

    // The review of the open change request: the added paragraph is drawn as the reader sees it.
    await page.goto(`/s/${space.id}/~/changes/${added.number}/~/review`)
    await page.getByRole("heading", { name: "Add links" }).waitFor()
    await expectNeutralized(page, ".review-diff", "review")
    if (screenshotsWanted()) await page.screenshot({ path: `${artifacts}unsafe-links-review.png`, fullPage: true })

    // A revision's diff, once merged.
    const merged = await api<{ revision: string }>(url, "POST", `/spaces/${space.id}/change-requests/${added.id}/merge`)
    await page.goto(`/s/${space.id}/~/revisions/${merged.revision}`)
    await expectNeutralized(page, ".revision-diff", "revision")
    if (screenshotsWanted()) await page.screenshot({ path: `${artifacts}unsafe-links-revision.png`, fullPage: true })

    // The editor of a new change request.
    const editing = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Edit links" })
    await page.goto(`/s/${space.id}/~/changes/${editing.number}/links`)
    await page.getByRole("textbox", { name: "Page content" }).getByText("A first line.").waitFor()
    await expectNeutralized(page, "[role=textbox]", "editor")
    if (screenshotsWanted()) await page.screenshot({ path: `${artifacts}unsafe-links-editor.png`, fullPage: true })

    // The markdown keeps what the author wrote: only the drawing is neutralized.
    const stored = await api<{ markdown?: string }>(url, "GET", `/spaces/${space.id}/content/page/${links.id}?format=markdown`)
    expect(stored.markdown).toContain("[the script](javascript:alert(document.domain))")
  } catch (error) {
    await page.screenshot({ path: `${artifacts}unsafe-links-failure.png` })
    throw error
  } finally {
    await context.close()
  }
})

const upload = (name: string, contentType: string, bytes: string | Buffer) => ({
  name,
  contentType,
  base64: (typeof bytes === "string" ? Buffer.from(bytes) : bytes).toString("base64")
})

const onePixelPng = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64")

it("uploaded files never run as the app's scripts or styles; images show; an SVG opened downloads", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Uploads Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Files" })
  const cr = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Files" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{
      operation: "insert_files",
      files: [
        upload("steal.js", "text/javascript", "window.pwned = true"),
        upload("theme.css", "text/css", "#upload-probe { color: rgb(255, 0, 0) }"),
        upload("drawing.svg", "image/svg+xml", `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>top.pwnedBySvg = true</script><rect width="10" height="10"/></svg>`),
        upload("pixel.png", "image/png", onePixelPng)
      ]
    }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/merge`)
  const files = await api<{ items: ReadonlyArray<{ name: string; downloadURL: string }> }>(url, "GET", `/spaces/${space.id}/content/files`)
  const path = (name: string) => new URL(files.items.find((file) => file.name === name)!.downloadURL).pathname

  const session = await open(browser(), url)
  const { page, context } = session
  try {
    await signInAsAdmin(session, url)
    // A page of the app, under the app's policy (`script-src 'self'`, `style-src 'self'`, `img-src 'self' ...`).
    await page.goto(`/s/${space.id}`)
    await page.getByRole("heading", { name: "Files" }).first().waitFor()
    const seen = await page.evaluate(async (paths) => {
      // A stylesheet refused for its type may fire neither event: after 3 s it counts as not loaded.
      const attach = (element: HTMLScriptElement | HTMLLinkElement) =>
        new Promise<string>((resolve) => {
          element.onload = () => resolve("loaded")
          element.onerror = () => resolve("refused")
          setTimeout(() => resolve("refused"), 3000)
          document.head.append(element)
        })
      const script = document.createElement("script")
      script.src = paths.js
      const link = document.createElement("link")
      link.rel = "stylesheet"
      link.href = paths.css
      const probe = document.createElement("div")
      probe.id = "upload-probe"
      document.body.append(probe)
      const image = async (src: string) => {
        const img = new Image()
        img.src = src
        await Promise.race([img.decode().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 3000))])
        return img.naturalWidth
      }
      return {
        script: await attach(script),
        stylesheet: await attach(link),
        ran: (window as { pwned?: boolean }).pwned === true,
        styled: getComputedStyle(probe).color === "rgb(255, 0, 0)",
        svgWidth: await image(paths.svg),
        pngWidth: await image(paths.png),
        svgRan: (window as { pwnedBySvg?: boolean }).pwnedBySvg === true
      }
    }, { js: path("steal.js"), css: path("theme.css"), svg: path("drawing.svg"), png: path("pixel.png") })
    expect(seen).toEqual({ script: "refused", stylesheet: "refused", ran: false, styled: false, svgWidth: 10, pngWidth: 1, svgRan: false })

    // Opened on its own, the SVG is a download, not a document of the app's origin.
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 10_000 }), page.goto(path("drawing.svg")).catch(() => undefined)])
    expect(download.suggestedFilename()).toBe("drawing.svg")
  } catch (error) {
    await page.screenshot({ path: `${artifacts}uploads-failure.png` })
    throw error
  } finally {
    await context.close()
  }
})
