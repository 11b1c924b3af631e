/**
 * "Saved" means the server has it (issue 36's newcomer reproductions, in the live editor): a new
 * "Code block with title"'s title typed without leaving its field and its (empty) code typed into
 * after a click, and edits on page A after editing page B of the same change request, are
 * in the change request's markdown read through /v1 once the status says "Saved" (the server
 * writes the markdown a moment after it stored the change, hence the polls), and a reload shows
 * them; a field that commits when left (an expandable's summary) is never "Saved" while typed
 * in. The status can say "Saved" before a keystroke's change is on its way, so each step waits for
 * the text in the markdown, not for the word alone.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { open, openEditor, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface PageRead { readonly id: string; readonly markdown?: string; readonly title: string }

const settled = (page: Page) => page.evaluate(() => new Promise((done) => setTimeout(() => requestAnimationFrame(done), 0)))

const saved = (page: Page) => page.getByRole("status").filter({ hasText: /^Saved/ }).waitFor()

const changeRequest = async (subject: string, pages: ReadonlyArray<{ readonly title: string; readonly slug: string; readonly markdown: string }>) => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: `${subject} Org` })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: pages.map((p) => ({ operation: "insert_page", title: p.title, slug: p.slug, document: { markdown: p.markdown } }))
  })
  const listed = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
  const read = async (title: string) => {
    const page = listed.pages.find((p) => p.title === title)!
    const got = await api<PageRead>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${page.id}?format=markdown`)
    return got.markdown ?? ""
  }
  return { space, cr, read }
}

it("text typed into a new titled code block is stored", async () => {
  const { space, cr, read } = await changeRequest("Titled code", [{ title: "Notes", slug: "notes", markdown: "Start here.\n" }])
  const session = await open(browser(), url, { expected: [] })
  const { page } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/notes`)
    await editor.getByText("Start here.").click()
    await page.keyboard.press("End")
    await page.keyboard.press("Enter")
    await page.keyboard.type("/filename")
    const menu = page.getByRole("listbox", { name: "Insert a block" })
    await menu.getByRole("option", { name: /^Code block with title/ }).first().waitFor()
    await page.keyboard.press("Enter")
    await menu.waitFor({ state: "detached" })
    await saved(page)
    // The title field has the focus: what is typed there is saved without leaving it.
    const title = editor.getByRole("textbox", { name: "Title" }).last()
    await expect.poll(() => title.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.type("install.sh")
    await saved(page)
    await expect.poll(() => read("Notes"), { timeout: 15_000 }).toContain('{% code title="install.sh" %}')
    // The newcomer's way into the code: a click on the empty code, then type.
    await editor.locator(".quire-codeBlock pre").click()
    await settled(page)
    await page.keyboard.type("npm install quire")
    await saved(page)
    await expect.poll(() => read("Notes"), { timeout: 15_000 }).toContain("npm install quire")
    // The block holds what was typed and nothing else.
    expect(await read("Notes")).toMatch(/{% code title="install.sh" %}\n```[a-z]*\nnpm install quire\n```\n{% endcode %}/)
    await page.reload()
    await saved(page)
    await page.getByRole("textbox", { name: "Page content" }).locator("pre code").getByText("npm install quire").waitFor()
    expect(await page.getByRole("textbox", { name: "Title" }).last().inputValue()).toBe("install.sh")
    expect(session.problems).toEqual([])
  } finally {
    await session.context.close()
  }
})

it("edits on page A after editing page B of the same change request are stored, with no conflict, also after a reload", async () => {
  const { space, cr, read } = await changeRequest("Two pages", [
    { title: "Alpha", slug: "alpha", markdown: "Alpha text.\n" },
    { title: "Beta", slug: "beta", markdown: "Beta text.\n" }
  ])
  const session = await open(browser(), url, { expected: [] })
  const { page } = session
  const editor = page.getByRole("textbox", { name: "Page content" })
  // Between pages through the change request's page tree, as a person does (no reload in between).
  const type = async (title: string, anchor: string, words: string) => {
    await page.getByRole("navigation", { name: "Pages of the change request" }).getByRole("link", { name: title }).click()
    await editor.getByText(anchor).click()
    await page.keyboard.press("End")
    await page.keyboard.type(words)
    await saved(page)
  }
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/alpha`)
    await saved(page)
    await type("Alpha", "Alpha text.", " First edit.")
    await expect.poll(() => read("Alpha"), { timeout: 15_000 }).toBe("Alpha text. First edit.\n")
    await type("Beta", "Beta text.", " Beta edit.")
    await type("Alpha", "Alpha text. First edit.", " Second edit.")
    expect(await page.getByText(/changed elsewhere|<<<<<<<|Reload the page/).count()).toBe(0)
    await expect.poll(() => read("Alpha"), { timeout: 15_000 }).toBe("Alpha text. First edit. Second edit.\n")
    await expect.poll(() => read("Beta"), { timeout: 15_000 }).toBe("Beta text. Beta edit.\n")
    // A hard reload: the page as the server has it, every character there.
    await page.reload()
    await saved(page)
    await editor.getByText("Alpha text. First edit. Second edit.").waitFor()
    expect(session.problems).toEqual([])
  } finally {
    await session.context.close()
  }
})

it("a field that commits when left (a block's, the page's title) is never \"Saved\" while typed in; left, its words are stored", async () => {
  const { space, cr, read } = await changeRequest("Summary", [{ title: "Notes", slug: "notes", markdown: "Start here.\n" }])
  const session = await open(browser(), url, { expected: [] })
  const { page } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/notes`)
    await editor.getByText("Start here.").click()
    await page.keyboard.press("End")
    await page.keyboard.press("Enter")
    await page.keyboard.type("/expandable")
    const menu = page.getByRole("listbox", { name: "Insert a block" })
    await menu.getByRole("option", { name: /^Expandable/ }).first().waitFor()
    await page.keyboard.press("Enter")
    await menu.waitFor({ state: "detached" })
    await saved(page)
    await expect.poll(() => read("Notes"), { timeout: 15_000 }).toContain("<summary>Summary</summary>")
    // An expandable's summary is committed when the field is left: until then the status says so.
    const summary = editor.getByRole("textbox", { name: "Summary" })
    await summary.fill("Read this first")
    await page.getByRole("status").filter({ hasText: "Not saved until you leave the field" }).waitFor()
    await summary.press("Tab")
    await saved(page)
    await expect.poll(() => read("Notes"), { timeout: 15_000 }).toContain("<summary>Read this first</summary>")
    // So is the page's title (saved through the API when left).
    const title = page.getByRole("textbox", { name: "Page title", exact: true })
    await title.fill("Field notes")
    await page.getByRole("status").filter({ hasText: "Not saved until you leave the field" }).waitFor()
    await title.press("Tab")
    await saved(page)
    await page.getByRole("navigation", { name: "Pages of the change request" }).getByRole("link", { name: "Field notes" }).waitFor()
    expect((await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)).pages.map((p) => p.title)).toEqual(["Field notes"])
    await page.reload()
    await saved(page)
    await expect.poll(() => page.getByRole("textbox", { name: "Page content" }).getByRole("textbox", { name: "Summary" }).inputValue()).toBe("Read this first")
    expect(await title.inputValue()).toBe("Field notes")
    expect(session.problems).toEqual([])
  } finally {
    await session.context.close()
  }
})
