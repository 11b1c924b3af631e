/**
 * Tabs reordered in the editor's tab bar: by Alt+Arrow on a tab, by "Move tab left", and by
 * dragging a tab onto another; each saved to the page's markdown (read through /v1).
 */
import { expect, inject, it } from "vitest"
import { captureScreen, open, openEditor, sharedBrowser } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

const tab = (title: string, body: string) => `{% tab title="${title}" %}\n${body}\n{% endtab %}`
const tabs = (...items: ReadonlyArray<readonly [string, string]>) => `Intro.\n\n{% tabs %}\n${items.map(([t, b]) => tab(t, b)).join("\n\n")}\n{% endtabs %}\n`
const npm = ["npm", "npm i"] as const
const pnpm = ["pnpm", "pnpm add"] as const
const yarn = ["yarn", "yarn add"] as const

it("moves tabs by keyboard, by the bar's button and by dragging, saved to the page", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Tabs Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Tabs" })
  const base = `/spaces/${space.id}/change-requests/${cr.id}`
  await api(url, "POST", `${base}/content`, { changes: [{ operation: "insert_page", title: "Install", slug: "install", document: { markdown: tabs(npm, pnpm, yarn) } }] })
  const pages = await api<{ pages: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `${base}/content/pages`)
  const install = pages.pages.find((p) => p.title === "Install")!
  const read = () => api<{ markdown?: string }>(url, "GET", `${base}/content/page/${install.id}?format=markdown`).then((p) => p.markdown ?? "")
  const saved = (markdown: string) => eventually(`the page as ${JSON.stringify(markdown)}`, read, (md) => md === markdown)

  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/install`)
    const bar = editor.getByRole("tablist", { name: "Tabs" })
    const names = () => bar.getByRole("tab").allTextContents()
    await expect.poll(names).toEqual(["npm", "pnpm", "yarn"])

    // Alt+ArrowRight on the first tab moves it right; it stays shown and focused.
    await bar.getByRole("tab", { name: "npm", exact: true, selected: true }).focus()
    await page.keyboard.press("Alt+ArrowRight")
    await expect.poll(names).toEqual(["pnpm", "npm", "yarn"])
    await expect.poll(() => bar.getByRole("tab", { name: "npm", exact: true }).evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await bar.getByRole("tab", { selected: true }).textContent()).toBe("npm")
    await saved(tabs(pnpm, npm, yarn))
    // At the edge nothing moves.
    await page.keyboard.press("Alt+ArrowLeft")
    await page.keyboard.press("Alt+ArrowLeft")
    await expect.poll(names).toEqual(["npm", "pnpm", "yarn"])
    await saved(tabs(npm, pnpm, yarn))

    // The bar's button: the tab shown moves.
    await bar.getByRole("tab", { name: "yarn", exact: true }).click()
    await editor.getByRole("button", { name: "Move tab left" }).click()
    await expect.poll(names).toEqual(["npm", "yarn", "pnpm"])
    await captureScreen(page, "tabs-reorder")

    // Dragged onto the first tab, pnpm takes its place.
    await bar.getByRole("tab", { name: "pnpm", exact: true }).dragTo(bar.getByRole("tab", { name: "npm", exact: true }))
    await expect.poll(names).toEqual(["pnpm", "npm", "yarn"])
    await saved(tabs(pnpm, npm, yarn))
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
