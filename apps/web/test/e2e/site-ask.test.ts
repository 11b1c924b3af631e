/**
 * Ask from the app: a site's admin turns it on in the customization form (before, only `quire
 * sites customize` with a JSON file setting `ai.mode` did), by keyboard, and the site's `~ask`
 * answers; turned off, it is gone again. The test servers have no model, so `~ask` answers 501
 * ("no model") once on, against 404 while off.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, open, openSiteTab, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

it("turns Ask on and off for a site from its customization, as the site then answers", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Asking Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Handbook site" })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/site-spaces`, { spaceId: space.id })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/publish`)
  const mode = () => api<{ ai?: { mode: string } }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/customization`).then((c) => c.ai?.mode ?? "none")
  const ask = () => fetch(`${url}/~sites/${site.id}/~ask?q=${encodeURIComponent("What is in the handbook?")}`, { headers: { accept: "application/json" } }).then((r) => r.status)
  expect(await ask()).toBe(404)
  const session = await open(browser(), url)
  const { page, problems } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/sites/${site.id}`)
    await openSiteTab(page, "Customization")
    const box = page.getByLabel("Readers can ask questions about the site")
    await box.waitFor()
    expect(await box.isChecked()).toBe(false)
    await box.focus()
    await page.keyboard.press("Space")
    await page.getByRole("button", { name: "Save customization" }).focus()
    await page.keyboard.press("Enter")
    await eventually("Ask on", mode, (value) => value === "assistant")
    expect(await ask()).toBe(501)
    await page.getByRole("group", { name: "Ask" }).scrollIntoViewIfNeeded()
    await captureScreen(page, "site-ask")

    // Off again: the site answers 404 as before.
    await page.reload()
    await box.waitFor()
    expect(await box.isChecked()).toBe(true)
    await box.uncheck()
    await page.getByRole("button", { name: "Save customization" }).click()
    await eventually("Ask off", mode, (value) => value === "none")
    expect(await ask()).toBe(404)
    expect(problems).toEqual([])
  } finally {
    await session.context.close()
  }
})
