/**
 * What a writer sees when the page or the change request they type in changes under them (issue
 * 57's findings 6 to 8, tried as a new user would, two people in one change request): the page
 * deleted by the other, the change request merged by the other while their last words wait in the
 * browser, and a merged change request opened afresh. Each time the editor says so in words, takes
 * no keystroke it cannot keep, never says "Saved" for what the server refused, and offers the text
 * back (copied, or as a new change request, read back through /v1).
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { captureScreen, open, type Session, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { editor, saved, textOf, typeAfter } from "./live.ts"
import { api, eventually } from "./servers.ts"

const browser = sharedBrowser()
const url = () => inject("readyServer")

interface Listed {
  readonly id: string
  readonly title: string
  readonly type: string
  readonly path: string
  readonly pages?: ReadonlyArray<Listed>
}

const flat = (pages: ReadonlyArray<Listed>): Array<Listed> => pages.flatMap((page) => [page, ...flat(page.pages ?? [])])

/**
 * An organization where Bea Writer (an editor, signed in on `bea`) joined, a space, and a change
 * request holding the pages "Notes" (`markdown`) and "Other": the change request, and the path of
 * its screen on "Notes".
 */
const setup = async (subject: string, markdown: string, bea: Session) => {
  const org = await api<{ id: string }>(url(), "POST", "/orgs", { title: `${subject} Org` })
  const space = await api<{ id: string }>(url(), "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url(), "POST", `/spaces/${space.id}/change-requests`, { subject })
  await api(url(), "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [
      { operation: "insert_page", title: "Notes", slug: "notes", document: { markdown } },
      { operation: "insert_page", title: "Other", slug: "other", document: { markdown: "Another page.\n" } }
    ]
  })
  const pages = await api<{ pages: ReadonlyArray<Listed> }>(url(), "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
  const notes = flat(pages.pages).find((page) => page.title === "Notes")!
  await api(url(), "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url(), "POST", `/orgs/${org.id}/link-invites`, { role: "edit" })
  const joined = await bea.context.request.post(`${url()}/auth/invites/${org.id}.${link.id}/accept`, {
    data: { displayName: "Bea Writer", email: `bea.${subject.toLowerCase().replace(/[^a-z]+/g, "-")}@quire.test`, password: "a password long enough" },
    headers: { origin: url() }
  })
  expect(joined.status()).toBe(200)
  return { space, cr, notes, path: `/s/${space.id}/~/changes/${cr.number}/notes` }
}

/** The markdown of the page titled `title` in the change request `number` of `spaceId`, read through /v1. */
const markdownOf = async (spaceId: string, number: number, title: string) => {
  const base = `/spaces/${spaceId}/change-requests/${number}/content`
  const pages = await api<{ pages: ReadonlyArray<Listed> }>(url(), "GET", `${base}/pages`)
  const page = flat(pages.pages).find((listed) => listed.title === title)
  if (page === undefined) return undefined
  return (await api<{ markdown?: string }>(url(), "GET", `${base}/page/${page.id}?format=markdown`)).markdown ?? ""
}

/** The markdown of the page titled `title` in the space's main content, read through /v1. */
const mainMarkdownOf = async (spaceId: string, title: string) => {
  const pages = await api<{ pages: ReadonlyArray<Listed> }>(url(), "GET", `/spaces/${spaceId}/content/pages`)
  const page = flat(pages.pages).find((listed) => listed.title === title)
  if (page === undefined) return undefined
  return (await api<{ markdown?: string }>(url(), "GET", `/spaces/${spaceId}/content/page/${page.id}?format=markdown`)).markdown ?? ""
}

/** The change request the screen shows now (`/s/<space>/~/changes/<n>/...`): its number. */
const shownNumber = (page: Page) => Number(/\/~\/changes\/(\d+)/.exec(new URL(page.url()).pathname)?.[1] ?? "0")

/** The status line's words, whatever they are now. */
const statusLine = (page: Page) => page.locator(".page-editor-bar [role=status]").textContent()

it("Alice deletes the page Bob types in: he is told at once, stops typing into nothing, and takes his words to a new change request", async () => {
  const bea = await open(browser(), url())
  try {
    const { space, cr, notes, path } = await setup("Deleted page", "First paragraph.\n", bea)
    await bea.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url() })
    await bea.page.goto(path)
    await saved(bea.page)
    await typeAfter(bea.page, "First paragraph.", " Bea's twenty words that must not vanish.")
    await saved(bea.page)

    // Ada deletes the page (through the API, as another person's screen does).
    const asked = Date.now()
    await api(url(), "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: "delete_page", page: notes.id }] })
    const alert = bea.page.getByRole("alert").filter({ hasText: "was deleted from this change request" })
    await alert.waitFor()
    const took = Date.now() - asked
    expect(await alert.textContent()).toBe("“Notes” was deleted from this change request while you had it open. What you typed in it is not kept there.")
    // Told within seconds, not at the next timed check of access; a loaded machine gets some slack.
    expect(took).toBeLessThan(8_000)
    // The editor takes no more keystrokes, and the status never says "Saved" again.
    await expect.poll(() => editor(bea.page).getAttribute("contenteditable")).toBe("false")
    const before = await textOf(bea.page)
    await editor(bea.page).click()
    await bea.page.keyboard.type("Lost?")
    expect(await textOf(bea.page)).toBe(before)
    expect(await statusLine(bea.page)).not.toBe("Saved")
    // Bea's tree no longer lists the page.
    await expect.poll(() => bea.page.getByRole("navigation", { name: "Pages of the change request" }).getByRole("link", { name: "Notes" }).count()).toBe(0)

    await captureScreen(bea.page, "changed-under-page-deleted")

    await bea.page.getByRole("button", { name: "Copy my text" }).click()
    await bea.page.getByText("Copied to the clipboard.").waitFor()
    expect(await bea.page.evaluate(() => navigator.clipboard.readText())).toContain("Bea's twenty words that must not vanish.")

    await bea.page.getByRole("button", { name: "Start a new change request with it" }).click()
    await expect.poll(() => shownNumber(bea.page), { timeout: 30_000 }).not.toBe(cr.number)
    const created = shownNumber(bea.page)
    const stored = await eventually("the new change request holds Bea's words", () => markdownOf(space.id, created, "Notes"), (markdown) => markdown !== undefined)
    expect(stored).toBe("First paragraph. Bea's twenty words that must not vanish.\n")
    expect(bea.problems).toEqual([])
  } finally {
    await bea.context.close()
  }
})

it("Ada merges while Bea's last words wait in her browser: Bea is told who merged, her words are offered, and after a reload the page is read-only", async () => {
  const bea = await open(browser(), url())
  try {
    const { space, cr, path } = await setup("Merged meanwhile", "Opening line.\n", bea)
    await bea.page.goto(path)
    await saved(bea.page)
    await typeAfter(bea.page, "Opening line.", " Typed before the merge.")
    await saved(bea.page)
    // Bea's connection drops; she types on, and the words wait in her browser.
    await bea.context.setOffline(true)
    await bea.page.keyboard.type(" Typed while the merge happened.")
    await bea.page.getByRole("status").filter({ hasText: /^Offline/ }).waitFor()

    await api(url(), "POST", `/spaces/${space.id}/change-requests/${cr.id}/merge`)
    expect(await mainMarkdownOf(space.id, "Notes")).toBe("Opening line. Typed before the merge.\n")

    await bea.context.setOffline(false)
    const alert = bea.page.getByRole("alert").filter({ hasText: "Ada Admin merged this change request" })
    await alert.waitFor()
    expect(await alert.textContent()).toBe("Ada Admin merged this change request. What you typed after that is not in it.")
    await expect.poll(() => editor(bea.page).getAttribute("contenteditable")).toBe("false")
    // The header follows: merged, and no "Submit for review" any more.
    await bea.page.locator(".cr-status").filter({ hasText: "Merged" }).waitFor()
    expect(await bea.page.getByRole("button", { name: "Submit for review" }).count()).toBe(0)
    expect(await statusLine(bea.page)).not.toMatch(/^(Saved|Saving…)$/)
    await captureScreen(bea.page, "changed-under-merged")

    // A reload: the page opens read-only, and offers the words this browser kept.
    await bea.page.reload()
    const kept = bea.page.getByRole("alert").filter({ hasText: "Ada Admin merged this change request before this browser could send" })
    await kept.waitFor()
    expect(await kept.textContent()).toBe("Ada Admin merged this change request before this browser could send your last changes to this page: they are not in it.")
    await bea.page.getByRole("status").filter({ hasText: /^Read only$/ }).waitFor()
    expect(await bea.page.getByText(/Sending the changes kept in this browser/).count()).toBe(0)
    expect(await editor(bea.page).getAttribute("contenteditable")).toBe("false")
    expect(await textOf(bea.page)).not.toContain("Typed while the merge happened.")

    await bea.page.getByRole("button", { name: "Show my text" }).click()
    expect(await bea.page.getByRole("textbox", { name: "Your text" }).inputValue()).toContain("Typed while the merge happened.")
    await bea.page.getByRole("button", { name: "Start a new change request with it" }).click()
    await expect.poll(() => shownNumber(bea.page), { timeout: 30_000 }).not.toBe(cr.number)
    const created = shownNumber(bea.page)
    const stored = await eventually("the new change request holds Bea's words", () => markdownOf(space.id, created, "Notes"), (markdown) => markdown !== undefined)
    expect(stored).toBe("Opening line. Typed before the merge. Typed while the merge happened.\n")
    // Once moved, the copy this browser kept is gone: the merged page opens without the offer.
    await bea.page.goto(path)
    await bea.page.getByRole("status").filter({ hasText: /^Read only$/ }).waitFor()
    expect(await bea.page.getByRole("button", { name: "Start a new change request with it" }).count()).toBe(0)
    expect(bea.problems).toEqual([])
  } finally {
    await bea.context.close()
  }
})

it("Ada merges while Bea types online: Bea is told at once, her editor stops, and the status never says Saving… or Saved again", async () => {
  const bea = await open(browser(), url())
  try {
    const { space, cr, path } = await setup("Merged online", "Online line.\n", bea)
    await bea.page.goto(path)
    await saved(bea.page)
    await typeAfter(bea.page, "Online line.", " Typed before the merge.")
    await saved(bea.page)
    const asked = Date.now()
    await api(url(), "POST", `/spaces/${space.id}/change-requests/${cr.id}/merge`)
    const alert = bea.page.getByRole("alert").filter({ hasText: "Ada Admin merged this change request" })
    await alert.waitFor()
    expect(Date.now() - asked).toBeLessThan(8_000)
    expect(await alert.textContent()).toBe("Ada Admin merged this change request. What you typed after that is not in it.")
    await expect.poll(() => editor(bea.page).getAttribute("contenteditable")).toBe("false")
    await bea.page.keyboard.type("Into nothing?")
    expect(await textOf(bea.page)).toBe("Online line. Typed before the merge.")
    expect(await statusLine(bea.page)).not.toMatch(/^(Saved|Saving…)$/)
    await bea.page.locator(".cr-status").filter({ hasText: "Merged" }).waitFor()
    expect(await mainMarkdownOf(space.id, "Notes")).toBe("Online line. Typed before the merge.\n")
    expect(bea.problems).toEqual([])
  } finally {
    await bea.context.close()
  }
})

it("a merged change request opened afresh is read-only: no keystroke taken, no Saving…, no toolbar nor tree edits offered, and the tree still opens pages from the keyboard", async () => {
  const ada = await open(browser(), url())
  try {
    const markdown = "Merged text.\n\n```js\nlet merged = true\n```\n"
    const { space, cr, path } = await setup("Opened after merge", markdown, ada)
    await api(url(), "POST", `/spaces/${space.id}/change-requests/${cr.id}/merge`)
    await signInAsAdmin(ada, url())
    await ada.page.goto(path)
    await ada.page.getByRole("status").filter({ hasText: /^Read only$/ }).waitFor()
    await ada.page.getByText("This change request is merged into the space").waitFor()
    expect(await editor(ada.page).getAttribute("contenteditable")).toBe("false")
    const shown = await textOf(ada.page)
    expect(shown).toContain("Merged text.")
    await editor(ada.page).locator("p").first().click()
    await ada.page.keyboard.type("Typed into a merged change request.")
    expect(await textOf(ada.page)).toBe(shown)
    expect(await ada.page.getByText(/Saving/).count()).toBe(0)

    // Nothing is offered that would be refused: no formatting toolbar, no add form, no row actions, no drag hint.
    const tree = ada.page.getByRole("navigation", { name: "Pages of the change request" })
    expect(await ada.page.getByRole("toolbar", { name: "Formatting" }).count()).toBe(0)
    expect(await tree.getByRole("textbox", { name: "New page title" }).count()).toBe(0)
    expect(await tree.getByRole("button").count()).toBe(0)
    expect(await tree.getByText("Drag to move").count()).toBe(0)
    expect(await tree.locator("[draggable=true]").count()).toBe(0)
    // The code block is drawn, without its "Markdown" (edit as source) button.
    await editor(ada.page).locator(".quire-codeBlock").waitFor()
    expect(await editor(ada.page).getByRole("button", { name: "Edit this block as markdown", includeHidden: true }).count()).toBe(1)
    expect(await editor(ada.page).getByRole("button", { name: "Edit this block as markdown" }).count()).toBe(0)
    await captureScreen(ada.page, "changed-under-merged-fresh")

    // The tree still opens pages: from "Notes", Tab reaches "Other" and Enter opens it.
    const notes = tree.getByRole("link", { name: "Notes" })
    expect(await notes.getAttribute("aria-current")).toBe("page")
    await notes.focus()
    await ada.page.keyboard.press("Tab")
    expect(await ada.page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Other")
    await ada.page.keyboard.press("Enter")
    await tree.locator("a[aria-current=page]", { hasText: "Other" }).waitFor()
    await ada.page.getByRole("status").filter({ hasText: /^Read only$/ }).waitFor()
    expect(await eventually("the other page's text", () => textOf(ada.page), (text) => text === "Another page.")).toBe("Another page.")
    expect(new URL(ada.page.url()).pathname).toBe(`/s/${space.id}/~/changes/${cr.number}/other`)
    expect(await ada.page.getByRole("toolbar", { name: "Formatting" }).count()).toBe(0)
    // Alt+Shift+arrows move nothing either: the tree's order is as merged.
    await ada.page.keyboard.press("Alt+Shift+ArrowUp")
    const listed = await api<{ pages: ReadonlyArray<Listed> }>(url(), "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
    expect(flat(listed.pages).map((page) => page.title)).toEqual(["Notes", "Other"])
    expect(await markdownOf(space.id, cr.number, "Notes")).toBe(markdown)
    expect(ada.problems).toEqual([])
  } finally {
    await ada.context.close()
  }
})
