/**
 * What the live-editing browser tests share: the page's editor, its status saying "Saved" (the
 * server has every change), the text the editor shows without the others' carets, and typing at
 * the end of a paragraph.
 */
import type { Page } from "playwright-core"

export const editor = (page: Page) => page.getByRole("textbox", { name: "Page content" })

/** Waits until the status says "Saved": the server acknowledged every change of this tab. */
export const saved = (page: Page) => page.getByRole("status").filter({ hasText: /^Saved$/ }).waitFor()

/** The editor's text without the others' carets (their names are drawn inside the text). */
export const textOf = (page: Page) =>
  editor(page).evaluate((element) => {
    const copy = element.cloneNode(true) as HTMLElement
    copy.querySelectorAll(".collab-caret").forEach((caret) => caret.remove())
    return copy.textContent ?? ""
  })

/** Puts the caret at the end of the paragraph holding `text` and types `typed`. */
export const typeAfter = async (page: Page, text: string, typed: string) => {
  await editor(page).getByText(text).click()
  await page.keyboard.press("End")
  await page.keyboard.type(typed)
}
