/**
 * The handles people reach for in the editor: the hint on an empty page and an empty line, the block handle
 * in the margin ("+" opens the slash menu on a new line below; the grip's menu moves, duplicates and deletes;
 * the grip drags the block), and the keys that move the caret's block. Each change is read back through /v1.
 */
import { expect, inject, it } from "vitest"
import type { Locator, Page } from "playwright-core"
import { captureOtherPairs, captureScreen, open, openEditor, sharedBrowser } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface PageRead { readonly id: string; readonly markdown?: string; readonly title: string }

/** The page's paragraphs as the server has them, in order. */
const lines = (markdown: string | undefined) => (markdown ?? "").split(/\n+/).filter((line) => line.trim() !== "")

/** The turn in which ProseMirror reads a selection the browser moved, and a frame: a person's next key never comes sooner. */
const settled = (page: Page) => page.evaluate(() => new Promise((done) => setTimeout(() => requestAnimationFrame(done), 0)))

/** Puts the pointer over `block`'s text, where the handle appears beside it. */
const hover = async (page: Page, block: Locator) => {
  const box = (await block.boundingBox())!
  await page.mouse.move(box.x + 4, box.y + box.height / 2)
}

it("hints on empty lines, and moves, duplicates, deletes and adds blocks with the handle and the keys", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Handles Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Rearrange" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [
      { operation: "insert_page", title: "Order", slug: "order", document: { markdown: "Alpha.\n\nBravo.\n\nCharlie.\n" } },
      { operation: "insert_page", title: "Blank", slug: "blank", document: { markdown: "" } }
    ]
  })
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
  const order = pages.pages.find((p) => p.title === "Order")!
  const blank = pages.pages.find((p) => p.title === "Blank")!
  const read = (pageId: string) => api<PageRead>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${pageId}?format=markdown`)
  const linesBecome = (pageId: string, expected: ReadonlyArray<string>) =>
    eventually(`the page's lines ${JSON.stringify(expected)}`, () => read(pageId), (p) => JSON.stringify(lines(p.markdown)) === JSON.stringify(expected))

  const session = await open(browser(), url, { expected: [] })
  const { page, problems, context } = session
  try {
    // An empty page says how to start; typing takes the hint away.
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/blank`)
    const hinted = editor.locator("p[data-placeholder]")
    await expect.poll(() => hinted.getAttribute("data-placeholder")).toBe("Write, or type / for blocks")
    await captureScreen(page, "editor-empty-page")
    await editor.click()
    await page.keyboard.type("Hello")
    await expect.poll(() => hinted.count()).toBe(0)
    // An empty line with the caret says "/" inserts a block.
    await page.keyboard.press("Enter")
    await expect.poll(() => hinted.getAttribute("data-placeholder")).toBe("Type / for blocks")
    await linesBecome(blank.id, ["Hello"])

    await page.goto(`/s/${space.id}/~/changes/${cr.number}/order`)
    const handle = page.locator(".quire-block-handle")
    const grip = page.getByRole("button", { name: "Drag to move the block, or open its menu" })
    await editor.getByText("Charlie.").waitFor()

    // The grip's menu, by pointer then by keyboard: "Move up" is the first choice, focused as it opens.
    await hover(page, editor.getByText("Charlie."))
    await handle.waitFor({ state: "visible" })
    await grip.click()
    const menu = page.getByRole("menu", { name: "Block" })
    await menu.waitFor()
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Move up/)
    expect(await menu.getByRole("menuitem", { name: /^Move down/ }).isDisabled()).toBe(true)
    await page.keyboard.press("Enter")
    await menu.waitFor({ state: "hidden" })
    await linesBecome(order.id, ["Alpha.", "Charlie.", "Bravo."])

    // Mod-Shift-ArrowDown moves the caret's block down, the caret with it; Escape closes a menu without a change.
    await editor.getByText("Alpha.").click()
    await page.keyboard.press("End")
    await settled(page)
    await page.keyboard.press("ControlOrMeta+Shift+ArrowDown")
    await linesBecome(order.id, ["Charlie.", "Alpha.", "Bravo."])
    await page.keyboard.type("!")
    await linesBecome(order.id, ["Charlie.", "Alpha.!", "Bravo."])

    // Duplicate and delete from the menu.
    await hover(page, editor.getByText("Bravo."))
    await grip.click()
    await menu.getByRole("menuitem", { name: "Duplicate" }).click()
    await linesBecome(order.id, ["Charlie.", "Alpha.!", "Bravo.", "Bravo."])
    await hover(page, editor.getByText("Charlie."))
    await grip.click()
    await page.keyboard.press("Escape")
    await menu.waitFor({ state: "hidden" })
    await hover(page, editor.getByText("Charlie."))
    await grip.click()
    await menu.getByRole("menuitem", { name: "Delete" }).click()
    await linesBecome(order.id, ["Alpha.!", "Bravo.", "Bravo."])

    // "+" adds a line below with the slash menu open on it: below the line, shortened to the room there
    // (a short window), rather than over the words above.
    // A window ending about 230 px under the new line: room for the menu shortened, not for all of it.
    const above = (await editor.getByText("Alpha.!").boundingBox())!
    const height = Math.round(above.y + above.height + 60 + 230)
    await page.setViewportSize({ width: 1280, height })
    await hover(page, editor.getByText("Alpha.!"))
    await page.getByRole("button", { name: "Add a block below" }).click()
    const insert = page.getByRole("listbox", { name: "Insert a block" })
    await insert.waitFor()
    const slashLine = (await editor.locator("p", { hasText: /^\/$/ }).boundingBox())!
    await expect.poll(async () => (await insert.boundingBox())!.y).toBeGreaterThan(slashLine.y + slashLine.height - 1)
    const shown = (await insert.boundingBox())!
    expect(shown.y + shown.height).toBeLessThanOrEqual(height)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.keyboard.type("Heading 2")
    await page.keyboard.press("Enter")
    await insert.waitFor({ state: "detached" })
    await page.keyboard.type("Section")
    await linesBecome(order.id, ["Alpha.!", "## Section", "Bravo.", "Bravo."])

    // The menu, in both themes and at 390 px (where the margin holds no handle: the keys and "/" remain).
    await hover(page, editor.getByText("Alpha.!"))
    await grip.click()
    await menu.waitFor()
    await captureScreen(page, "editor-block-menu")
    await captureOtherPairs(page, "editor-block-menu")
    await page.setViewportSize({ width: 1280, height: 800 })
    // A click elsewhere closes it.
    await editor.getByText("Bravo.").first().click()
    await menu.waitFor({ state: "hidden" })

    // The grip drags a block: the last line to above the first.
    const last = editor.locator("p", { hasText: "Bravo." }).last()
    // A synthetic drag now and then ends without its drop under load: dragged again only when the block did not move.
    const firstLine = () => editor.locator(":scope > *").first().textContent()
    for (let attempt = 0; attempt < 3 && (await firstLine()) !== "Bravo."; attempt++) {
      await hover(page, last)
      await handle.waitFor({ state: "visible" })
      await grip.dragTo(editor.getByText("Alpha.!"), { targetPosition: { x: 10, y: 2 } })
      await expect.poll(firstLine, { timeout: 2_000 }).toBe("Bravo.").catch(() => undefined)
    }
    await linesBecome(order.id, ["Bravo.", "Alpha.!", "## Section", "Bravo."])

    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("shows a block's options in a bar over the block the caret or the pointer is in: a hint's style, a figure's alt text and width", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Bars Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Options" })
  const markdown = "Intro.\n\n{% hint style=\"info\" %}\nCareful here.\n{% endhint %}\n\n<figure><img src=\"https://images.invalid/cat.png\" alt=\"A cat\" width=\"300\"><figcaption><p>The cat</p></figcaption></figure>\n\nEnd.\n"
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: "insert_page", title: "Options", slug: "options", document: { markdown } }] })
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
  const options = pages.pages.find((p) => p.title === "Options")!
  const read = () => api<PageRead>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${options.id}?format=markdown`)

  // The figure's image is on a host that does not exist: the browser says so in the console.
  const session = await open(browser(), url, { expected: [/Failed to load resource/] })
  const { page, problems, context } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/options`)
    await editor.getByText("End.").waitFor()
    const styles = editor.getByRole("group", { name: "Hint style" })
    const shown = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el.closest(".quire-block-bar")!).opacity)
    // Out of the hint, its bar is not shown; with the caret in it, it is, the hint's style pressed.
    await editor.getByText("End.").click()
    await page.mouse.move(5, 5)
    await expect.poll(() => shown(styles)).toBe("0")
    await editor.getByText("Careful here.").click()
    await page.mouse.move(5, 5)
    await expect.poll(() => shown(styles)).toBe("1")
    expect(await styles.getByRole("button", { name: "Info" }).getAttribute("aria-pressed")).toBe("true")
    await captureScreen(page, "editor-block-bar")
    await captureOtherPairs(page, "editor-block-bar")
    await page.setViewportSize({ width: 1280, height: 800 })
    await editor.getByText("Careful here.").click()
    await styles.getByRole("button", { name: "Danger" }).click()
    await eventually("the hint's new style", read, (p) => (p.markdown ?? "").includes("{% hint style=\"danger\" %}\nCareful here.\n{% endhint %}"))
    expect(await styles.getByRole("button", { name: "Danger" }).getAttribute("aria-pressed")).toBe("true")

    // The figure: its caption under the image, its alt text and width in its bar, shown on the pointer.
    const figure = editor.locator(".quire-figure")
    await figure.hover()
    const alt = figure.getByRole("textbox", { name: "Alt text" })
    await expect.poll(() => shown(alt)).toBe("1")
    await alt.fill("A sleeping cat")
    await alt.press("Tab")
    const width = figure.getByRole("textbox", { name: "Width" })
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-field"))).toBe("Width")
    await width.fill("240")
    await width.press("Tab")
    await figure.getByRole("textbox", { name: "Caption" }).fill("The cat, asleep")
    await figure.getByRole("textbox", { name: "Caption" }).press("Tab")
    await eventually("the figure's alt text, width and caption", read, (p) =>
      /alt="A sleeping cat"/.test(p.markdown ?? "") && /width="240"/.test(p.markdown ?? "") && (p.markdown ?? "").includes("<figcaption><p>The cat, asleep</p></figcaption>"))
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
