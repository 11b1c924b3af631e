/**
 * A columns block in a change request's review: side by side at 1280 px, stacked at 390 px with
 * nothing wider than the screen (screenshots at 390 dark and 1280 light).
 */
import { expect, inject, it } from "vitest"
import { captureScreen, open, signInAsAdmin, sharedBrowser } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

const columns = (left: string, right: string) =>
  `Intro.\n\n{% columns %}\n{% column width="50%" %}\n${left}\n{% endcolumn %}\n\n{% column width="50%" %}\n${right}\n{% endcolumn %}\n{% endcolumns %}\n\nAfter.\n`

it("shows a changed columns block side by side when wide and stacked at 390 px, without horizontal overflow", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Columns Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const first = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Start" })
  const long = "A long word list of the left column that wraps on a narrow screen: configuration, installation, authentication."
  await api(url, "POST", `/spaces/${space.id}/change-requests/${first.id}/content`, {
    changes: [{ operation: "insert_page", title: "Layout", slug: "layout", document: { markdown: columns(long, "Right column text.") } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${first.id}/merge`)
  const main = await api<{ pages: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/spaces/${space.id}/content/pages`)
  const layout = main.pages.find((p) => p.title === "Layout")!
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Reword the columns" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "update_page", page: layout.id, document: { markdown: columns(long, "Right column text, reworded for the review.") } }]
  })

  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    const block = page.locator(".review-block:not(.review-removed) .columns", { hasText: "reworded" }).first()
    await block.waitFor()
    const boxes = async () => {
      const [left, right] = await Promise.all([block.locator(".column").nth(0).boundingBox(), block.locator(".column").nth(1).boundingBox()])
      return { left: left!, right: right! }
    }
    await captureScreen(page, "review-columns")
    // Wide: side by side.
    const wide = await boxes()
    expect(Math.abs(wide.left.y - wide.right.y)).toBeLessThan(2)
    expect(wide.right.x).toBeGreaterThan(wide.left.x + wide.left.width - 1)

    // Narrow: one under the other, the page no wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.emulateMedia({ colorScheme: "dark" })
    await expect.poll(async () => {
      const { left, right } = await boxes()
      return right.y >= left.y + left.height - 1
    }).toBe(true)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    const narrow = await boxes()
    expect(narrow.left.x + narrow.left.width).toBeLessThanOrEqual(390)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
