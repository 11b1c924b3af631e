/**
 * A change request previewed on the site that publishes its space: from the change request, Ada
 * opens "Preview" and reads the site as it would be merged, under a toolbar naming the change
 * request and its changed page; she copies a preview link, which opens the preview to a reader
 * with no account; the published site itself is unchanged.
 */
import { expect, inject, it } from "vitest"
import { captureAllPairs, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

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
    changes: [{ operation: "insert_page", title: "Install", slug: "install", document: { markdown: "Run the installer, then restart.\n" } }]
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
    const field = page.getByLabel("Preview link")
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

    // The published site is unchanged; a reader with no account gets nothing without the link, the preview with it.
    expect((await reader.page.goto(`/~sites/${site.id}/install`))?.status()).toBe(404)
    expect((await reader.page.goto(`${previewPath}install`))?.status()).toBe(404)
    await reader.page.goto(new URL(shareLink).pathname + new URL(shareLink).search)
    await reader.page.getByRole("region", { name: "Change request preview" }).waitFor()
    expect(reader.page.url()).not.toContain("share=")
    expect(ada.problems).toEqual([])
  } finally {
    await ada.context.close()
    await reader.context.close()
  }
})
