/**
 * A change request previewed on the site that publishes its space: from the change request, Ada
 * opens "Preview" and reads the site as it would be merged, under a toolbar naming the change
 * request and its changed page, which scrolls away under the site's sticky header; the preview's
 * search finds the change request's page, the published site's does not; she copies a preview
 * link, which opens the preview to a reader with no account, then revokes it, and it opens nothing.
 */
import { expect, inject, it } from "vitest"
import { fileURLToPath } from "node:url"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { captureAllPairs, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()
const docsImages = fileURLToPath(new URL("../../../../docs/images/previews/", import.meta.url))
const longPage = `Run the installer, then restart.\n\n${Array.from({ length: 40 }, (_, i) => `Step ${i + 1}: check the installer's log for warnings before going on.`).join("\n\n")}\n`

it("opens a change request's preview from the app, with its toolbar, and shares it by link", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Preview Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [{ operation: "insert_page", title: "Intro", slug: "intro", document: { markdown: "Welcome to the handbook.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Handbook site", visibility: "public" })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/site-spaces`, { spaceId: space.id })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/publish`)
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Explain installing" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Install", slug: "install", document: { markdown: longPage } }]
  })

  const ada = await open(browser(), url)
  const reader = await open(browser(), url)
  try {
    await signInAsAdmin(ada, url)
    const { page } = ada
    await page.goto(`/s/${space.id}/~/changes/${cr.number}`)
    const preview = page.getByRole("link", { name: "Preview", exact: true })
    await preview.waitFor({ timeout: 30_000 })
    await page.getByRole("button", { name: "Copy preview link" }).click()
    const field = page.getByLabel("Preview link", { exact: true })
    await expect.poll(() => field.inputValue(), { timeout: 15_000 }).toContain("share=")
    await captureAllPairs(page, "cr-preview-app")
    const shareLink = await field.inputValue()

    const href = await preview.getAttribute("href")
    expect(href).toContain(`/~sites/${site.id}/~/changes/${cr.id}/`)
    const previewPath = new URL(href!).pathname
    await page.goto(`${previewPath}install`)
    const toolbar = page.getByRole("region", { name: "Change request preview" })
    await expect.poll(() => toolbar.textContent(), { timeout: 15_000 }).toContain(`Preview of change request #${cr.number}: Explain installing`)
    expect(await toolbar.textContent()).toContain("1 page changed: Install")
    await page.getByText("Run the installer, then restart.").waitFor()
    await captureAllPairs(page, "cr-preview")
    expect(await toolbar.getByRole("link", { name: "Open the change request" }).getAttribute("href")).toContain(`/s/${space.id}/~/changes/${cr.number}`)
    // The changed page is a link into the preview.
    await page.goto(previewPath)
    await toolbar.getByRole("link", { name: "Install" }).click()
    await page.waitForURL(`**${previewPath}install`)

    // Scrolled, the toolbar goes up with the page and the site's sticky header alone holds the top.
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
      await page.goto(`${previewPath}install`)
      await page.evaluate(() => window.scrollTo(0, 900))
      const header = page.locator(".site-header")
      await expect.poll(async () => (await header.boundingBox())?.y, { timeout: 15_000 }).toBe(0)
      const [bar, head] = [await toolbar.boundingBox(), await header.boundingBox()]
      expect(bar!.y + bar!.height, `the toolbar is above the header at ${width}px`).toBeLessThanOrEqual(head!.y + 1)
      if (screenshotsWanted()) await page.screenshot({ path: `${docsImages}toolbar-scrolled-${width}.png` })
    }
    await page.setViewportSize({ width: 1280, height: 800 })

    // The preview's search answers from the change request's content; the published site's from main.
    await page.goto(`${previewPath}~search?q=installer`)
    await page.locator(".search-page").getByRole("link", { name: "Install" }).first().waitFor({ timeout: 15_000 })
    const typed = await page.request.get(`${previewPath}~search?q=instal`, { headers: { accept: "application/json" } })
    expect(((await typed.json()) as { items: ReadonlyArray<{ title: string }> }).items.map((item) => item.title)).toContain("Install")
    const publishedSearch = await page.request.get(`/~sites/${site.id}/~search?q=installer`, { headers: { accept: "application/json" } })
    expect(((await publishedSearch.json()) as { items: ReadonlyArray<unknown> }).items).toEqual([])

    // The published site is unchanged; a reader with no account gets nothing without the link, the preview with it.
    expect((await reader.page.goto(`/~sites/${site.id}/install`))?.status()).toBe(404)
    expect((await reader.page.goto(`${previewPath}install`))?.status()).toBe(404)
    await reader.page.goto(new URL(shareLink).pathname + new URL(shareLink).search)
    await reader.page.getByRole("region", { name: "Change request preview" }).waitFor()
    expect(reader.page.url()).not.toContain("share=")

    // Revoked from the change request, the link opens nothing, even to the reader who opened it.
    await page.goto(`/s/${space.id}/~/changes/${cr.number}`)
    const links = page.getByRole("list", { name: "Preview links" })
    await links.getByRole("button", { name: /^Revoke the preview link created/ }).click()
    await page.getByText(/^Revoked the preview link created/).waitFor({ timeout: 15_000 })
    await links.waitFor({ state: "detached", timeout: 15_000 })
    expect((await reader.page.goto(`${previewPath}install`))?.status()).toBe(404)
    expect((await reader.page.goto(new URL(shareLink).pathname + new URL(shareLink).search))?.status()).toBe(404)
    expect(ada.problems).toEqual([])
  } finally {
    await ada.context.close()
    await reader.context.close()
  }
})

it("asks no site that does not publish the change request's space for a preview, so nothing fails in the console", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Two spaces Org" })
  const published = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Published handbook" })
  const other = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Internal notes" })
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Handbook site", visibility: "public" })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/site-spaces`, { spaceId: published.id })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/publish`)
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${other.id}/change-requests`, { subject: "Note the on-call rota" })
  await api(url, "POST", `/spaces/${other.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "On call", slug: "on-call", document: { markdown: "Who answers the pager this week.\n" } }]
  })

  const ada = await open(browser(), url)
  try {
    await signInAsAdmin(ada, url)
    const asked: Array<string> = []
    ada.page.on("request", (request) => {
      if (request.url().includes("/publishing/preview")) asked.push(request.url())
    })
    const siteSpacesRead = ada.page.waitForResponse((response) => response.url().includes(`/sites/${site.id}/site-spaces`), { timeout: 30_000 })
    await ada.page.goto(`/s/${other.id}/~/changes/${cr.number}`)
    // The app read which spaces the site publishes, found none of this change request's, and asked nothing more.
    await siteSpacesRead
    await ada.page.waitForLoadState("networkidle")
    expect(asked).toEqual([])
    expect(await ada.page.getByRole("link", { name: "Preview", exact: true }).count()).toBe(0)
    expect(ada.problems).toEqual([])
  } finally {
    await ada.context.close()
  }
})
