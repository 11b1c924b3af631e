/** Reading a space: the tree navigates, the table of contents scrolls to a heading, a comment posted shows, the open change requests are listed. */
import { afterAll, beforeAll, expect, inject, it } from "vitest"
import type { Browser } from "playwright-core"
import { captureScreen, launch, open, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser.close()
})

const long = ["Intro.", "", ...Array.from({ length: 40 }, (_, i) => `Filler paragraph ${i}.\n`), "## Deep section", "", "Found it.", ""].join("\n")

it("navigates the tree, scrolls by the table of contents, posts a comment, lists change requests", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Readers Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [
      { operation: "insert_page", ref: "w", title: "Welcome", slug: "welcome", document: { markdown: "Hello.\n" } },
      { operation: "insert_page", title: "Setup", slug: "setup", into: "w", document: { markdown: long } }
    ]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const open1 = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Rewrite the intro" })
  await api(url, "PATCH", `/spaces/${space.id}/change-requests/${open1.id}`, { status: "open" })

  const session = await open(browser, url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/welcome`)
    await page.getByRole("heading", { name: "Welcome" }).first().waitFor()
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Setup" }).click()
    await page.waitForURL(/\/welcome\/setup$/)
    await page.getByRole("heading", { name: "Setup" }).first().waitFor()
    expect(await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Setup" }).getAttribute("aria-current")).toBe("page")

    await page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: "Deep section" }).click()
    const heading = page.getByRole("heading", { name: "Deep section" })
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300)
    await expect.poll(async () => (await heading.boundingBox())?.y ?? 9999).toBeLessThan(800)

    await page.getByRole("link", { name: /Rewrite the intro/ }).waitFor()

    await page.getByLabel("Comment on this page").fill("Is this still right?")
    await page.getByRole("button", { name: "Post comment" }).click()
    await page.locator(".space-comment-list").getByText("Is this still right?").waitFor()
    await page.getByLabel("Reply").fill("Yes.")
    await page.getByRole("button", { name: "Reply", exact: true }).click()
    await page.locator(".space-comment-list ul").getByText("Yes.").waitFor()

    await page.evaluate(() => window.scrollTo(0, 0))
    await captureScreen(page, "space-reading")
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/space-failure.png" })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`, { cause: error })
  } finally {
    await context.close()
  }
})
