/**
 * A space page opened cold: the server's page names the screen's API requests as preloads and the
 * app uses each (one request per URL, none left unused); the tree draws the top level and the
 * current page's branch, and opens another branch from the keyboard.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

/** The console's warnings of `page`, as they come. */
const warningsOf = (page: Page) => {
  const warnings: Array<string> = []
  page.on("console", (message) => {
    if (message.type() === "warning") warnings.push(message.text())
  })
  return warnings
}

/** The page's requests of /v1 and /auth so far (with who made each), and the URLs it preloaded. */
const requestsOf = async (page: Page) => ({
  requests: await page.evaluate(() => (performance.getEntriesByType("resource") as Array<PerformanceResourceTiming>)
    .filter((entry) => /^\/(v1|auth)\//.test(new URL(entry.name).pathname))
    .map((entry) => ({ url: entry.name.replace(location.origin, ""), by: entry.initiatorType }))),
  preloaded: await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>("link[rel=preload][as=fetch]")].map((link) => link.getAttribute("href")))
})

/** Chromium warns of a preload left unused 3 s after the load event, and gives no sign before: only the rest of that time is waited. */
const noUnusedPreload = async (page: Page, warnings: ReadonlyArray<string>) => {
  const sinceLoad = await page.evaluate(() => performance.now() - (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventEnd)
  if (sinceLoad < 3500) await page.waitForTimeout(3500 - sinceLoad)
  expect(warnings.filter((w) => /preload/i.test(w))).toEqual([])
}

it("loads a nested page with its requests preloaded and used once; the tree opens the current branch only", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Cold Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Manual" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  const chapter = (n: number) => [
    { operation: "insert_page", ref: `c${n}`, title: `Chapter ${n}`, slug: `chapter-${n}`, document: { markdown: `Chapter ${n}.\n` } },
    { operation: "insert_page", ref: `s${n}`, into: `c${n}`, title: `Section ${n}.1`, slug: "section", document: { markdown: "A section.\n" } },
    { operation: "insert_page", into: `s${n}`, title: `Page ${n}.1.1`, slug: "page", document: { markdown: `## Steps\n\nThe page of chapter ${n}.\n` } }
  ]
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, { changes: [...chapter(1), ...chapter(2)] })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)

  const session = await open(browser(), url)
  const { page, problems, context } = session
  const warnings = warningsOf(page)
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/chapter-2/section/page`)
    await page.getByRole("heading", { name: "Page 2.1.1" }).first().waitFor()
    const tree = page.getByRole("navigation", { name: "Pages" })
    await tree.getByRole("link", { name: "Page 2.1.1" }).waitFor()
    expect(await tree.getByRole("link", { name: "Page 2.1.1" }).getAttribute("aria-current")).toBe("page")
    // Chapter 1's branch is closed: its section is not drawn.
    expect(await tree.locator(".page-tree a").allTextContents()).toEqual(["Chapter 1", "Chapter 2", "Section 2.1", "Page 2.1.1"])

    // The requests of the first screen: each URL once, and those the page preloaded came from the preload.
    await page.getByText("No comments on this page yet.").waitFor()
    const { requests, preloaded } = await requestsOf(page)
    expect(preloaded).toContain(`/v1/spaces/${space.id}/content/path/chapter-2%2Fsection%2Fpage?format=html`)
    expect(requests.filter((r) => requests.filter((o) => o.url === r.url).length > 1), JSON.stringify(requests, null, 1)).toEqual([])
    for (const href of preloaded) expect(requests.find((r) => r.url === href), href!).toEqual({ url: href, by: "link" })

    // Another branch, opened from the keyboard.
    const toggle = tree.getByRole("button", { name: "Show the pages under “Chapter 1”" })
    await toggle.focus()
    await page.keyboard.press("Enter")
    await tree.getByRole("link", { name: "Section 1.1" }).waitFor()
    expect(await tree.getByRole("button", { name: "Hide the pages under “Chapter 1”" }).getAttribute("aria-expanded")).toBe("true")

    await noUnusedPreload(page, warnings)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("opens a change request's page in the editor with its requests preloaded and used once", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Cold Editing Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Runbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Restarts" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Restart", slug: "restart", document: { markdown: "Drain the node before a restart.\n" } }]
  })

  const session = await open(browser(), url)
  const { page, problems, context } = session
  const warnings = warningsOf(page)
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/restart`)
    await page.getByRole("textbox", { name: "Page content" }).getByText("Drain the node before a restart.").waitFor()
    const { requests, preloaded } = await requestsOf(page)
    // The space (the frame's organization comes from it), the request, its tree and its files.
    expect(preloaded).toEqual(expect.arrayContaining([`/v1/spaces/${space.id}`, `/v1/spaces/${space.id}/change-requests/${cr.number}`, `/v1/spaces/${space.id}/change-requests/${cr.number}/content/pages`]))
    for (const href of preloaded) {
      const fetched = requests.filter((r) => r.url === href)
      expect(fetched, `${href}: ${JSON.stringify(requests, null, 1)}`).toEqual([{ url: href, by: "link" }])
    }
    await noUnusedPreload(page, warnings)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
