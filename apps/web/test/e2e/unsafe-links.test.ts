/**
 * Links a page's author wrote with a scheme that runs (`javascript:`, `data:`) are not live in the
 * app: the review's diff, a revision's diff and the editor draw them with `href="#"`, as the
 * published site does (one filter: @quire/kernel SafeHref.ts); http(s) links stay as written.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { artifacts, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

const unsafe = [
  ["the script", "javascript:alert(document.domain)"],
  ["the shouted script", "JAVASCRIPT:alert(1)"],
  ["the data", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="],
  ["the vbscript", "vbscript:msgbox(1)"]
] as const

const markdown = (lead: string) =>
  `${lead}\n\nRead ${unsafe.map(([text, href]) => `[${text}](${href})`).join(", ")} or [the site](https://example.com/docs).\n`

/** In `scope` of `page`: every unsafe link drawn with `#`, the safe one as written, no live `javascript:`/`data:` link at all. */
const expectNeutralized = async (page: Page, scope: string, where: string) => {
  const area = page.locator(scope)
  for (const [text] of unsafe) {
    const link = area.locator("a", { hasText: text }).first()
    await link.waitFor()
    expect(await link.getAttribute("href"), `${where}: ${text}`).toBe("#")
  }
  expect(await area.locator("a", { hasText: "the site" }).first().getAttribute("href"), where).toBe("https://example.com/docs")
  const live = await page.evaluate(() =>
    Array.from(document.querySelectorAll("a[href]"), (a) => (a as HTMLAnchorElement).protocol).filter((p) => p !== "http:" && p !== "https:" && p !== "mailto:" && p !== "tel:"))
  expect(live, where).toEqual([])
}

it("javascript: and data: links are not live in the review, revision and editor views", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Unsafe Links Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Manual" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [{ operation: "insert_page", title: "Links", slug: "links", document: { markdown: "A first line.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const pages = await api<{ pages: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/spaces/${space.id}/content/pages`)
  const links = pages.pages.find((p) => p.title === "Links")!
  const added = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Add links" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${added.id}/content`, {
    changes: [{ operation: "update_page", page: links.id, document: { markdown: markdown("A first line.") } }]
  })

  const session = await open(browser(), url)
  const { page, context } = session
  try {
    await signInAsAdmin(session, url)

    // The review of the open change request: the added paragraph is drawn as the reader sees it.
    await page.goto(`/s/${space.id}/~/changes/${added.number}/~/review`)
    await page.getByRole("heading", { name: "Add links" }).waitFor()
    await expectNeutralized(page, ".review-diff", "review")
    await page.screenshot({ path: `${artifacts}unsafe-links-review.png`, fullPage: true })

    // A revision's diff, once merged.
    const merged = await api<{ revision: string }>(url, "POST", `/spaces/${space.id}/change-requests/${added.id}/merge`)
    await page.goto(`/s/${space.id}/~/revisions/${merged.revision}`)
    await expectNeutralized(page, ".revision-diff", "revision")
    await page.screenshot({ path: `${artifacts}unsafe-links-revision.png`, fullPage: true })

    // The editor of a new change request.
    const editing = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Edit links" })
    await page.goto(`/s/${space.id}/~/changes/${editing.number}/links`)
    await page.getByRole("textbox", { name: "Page content" }).getByText("A first line.").waitFor()
    await expectNeutralized(page, "[role=textbox]", "editor")
    await page.screenshot({ path: `${artifacts}unsafe-links-editor.png`, fullPage: true })

    // The markdown keeps what the author wrote: only the drawing is neutralized.
    const stored = await api<{ markdown?: string }>(url, "GET", `/spaces/${space.id}/content/page/${links.id}?format=markdown`)
    expect(stored.markdown).toContain("[the script](javascript:alert(document.domain))")
  } catch (error) {
    await page.screenshot({ path: `${artifacts}unsafe-links-failure.png` })
    throw error
  } finally {
    await context.close()
  }
})
