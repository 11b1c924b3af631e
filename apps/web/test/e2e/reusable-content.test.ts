/**
 * Reusable content in the editor: the selected blocks turned into a new reusable content by
 * keyboard ("Make reusable", a name, Enter), which an include of it replaces in the page; an
 * existing one inserted from the slash menu. An include shows the title of what it includes; the
 * sidebar lists the change request's reusable contents, renamed and deleted by keyboard. What is
 * stored is read through /v1.
 */
import { expect, inject, it } from "vitest"
import { captureAllPairs, captureScreen, errorOf, expectAccessible, open, openEditor, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface Reusable { readonly id: string; readonly title: string; readonly markdown?: string }

it("makes the selected blocks reusable content and inserts another from the slash menu", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Reuse Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Reuse" })
  const base = `/spaces/${space.id}/change-requests/${cr.id}`
  await api(url, "POST", `${base}/content`, {
    changes: [{ operation: "insert_page", title: "Notes", slug: "notes", document: { markdown: "Intro.\n\nShared one.\n\nShared two.\n\nOutro.\n" } }]
  })
  const contact = await api<Reusable>(url, "POST", `${base}/content/reusable-contents`, { title: "Contact", markdown: "Write to us.\n" })
  const pages = await api<{ pages: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `${base}/content/pages`)
  const notes = pages.pages.find((p) => p.title === "Notes")!
  const read = () => api<{ markdown?: string }>(url, "GET", `${base}/content/page/${notes.id}?format=markdown`).then((p) => p.markdown ?? "")
  const listed = () => api<{ items: ReadonlyArray<Reusable> }>(url, "GET", `${base}/content/reusable-contents`).then((l) => l.items)

  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/notes`)
    const make = page.getByRole("button", { name: "Make reusable" })
    // Nothing selected: nothing to make reusable.
    await editor.getByText("Intro.").click()
    expect(await make.isDisabled()).toBe(true)

    // Select the two shared paragraphs by keyboard.
    await editor.getByText("Shared one.").click()
    await page.keyboard.press("Home")
    await page.keyboard.press("Shift+ArrowDown")
    await page.keyboard.press("Shift+End")
    await expect.poll(() => make.isDisabled()).toBe(false)
    await make.focus()
    await page.keyboard.press("Enter")
    const form = page.getByRole("form", { name: "Make reusable" })
    const name = form.getByRole("textbox", { name: "Name of the reusable content" })
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true)
    // No name: said next to the field.
    await page.keyboard.press("Enter")
    await form.getByRole("alert").getByText("Give the reusable content a name.").waitFor()
    await page.keyboard.type("Shared block")
    await captureScreen(page, "reusable-content-make")
    await page.keyboard.press("Enter")
    await form.waitFor({ state: "detached" })

    const created = await eventually("the new reusable content", listed, (items) => items.some((r) => r.title === "Shared block"))
    const shared = created.find((r) => r.title === "Shared block")!
    expect(shared.markdown).toBe("Shared one.\n\nShared two.\n")
    const replaced = await eventually("the include in place of the blocks", read, (md) => md.includes(`/reusable-content/${shared.id}`))
    expect(replaced).toBe(`Intro.\n\n{% include "/reusable-content/${shared.id}" %}\n\nOutro.\n`)

    // The slash menu offers the change request's reusable contents.
    // To the end of the page by keyboard (the include is selected now), once the caret is in its last paragraph.
    await page.keyboard.press("Control+End")
    await expect.poll(() => page.evaluate(() => document.getSelection()?.anchorNode?.textContent ?? "")).toBe("Outro.")
    await page.keyboard.press("Enter")
    await page.keyboard.type("/contact")
    const menu = page.getByRole("listbox", { name: "Insert a block" })
    await expect.poll(() => menu.getByRole("option").first().textContent()).toMatch(/^Reusable: Contact/)
    await captureScreen(page, "reusable-content-slash")
    await page.keyboard.press("Enter")
    await menu.waitFor({ state: "detached" })
    const withContact = await eventually("the included contact", read, (md) => md.includes(`/reusable-content/${contact.id}`))
    expect(withContact).toContain(`Outro.\n\n{% include "/reusable-content/${contact.id}" %}\n`)
    await expectAccessible(page, "the editor with reusable content")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("shows an include by its title and renames and deletes reusable content from the sidebar", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Reuse Panel Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Support" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Tidy" })
  const base = `/spaces/${space.id}/change-requests/${cr.id}`
  const contact = await api<Reusable>(url, "POST", `${base}/content/reusable-contents`, { title: "Contact", markdown: "Write to us.\n" })
  const legal = await api<Reusable>(url, "POST", `${base}/content/reusable-contents`, { title: "Legal", markdown: "All rights reserved.\n" })
  await api(url, "POST", `${base}/content`, {
    changes: [
      { operation: "insert_page", title: "Help", slug: "help", document: { markdown: `Ask us.\n\n{% include "/reusable-content/${contact.id}" %}\n\n{% include "/reusable-content/gone" %}\n` } },
      { operation: "insert_page", title: "Billing", slug: "billing", document: { markdown: `Pay.\n\n{% include "/reusable-content/${contact.id}" %}\n` } }
    ]
  })
  const listed = () => api<{ items: ReadonlyArray<Reusable> }>(url, "GET", `${base}/content/reusable-contents`).then((l) => l.items)

  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/help`)
    // The include says what it includes by title; an id the change request does not hold says so.
    await editor.getByRole("group", { name: "Reusable content: Contact" }).waitFor()
    await editor.getByRole("group", { name: "Reusable content: Reusable content not found" }).waitFor()

    const panel = page.getByRole("region", { name: "Reusable content" })
    await panel.getByText("Legal").waitFor()
    // Rename by keyboard: an empty name is refused next to the field, Enter saves.
    await panel.getByRole("button", { name: "Rename Contact" }).focus()
    await page.keyboard.press("Enter")
    const name = panel.getByRole("textbox", { name: "New name of Contact" })
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.press("Delete")
    await page.keyboard.press("Enter")
    await expect.poll(() => errorOf(name)).toBe("Give the reusable content a name.")
    await page.keyboard.type("Support contact")
    await page.keyboard.press("Enter")
    await panel.getByRole("button", { name: "Rename Support contact" }).waitFor()
    await expect.poll(() => listed().then((items) => items.map((r) => r.title))).toEqual(["Support contact", "Legal"])
    // The focus is back on the button that opened the form.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Rename Support contact")
    // The open page's include follows the rename, without opening the page again.
    await editor.getByRole("group", { name: "Reusable content: Support contact" }).waitFor()

    // Delete asks first, naming the pages that include it; Escape keeps it.
    await panel.getByRole("button", { name: "Delete Support contact" }).focus()
    await page.keyboard.press("Enter")
    const confirm = panel.getByRole("group", { name: "Delete Support contact?" })
    await confirm.getByText("These 2 pages include it and will show nothing in its place: Help, Billing.").waitFor()
    await captureAllPairs(page, "reusable-content-panel-delete")
    // The narrow screens put the sidebar in a drawer, which took the focus away: back to Cancel.
    await confirm.getByRole("button", { name: "Cancel" }).focus()
    await page.keyboard.press("Escape")
    await confirm.waitFor({ state: "detached" })
    expect((await listed()).map((r) => r.id)).toEqual([contact.id, legal.id])

    // One nobody includes says so; confirmed by keyboard, it is gone.
    await panel.getByRole("button", { name: "Delete Legal" }).focus()
    await page.keyboard.press("Enter")
    const confirmLegal = panel.getByRole("group", { name: "Delete Legal?" })
    await confirmLegal.getByText("No page includes it.").waitFor()
    await page.keyboard.press("Shift+Tab")
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Delete")
    await page.keyboard.press("Enter")
    await panel.getByRole("status").getByText("Deleted “Legal”.").waitFor()
    // The focus stays in the panel, on its heading, not at the page's start.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Reusable content")
    await expect.poll(() => listed().then((items) => items.map((r) => r.title))).toEqual(["Support contact"])
    await captureAllPairs(page, "reusable-content-panel")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("lists the space's reusable contents, read-only, once a change request brings them to main", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Reuse Space Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Shared words" })
  const base = `/spaces/${space.id}/change-requests/${cr.id}`
  await api<Reusable>(url, "POST", `${base}/content/reusable-contents`, { title: "Support contact", markdown: "{% hint style=\"info\" %}\nWrite to **support@example.com**.\n{% endhint %}\n" })
  await api<Reusable>(url, "POST", `${base}/content/reusable-contents`, { title: "Empty for now" })
  await api(url, "POST", `${base}/content`, { changes: [{ operation: "insert_page", title: "Welcome", slug: "welcome", document: { markdown: "Hello.\n" } }] })
  await api(url, "POST", `${base}/merge`)

  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/welcome`)
    const section = page.getByRole("region", { name: "Reusable content" })
    await section.getByText("Support contact").waitFor()
    // Each by its title and first words, without the markup; one with no words shows its title alone.
    await section.getByText("Write to support@example.com.").waitFor()
    expect(await section.getByRole("listitem").allInnerTexts()).toEqual(["Support contact\nWrite to support@example.com.", "Empty for now"])
    // Read-only: nothing to rename or delete here.
    expect(await section.getByRole("button").count()).toBe(0)
    await captureAllPairs(page, "space-reusable-content")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
