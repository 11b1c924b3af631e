/**
 * The workspace around every organization screen: the sidebar lists the organization's spaces and
 * the open space's pages and navigates; the breadcrumbs say where the screen is (a change request
 * with its state in words); at 390 px the sidebar is a drawer the keyboard opens and closes, focus
 * going in and coming back; the right panel shows the page's outline and folds. The app's tokens
 * are the published site's (the page bodies' stylesheet changes none of them). Each screen is
 * photographed light and dark at 1280 and 390 px, with axe, and no console error.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { artifacts, expectAccessible, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

const body = ["Intro.", "", "## First part", "", "One.", "", "## Second part", "", "Two.", ""].join("\n")

/** The screen light and dark, at 1280 and 390 px, each checked by axe; left light at 1280 px. */
const captureAll = async (page: Page, name: string) => {
  for (const width of [1280, 390] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme, reducedMotion: "reduce" })
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
      if (screenshotsWanted()) await page.screenshot({ path: `${artifacts}workspace-${name}-${colorScheme}-${width}.png`, fullPage: true })
      await expectAccessible(page, `${name} (${colorScheme}, ${width} px)`)
    }
  }
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" })
  await page.setViewportSize({ width: 1280, height: 800 })
}

const numbersIn = (text: string) => (text.match(/-?\d*\.?\d+/g) ?? []).map(Number)

/** The same values: the same words, and numbers equal to rounding. */
const same = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.every((value, i) => {
  const other = b[i] ?? ""
  const [x, y] = [numbersIn(value), numbersIn(other)]
  return value.replace(/-?\d*\.?\d+/g, "0") === other.replace(/-?\d*\.?\d+/g, "0") && x.length === y.length && x.every((n, j) => Math.abs(n - y[j]!) < 0.003)
})

const crumbs = (page: Page) => page.getByRole("navigation", { name: "Breadcrumb" })

it("frames every screen: sidebar, breadcrumbs, drawer, right panel", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Frame Org" })
  const collection = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/collections`, { title: "Guides" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Field Book" })
  await api(url, "POST", `/spaces/${space.id}/move`, { parent: collection.id })
  await api(url, "POST", `/orgs/${org.id}/spaces`, { title: "Second Space" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [
      { operation: "insert_page", title: "Welcome", slug: "welcome", document: { markdown: "Hello.\n" } },
      { operation: "insert_page", title: "Setup", slug: "setup", document: { markdown: body } }
    ]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Reword setup" })

  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}`)
    const sidebar = page.getByRole("complementary", { name: "Sidebar" })
    const spaces = sidebar.getByRole("navigation", { name: "Spaces" })
    // The organization's spaces, the one in a collection under it.
    await spaces.getByRole("link", { name: "Second Space" }).waitFor()
    await spaces.getByRole("link", { name: "Guides" }).waitFor()
    expect(await sidebar.getByLabel("Organization").inputValue()).toBe(org.id)
    expect(await crumbs(page).getByRole("link", { name: "Frame Org" }).getAttribute("aria-current")).toBe("page")
    await captureAll(page, "org-home")

    // The sidebar opens a space: its pages join the sidebar, the breadcrumbs follow.
    await spaces.getByRole("link", { name: "Field Book" }).click()
    await page.waitForURL(new RegExp(`/s/${space.id}$`))
    const pages = sidebar.getByRole("navigation", { name: "Pages" })
    await pages.getByRole("link", { name: "Setup" }).click()
    await page.waitForURL(/\/setup$/)
    await page.getByRole("heading", { name: "Setup" }).first().waitFor()
    expect(await pages.getByRole("link", { name: "Setup" }).getAttribute("aria-current")).toBe("page")
    expect(await spaces.getByRole("link", { name: "Field Book" }).getAttribute("aria-current")).toBe("page")
    await expect.poll(() => crumbs(page).innerText()).toMatch(/Frame Org\s*\/?\s*Guides\s*\/?\s*Field Book\s*\/?\s*Setup/)

    // The right panel: the page's outline, which scrolls to its heading; it folds and opens again.
    const panel = page.getByRole("complementary", { name: "Page details" })
    const outline = panel.getByRole("navigation", { name: "On this page" })
    await outline.getByRole("link", { name: "Second part" }).waitFor()
    await captureAll(page, "space")
    const toggle = panel.getByRole("button", { name: "Page details" })
    await toggle.click()
    expect(await toggle.getAttribute("aria-expanded")).toBe("false")
    expect(await outline.count()).toBe(0)
    await toggle.click()
    await outline.getByRole("link", { name: "First part" }).waitFor()

    // At 390 px: the sidebar is a drawer, opened from the header by the keyboard; focus goes in, Escape brings it back.
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await sidebar.isVisible()).toBe(false)
    const opener = page.getByRole("button", { name: "Open the sidebar" })
    const header = await page.locator(".shell-header").boundingBox()
    expect(header!.height, "the header is one row at 390 px").toBeLessThan((await opener.boundingBox())!.height * 2 + 8)
    await opener.focus()
    await page.keyboard.press("Enter")
    await sidebar.waitFor()
    expect(await opener.getAttribute("aria-expanded")).toBe("true")
    expect(await page.evaluate(() => document.activeElement?.closest("#sidebar") !== null)).toBe(true)
    if (screenshotsWanted()) await page.screenshot({ path: `${artifacts}workspace-drawer-light-390.png` })
    await page.keyboard.press("Escape")
    await sidebar.waitFor({ state: "hidden" })
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Open the sidebar")
    // Following a link in the drawer closes it.
    await page.keyboard.press("Enter")
    await sidebar.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Welcome" }).click()
    await page.waitForURL(/\/welcome$/)
    await sidebar.waitFor({ state: "hidden" })
    // "Skip to content" still leads past the header and the sidebar.
    await page.locator(".skip-link").focus()
    await page.keyboard.press("Enter")
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("content")
    await page.setViewportSize({ width: 1280, height: 800 })

    // A change request: its tree in the sidebar, its number and state in words in the breadcrumbs.
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/setup`)
    await sidebar.getByRole("navigation", { name: "Pages of the change request" }).getByRole("link", { name: "Setup" }).waitFor()
    await crumbs(page).getByText(`Change request #${cr.number}`).waitFor()
    await crumbs(page).getByText("Draft", { exact: true }).waitFor()
    await page.getByRole("complementary", { name: "Change request details" }).getByRole("heading", { name: "Outline" }).waitFor()
    await page.getByRole("complementary", { name: "Change request details" }).getByRole("button", { name: "Second part" }).waitFor()
    await captureAll(page, "change-request")
    await page.getByRole("button", { name: "Submit for review" }).click()
    await crumbs(page).getByText("In review", { exact: true }).waitFor()

    // Its review: the same path, and the state.
    await page.getByRole("navigation", { name: "Change request", exact: true }).getByRole("link", { name: /^Review/ }).click()
    await page.getByRole("heading", { name: "Reword setup" }).waitFor()
    await crumbs(page).getByText("In review", { exact: true }).waitFor()
    expect(await crumbs(page).getByText("Review", { exact: true }).getAttribute("aria-current")).toBe("page")
    await captureAll(page, "review")

    // The design tokens are the published site's: the page bodies' stylesheet, linked on the space screen, changes none.
    await page.goto(`/s/${space.id}/setup`)
    await page.getByRole("heading", { name: "Setup" }).first().waitFor()
    await page.waitForFunction(() => [...document.styleSheets].some((sheet) => sheet.href?.includes("/app/render") === true))
    // Each as the browser resolves it where it is used (the site's stylesheet is minified: its colours are written resolved).
    const names = ["--primary", "--primary-contrast", "--primary-soft", "--primary-text", "--bg", "--bg-subtle", "--bg-muted", "--bg-raised", "--text", "--text-muted",
      "--text-subtle", "--border", "--border-strong", "--code-bg", "--danger", "--link", "--radius", "--radius-sm", "--font", "--font-mono", "--shadow"]
    const read = () => page.evaluate((list) => list.map((name) => {
      const probe = document.createElement("div")
      const property = name.startsWith("--radius") ? "border-radius" : name.startsWith("--font") ? "font-family" : name === "--shadow" ? "box-shadow" : "color"
      probe.style.setProperty(property, `var(${name})`)
      document.body.append(probe)
      const value = getComputedStyle(probe).getPropertyValue(property)
      probe.remove()
      return `${name}: ${value}`
    }), names)
    for (const theme of ["light", "dark"] as const) {
      await page.evaluate((value) => { document.documentElement.dataset["theme"] = value }, theme)
      const withSite = await read()
      await page.evaluate(() => document.querySelectorAll<HTMLLinkElement>("link[data-render-css]").forEach((link) => { link.disabled = true }))
      const appOnly = await read()
      expect(same(appOnly, withSite), `the ${theme} tokens:\n${appOnly.join("\n")}\nthe site's:\n${withSite.join("\n")}`).toBe(true)
      await page.evaluate(() => document.querySelectorAll<HTMLLinkElement>("link[data-render-css]").forEach((link) => { link.disabled = false }))
    }
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: `${artifacts}workspace-failure.png` })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`, { cause: error })
  } finally {
    await context.close()
  }
})
