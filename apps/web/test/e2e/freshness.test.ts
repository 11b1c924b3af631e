/**
 * Freshness: a space's pages with owners and verification in their frontmatter are listed stale
 * first, by the space's More menu; the filter narrows them; the organization's screen lists the
 * space with its stale page; a page's link opens it. What the screen says is what /v1 holds.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, chooseFromMenu, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

const today = new Date().toISOString().slice(0, 10)
const page = (title: string, slug: string, frontmatter: string) => ({
  operation: "insert_page",
  title,
  slug,
  document: { markdown: `---\n${frontmatter}\n---\n\n${title} text.\n` }
})

it("lists a space's stale pages first, filters them, and the organization's screen names the space", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Fresh Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Runbook" })
  const cr = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Pages" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [
      page("Backups", "backups", `quire:\n  owners: [ada@quire.test]\n  verified: ${today}\n  verify-every: 90d`),
      page("Restores", "restores", "quire:\n  owners: [ops@example.com]\n  verified: 2025-01-01\n  verify-every: 30d"),
      page("Alerts", "alerts", "quire:\n  verify-every: 12w")
    ]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/merge`)
  const held = await api<{ pages: ReadonlyArray<{ title: string; state: string }> }>(url, "GET", `/spaces/${space.id}/freshness`)
  expect(held.pages.map((p) => [p.title, p.state])).toEqual([["Restores", "stale"], ["Alerts", "unverified"], ["Backups", "fresh"]])

  const session = await open(browser(), url)
  const { page: tab, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await tab.goto(`/s/${space.id}`)
    await chooseFromMenu(tab, "More", "Freshness")
    await tab.waitForURL(/\/~\/freshness$/)
    const list = tab.getByRole("list", { name: "Pages", exact: true })
    await expect.poll(() => list.getByRole("link").allTextContents()).toEqual(["Restores", "Alerts", "Backups"])
    const stale = list.locator("> li").first()
    await stale.getByText("Stale", { exact: true }).waitFor()
    await stale.getByText("Was due Jan 31, 2025").waitFor()
    await stale.getByText("Owners: ops@example.com").waitFor()
    await tab.getByRole("list", { name: "Pages by state" }).getByText("stale").waitFor()
    await captureScreen(tab, "freshness-space")

    await tab.getByLabel("Show", { exact: true }).selectOption("mine")
    await expect.poll(() => list.getByRole("link").allTextContents()).toEqual(["Backups"])
    await tab.getByLabel("Show", { exact: true }).selectOption("unowned")
    await expect.poll(() => list.getByRole("link").allTextContents()).toEqual(["Alerts"])

    await tab.goto(`/o/${org.id}`)
    await tab.getByRole("link", { name: "Freshness" }).click()
    await tab.waitForURL(/\/o\/[^/]+\/freshness$/)
    const runbook = tab.getByRole("region", { name: "Runbook" })
    await expect.poll(() => runbook.getByRole("list").getByRole("link").allTextContents()).toEqual(["Restores"])
    await captureScreen(tab, "freshness-organization")
    await runbook.getByRole("link", { name: "Restores" }).click()
    await tab.waitForURL(new RegExp(`/s/${space.id}/restores$`))
    await tab.getByRole("heading", { name: "Restores" }).first().waitFor()
    expect(problems).toEqual([])
  } catch (error) {
    await tab.screenshot({ path: "test/artifacts/freshness-failure.png" })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`, { cause: error })
  } finally {
    await context.close()
  }
})
