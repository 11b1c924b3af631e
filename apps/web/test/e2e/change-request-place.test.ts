/**
 * A change request as one place (issue 59 item 1): its editor and its review share one header
 * (number, subject, state, "Edit" / "Review" as tabs, the shown one marked), so Ada moves between
 * them by keyboard and submits the draft for review from either; nothing links "Back to the space".
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { captureAllPairs, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

const tabs = (page: Page) => page.getByRole("navigation", { name: "Change request", exact: true })

it("joins the change request's editor and review under one header", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Place Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Runbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Explain restarts" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Restart", slug: "restart", document: { markdown: "Stop the worker, then the server.\n\nStart them in the other order.\n" } }]
  })
  const ada = await open(browser(), url)
  try {
    await signInAsAdmin(ada, url)
    const { page, problems } = ada
    await page.goto(`/s/${space.id}/~/changes/${cr.number}`)
    await page.getByRole("heading", { name: `Change request #${cr.number}`, exact: true }).waitFor()
    expect(await page.getByLabel("Change request subject").inputValue()).toBe("Explain restarts")
    expect(await tabs(page).getByRole("link", { name: "Edit", exact: true }).getAttribute("aria-current")).toBe("page")
    expect(await tabs(page).getByRole("link", { name: /^Review/ }).getAttribute("aria-current")).toBeNull()
    expect(await page.getByRole("link", { name: "Back to the space" }).count()).toBe(0)
    expect(await page.getByRole("link", { name: "Open its review" }).count()).toBe(0)
    await page.getByRole("textbox", { name: "Page content" }).waitFor()
    await captureAllPairs(page, "cr-place-edit")

    // By keyboard to the review: the same header, the subject its heading, the Review tab the one shown.
    await tabs(page).getByRole("link", { name: /^Review/ }).focus()
    await page.keyboard.press("Enter")
    await page.waitForURL(`**/s/${space.id}/~/changes/${cr.number}/~/review`)
    await page.getByRole("heading", { name: "Explain restarts", level: 1 }).waitFor()
    expect(await tabs(page).getByRole("link", { name: /^Review/ }).getAttribute("aria-current")).toBe("page")
    expect(await tabs(page).getByRole("link", { name: "Edit", exact: true }).getAttribute("aria-current")).toBeNull()

    // The draft is submitted for review from the review's header; the server says so.
    await page.getByRole("button", { name: "Submit for review" }).click()
    await eventually("the change request open", () => api<{ status: string }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}`), (read) => read.status === "open")
    await page.getByRole("button", { name: "Archive" }).waitFor()
    await captureAllPairs(page, "cr-place-review")

    // And back to the editor by keyboard.
    await tabs(page).getByRole("link", { name: "Edit", exact: true }).focus()
    await page.keyboard.press("Enter")
    await page.waitForURL(`**/s/${space.id}/~/changes/${cr.number}`)
    await page.getByRole("textbox", { name: "Page content" }).waitFor()
    expect(problems).toEqual([])
  } finally {
    await ada.context.close()
  }
})
