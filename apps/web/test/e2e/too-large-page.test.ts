/**
 * A page too large to edit live, opened in the editor: the server holds it read-only to everyone
 * as an empty shared document and says why in a stateless message (docs/web.md, "Bounded rows").
 * The editor says so in words with the server's figures, takes no keystroke, and shows the page's
 * markdown (as /v1 reads it) to read, not an empty page.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { editor } from "./live.ts"
import { api } from "./servers.ts"

const browser = sharedBrowser()
const url = () => inject("readyServer")

interface Listed {
  readonly id: string
  readonly title: string
  readonly pages?: ReadonlyArray<Listed>
}

const flat = (pages: ReadonlyArray<Listed>): Array<Listed> => pages.flatMap((page) => [page, ...flat(page.pages ?? [])])

it("a page far over the live limit opens read-only, says why with the server's figures, and shows its content", { timeout: 240_000 }, async () => {
  const session = await open(browser(), url())
  try {
    // 300,000 one-letter paragraphs: 900 KB of markdown (within the API's 5,000,000 characters a
    // page), whose live state would be far over the server's 8 MiB.
    const markdown = Array.from({ length: 300_000 }, () => "a").join("\n\n") + "\n"
    const org = await api<{ id: string }>(url(), "POST", "/orgs", { title: "Too large Org" })
    const space = await api<{ id: string }>(url(), "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
    const cr = await api<{ id: string; number: number }>(url(), "POST", `/spaces/${space.id}/change-requests`, { subject: "A huge page" })
    const base = `/spaces/${space.id}/change-requests/${cr.number}/content`
    await api(url(), "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: "insert_page", title: "Huge", slug: "huge", document: { markdown } }]
    })
    const listed = await api<{ pages: ReadonlyArray<Listed> }>(url(), "GET", `${base}/pages`)
    const huge = flat(listed.pages).find((page) => page.title === "Huge")!
    const stored = async () => (await api<{ markdown?: string }>(url(), "GET", `${base}/page/${huge.id}?format=markdown`)).markdown ?? ""
    const before = await stored()
    expect(before.length).toBeGreaterThan(800_000)

    await signInAsAdmin(session, url())
    // When the page's text is first laid out and painted (the frame after it is in the document).
    await session.page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (document.querySelector(".live-too-large-text") === null) return
        observer.disconnect()
        const inserted = performance.now()
        requestAnimationFrame(() => setTimeout(() => Object.assign(globalThis, { tooLargeShown: { inserted, painted: performance.now() } })))
      }).observe(document, { childList: true, subtree: true })
    })
    const asked = Date.now()
    await session.page.goto(`/s/${space.id}/~/changes/${cr.number}/huge`)
    const note = session.page.getByRole("note").filter({ hasText: "too large to edit live" })
    await note.waitFor({ timeout: 90_000 })
    const told = Date.now() - asked
    expect(await note.textContent()).toMatch(
      /^This page is too large to edit live \(it would take at least \d+(\.\d)? MB live; the limit is 8 MB\)\. You can read it below\. To edit it, split it into smaller pages, or change its markdown through Git sync or the API\.$/
    )

    // The page's content, as /v1 has it, is shown to read.
    const text = session.page.getByRole("region", { name: "The page's markdown, read only" })
    await text.waitFor({ timeout: 60_000 })
    const shown = Date.now() - asked
    expect(await text.evaluate((element) => element.textContent)).toBe(before)
    await expect.poll(() => session.page.evaluate(() => "tooLargeShown" in globalThis)).toBe(true)
    const timing = await session.page.evaluate(() => {
      const read = performance.getEntriesByType("resource").find((entry) => entry.name.includes("format=markdown")) as PerformanceResourceTiming
      const { inserted, painted } = (globalThis as unknown as { tooLargeShown: { inserted: number; painted: number } }).tooLargeShown
      return { read: Math.round(read.responseEnd - read.startTime), laidOut: Math.round(painted - read.responseEnd), drawn: Math.round(painted - inserted) }
    })
    console.log(`too large page: told ${told} ms after opening, text shown after ${shown} ms; its ${before.length} characters read in ${timing.read} ms, on screen ${timing.laidOut} ms after (React and layout ${timing.drawn} ms)`)

    // axe checks the text's first part (what is on screen); the other 1,199 are alike and off screen.
    await captureScreen(session.page, "too-large-page", { exclude: [".live-too-large-text > pre:not(:first-child)"] })

    // Read only: no editor takes keystrokes, typing changes nothing here nor on the server.
    await expect.poll(() => session.page.locator(".page-editor-bar [role=status]").textContent()).toBe("Read only")
    expect(await editor(session.page).count()).toBe(0)
    await text.click()
    await session.page.keyboard.type("typed")
    await session.page.keyboard.press("Enter")
    expect(await text.evaluate((element) => element.textContent)).toBe(before)
    expect(await session.page.getByRole("alert").count()).toBe(0)
    expect(await stored()).toBe(before)
    expect(session.problems).toEqual([])
  } finally {
    await session.context.close()
  }
})
