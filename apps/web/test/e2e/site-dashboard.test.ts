/**
 * The site dashboard (issue 59 item 4): under the site's title and its Publish control, a bar of tabs,
 * each its own address. Each is reached from the keyboard (Tab to it, Enter), shows its part and only
 * that, keeps its tab on reload and with the browser's Back, and fits a 390 px screen without the page
 * scrolling sideways (the bar scrolls by itself).
 */
import { expect, inject, it } from "vitest"
import type { Locator, Page } from "playwright-core"
import { captureAllPairs, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface TabCase {
  readonly label: string
  readonly path: string
  /** What the tab shows, read from what the server has. */
  readonly part: (page: Page) => Locator
}

const tabs: ReadonlyArray<TabCase> = [
  { label: "Overview", path: "", part: (page) => page.getByRole("region", { name: "Readers", exact: true }) },
  { label: "Structure", path: "/structure", part: (page) => page.getByRole("heading", { name: "Manual", level: 3 }) },
  { label: "Customization", path: "/customization", part: (page) => page.getByRole("button", { name: "Save customization" }) },
  { label: "Audience", path: "/audience", part: (page) => page.getByRole("region", { name: "Permissions" }) },
  { label: "Insights", path: "/insights", part: (page) => page.getByRole("region", { name: "Views over time" }) },
  { label: "Findings", path: "/findings", part: (page) => page.getByRole("region", { name: "What the docs miss or get wrong" }) },
  { label: "Style guide", path: "/styleguide", part: (page) => page.getByRole("region", { name: "Style guide", exact: true }) },
  { label: "Settings", path: "/settings", part: (page) => page.getByLabel("Hostname") }
]

it("opens each tab of a site's dashboard from the keyboard, at its own address", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Dashboard Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Dashboard docs" })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/sections`, { spaceId: space.id, title: "Manual" })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/publish`)
  const published = (await api<{ urls: { published?: string } }>(url, "GET", `/orgs/${org.id}/sites/${site.id}`)).urls.published!
  // A site without a claims schema answers 404 for it (the Settings tab reads it).
  const session = await open(browser(), url, { expected: [/status of 404 \(Not Found\)/] })
  const { page, problems, context } = session
  const base = `${url}/o/${org.id}/sites/${site.id}`
  const bar = page.getByRole("navigation", { name: "Site dashboard" })
  const tabLink = (label: string) => bar.getByRole("link", { name: label, exact: true })
  const showsOnly = async (shown: TabCase) => {
    await shown.part(page).first().waitFor()
    expect(await tabLink(shown.label).getAttribute("aria-current")).toBe("page")
    for (const other of tabs.filter((tab) => tab !== shown)) expect(await other.part(page).count(), `${other.label} on ${shown.label}`).toBe(0)
  }
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/sites/${site.id}`)
    await page.getByRole("heading", { name: "Dashboard docs", level: 1 }).waitFor()
    expect(await bar.getByRole("link").allTextContents()).toEqual(tabs.map((tab) => tab.label))

    // The overview: who reads it and where, its sections, its views; each with a way to its tab.
    await showsOnly(tabs[0]!)
    expect(await page.getByRole("region", { name: "Published" }).getByRole("link", { name: published }).getAttribute("href")).toBe(published)
    await page.getByRole("region", { name: "Readers" }).getByText("Public", { exact: true }).waitFor()
    await page.getByRole("region", { name: "Sections and spaces" }).getByRole("list", { name: "Sections" }).getByRole("listitem").filter({ hasText: "Manual" }).filter({ hasText: "Handbook" }).waitFor()
    await page.getByRole("region", { name: "Insights" }).getByText(/0 views/).waitFor()
    await captureAllPairs(page, "site-dashboard-overview")

    for (const [index, tab] of tabs.entries()) {
      if (index === 0) continue
      // From the tab before, Tab moves to this one and Enter opens it.
      await tabLink(tabs[index - 1]!.label).focus()
      await page.keyboard.press("Tab")
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(tab.label)
      await page.keyboard.press("Enter")
      await page.waitForURL(`${base}${tab.path}`)
      await showsOnly(tab)
      // Its own address: a reload opens the same tab.
      await page.reload()
      await showsOnly(tab)
      await page.evaluate(() => window.scrollTo(0, 0))
      await captureAllPairs(page, `site-dashboard-${tab.label.toLowerCase()}`)
    }

    // Back goes to the tab before; the overview's link to Structure opens that tab.
    await page.goBack()
    await page.waitForURL(`${base}/styleguide`)
    await showsOnly(tabs[6]!)
    await tabLink("Overview").click()
    await showsOnly(tabs[0]!)
    await page.getByRole("region", { name: "Sections and spaces" }).getByRole("link").click()
    await page.waitForURL(`${base}/structure`)
    await showsOnly(tabs[1]!)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
