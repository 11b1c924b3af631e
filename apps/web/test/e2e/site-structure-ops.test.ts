/**
 * Issue 61 on the site dashboard: an external link added on the Structure tab (a tab of the
 * published site) and moved from the keyboard, a variant's own look, and a channel on the Settings
 * tab, each read back from the server; a refusal is said next to its field; at 390 px the page does
 * not scroll sideways.
 */
import { expect, inject, it } from "vitest"
import { errorOf, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface Entry { readonly object: string; readonly id: string; readonly title: string; readonly url?: string }

it("adds and moves an external link, gives a variant its own look, and adds a channel", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Links Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const next = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook next" })
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Linked docs" })
  const base = `/orgs/${org.id}/sites/${site.id}`
  const section = await api<{ id: string }>(url, "POST", `${base}/sections`, { spaceId: space.id, title: "Manual" })
  const variant = await api<{ id: string }>(url, "POST", `${base}/site-spaces`, { spaceId: next.id, sectionId: section.id })
  await api(url, "POST", `${base}/publish`)
  const top = () => api<{ structure: ReadonlyArray<Entry> }>(url, "GET", `${base}/structure`).then((s) => s.structure)
  // A site without a claims schema answers 404 for it (the Settings tab reads it); the three refusals below are 400s.
  const session = await open(browser(), url, { expected: [/status of 404 \(Not Found\)/, /status of 400 \(Bad Request\)/] })
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/sites/${site.id}/structure`)
    await page.getByRole("heading", { name: "Manual", level: 3 }).waitFor()

    // A URL the API refuses is said under the URL field; then the link is added.
    await page.getByRole("button", { name: "New external link" }).click()
    const form = page.getByRole("form", { name: "New external link" })
    await form.getByLabel("Link title").fill("Status")
    const urlField = form.getByLabel("URL")
    await urlField.fill("ftp://status.example.com")
    await form.getByRole("button", { name: "Add link" }).click()
    await expect.poll(() => errorOf(urlField)).toMatch(/http/)
    await urlField.fill("https://status.example.com/")
    await form.getByRole("button", { name: "Add link" }).click()
    const added = await eventually("the link at the end", top, (items) => items.at(-1)?.object === "site-external-link")
    expect(added.at(-1)!.url).toBe("https://status.example.com/")
    await page.getByRole("link", { name: "https://status.example.com/ ↗" }).waitFor()

    // Alt+Up in the link's row moves it before the section (one sortSiteStructure).
    await page.getByRole("button", { name: "Edit the external link Status" }).focus()
    await page.keyboard.press("Alt+ArrowUp")
    await eventually("the link first", top, (items) => items[0]?.object === "site-external-link")
    await page.getByRole("status").filter({ hasText: "Moved the external link Status" }).waitFor()

    // The published site shows it as a tab.
    const published = (await api<{ urls: { published?: string } }>(url, "GET", base)).urls.published!
    const html = await (await fetch(`${url}/~sites/${site.id}/`)).text()
    expect(published).toBeTruthy()
    expect(html).toContain(`href="https://status.example.com/"`)

    // A variant's own look: a refused color under its field, then saved and read back.
    await page.getByRole("button", { name: "Look of Handbook next" }).click()
    const look = page.getByRole("form", { name: "Look of Handbook next" })
    const light = look.getByLabel("Primary color (light)")
    await light.fill("red")
    await look.getByRole("button", { name: "Save look" }).click()
    await expect.poll(() => errorOf(light)).toMatch(/accepts/)
    await light.fill("#abcdef")
    await look.getByRole("button", { name: "Save look" }).click()
    await eventually("the variant's color", () => api<{ styling?: { primaryColor?: { light: string } } }>(url, "GET", `${base}/site-spaces/${variant.id}/customization`),
      (c) => c.styling?.primaryColor?.light === "#abcdef")

    // A channel on the Settings tab: a refused name under its field, then added.
    await page.goto(`/o/${org.id}/sites/${site.id}/settings`)
    await page.getByRole("button", { name: "Add a channel" }).click()
    const channel = page.getByRole("form", { name: "New channel" })
    const names = channel.getByLabel("Slack channels")
    await names.fill("has space!")
    await channel.getByRole("button", { name: "Add channel" }).click()
    await expect.poll(() => errorOf(names)).toMatch(/letters/)
    await names.fill("support-*")
    await channel.getByRole("button", { name: "Add channel" }).click()
    await eventually("one channel", () => api<{ items: ReadonlyArray<{ setupSettings: Record<string, ReadonlyArray<string>> }> }>(url, "GET", `${base}/channels`),
      (list) => list.items.length === 1 && list.items[0]!.setupSettings["allowedChannels"]?.[0] === "support-*")
    await page.getByRole("list", { name: "Channels" }).getByText("support-*").waitFor()

    // 390 px: the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`/o/${org.id}/sites/${site.id}/structure`)
    await page.getByRole("heading", { name: "Manual", level: 3 }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
