/**
 * A screen that cannot render says so in words, inside the app: its code did not load (here the
 * Git sync screen's chunk, refused as after a deployment that replaced it), and the header and
 * menus stay usable (one row at 390 px); "Reload the app" (by keyboard) brings the screen once its code is there.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

it("shows a screen whose code did not load as a message with a way back, not a blank app", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Boundary Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  // The refused chunk is a failed request in the console: that one is expected.
  const session = await open(browser(), url, { expected: [/Failed to load resource/] })
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    const refuse = "**/assets/GitSync-*.js"
    await page.route(refuse, (route) => route.abort())
    await page.goto(`/s/${space.id}/~/git`)
    const alert = page.getByRole("alert")
    await alert.getByRole("heading", { name: "This screen could not be shown" }).waitFor()
    expect(await alert.textContent()).toContain("Part of the app could not be loaded")
    // The frame around the screen still works.
    await page.getByRole("button", { name: /search/i }).first().waitFor()
    await captureScreen(page, "route-failure")
    // At 390 px the header is one row: the breadcrumbs give way before anything wraps.
    await page.setViewportSize({ width: 390, height: 844 })
    const header = await page.locator(".shell-header").boundingBox()
    const opener = await page.getByRole("button", { name: "Open the sidebar" }).boundingBox()
    expect(header!.height, "the header's height at 390 px").toBeLessThan(opener!.height * 2 + 8)
    await page.setViewportSize({ width: 1280, height: 800 })

    await page.unroute(refuse)
    await alert.getByRole("button", { name: "Reload the app" }).focus()
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Git sync" }).waitFor()
    expect(await page.getByRole("alert").count()).toBe(0)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
