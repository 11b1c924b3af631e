/** History: main's revisions listed with their changes, a revision's diff, restoring one opens a change request. */
import { expect, inject, it } from "vitest"
import { captureScreen, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

it("lists revisions, shows a revision's diff, restores one through a change request", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "History Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Manual" })
  const first = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Start" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${first.id}/content`, {
    changes: [{ operation: "insert_page", title: "Guide", slug: "guide", document: { markdown: "Old sentence.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${first.id}/merge`)
  const pages = await api<{ pages: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/spaces/${space.id}/content/pages`)
  const guide = pages.pages.find((p) => p.title === "Guide")!
  const second = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Improve the guide" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${second.id}/content`, {
    changes: [{ operation: "update_page", page: guide.id, document: { markdown: "New sentence.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${second.id}/merge`)

  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/history`)
    const list = page.getByRole("list", { name: "Revisions" })
    await list.getByText("Edited page “Guide” (content)").waitFor()
    await list.getByText("Added page “Guide”").waitFor()
    await list.getByRole("link", { name: /Improve the guide/ }).waitFor()
    await captureScreen(page, "history")

    await list.locator("> li").first().getByRole("link").first().click()
    await page.waitForURL(/\/~\/revisions\//)
    await page.getByText("Edited page “Guide” (content)").click()
    await page.locator(".review-diff").getByText("New sentence.").first().waitFor()
    await captureScreen(page, "revision")

    // Restore the first revision (the oldest): a change request whose guide reads the old sentence.
    await page.goto(`/s/${space.id}/~/history`)
    await list.locator("> li").nth(1).getByRole("link").first().click()
    await page.waitForURL(/\/~\/revisions\//)
    await page.getByRole("button", { name: "Restore this revision" }).click()
    await page.waitForURL(/\/~\/changes\/\d+/)
    const number = Number(/\/changes\/(\d+)/.exec(page.url())![1])
    const restored = await api<{ markdown?: string }>(url, "GET", `/spaces/${space.id}/change-requests/${number}/content/page/${guide.id}?format=markdown`)
    expect(restored.markdown).toContain("Old sentence.")
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/history-failure.png" })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`, { cause: error })
  } finally {
    await context.close()
  }
})
