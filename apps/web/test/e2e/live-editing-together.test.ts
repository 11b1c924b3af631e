/**
 * Live editing where the whole-page autosave used to lose text: one person with the page open in
 * two tabs, and two people typing in one paragraph at the same moment. Neither shows a conflict,
 * and every character typed is in both editors and in the change request's markdown once both
 * say "Saved".
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { editor, saved, textOf } from "./live.ts"
import { api } from "./servers.ts"

const browser = sharedBrowser()
const url = () => inject("readyServer")

const noConflict = async (page: Page) => expect(await page.getByText(/changed elsewhere|<<<<<<<|Reload the page/).count()).toBe(0)

/** A change request with one page "Notes" holding `markdown`: its screen's path and a reader of the page's markdown. */
const notesPage = async (subject: string, markdown: string) => {
  const org = await api<{ id: string }>(url(), "POST", "/orgs", { title: `${subject} Org` })
  const space = await api<{ id: string }>(url(), "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url(), "POST", `/spaces/${space.id}/change-requests`, { subject })
  await api(url(), "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Notes", slug: "notes", document: { markdown } }]
  })
  const base = `/spaces/${space.id}/change-requests/${cr.number}/content`
  const listed = await api<{ pages: ReadonlyArray<{ id: string }> }>(url(), "GET", `${base}/pages`)
  const read = async () => (await api<{ markdown?: string }>(url(), "GET", `${base}/page/${listed.pages[0]!.id}?format=markdown`)).markdown ?? ""
  return { org, path: `/s/${space.id}/~/changes/${cr.number}/notes`, read }
}

it("one person with the page in two tabs: what each tab types reaches the other and is stored", async () => {
  const { path, read } = await notesPage("Two tabs", "One paragraph.\n\nAnother paragraph.\n")
  const session = await open(browser(), url())
  try {
    await signInAsAdmin(session, url())
    const first = session.page
    const second = await session.context.newPage()
    await Promise.all([first.goto(path), second.goto(path)])
    await Promise.all([saved(first), saved(second)])

    await editor(first).getByText("One paragraph.").click()
    await first.keyboard.press("End")
    await first.keyboard.type(" Typed in the first tab.")
    await editor(second).getByText("Another paragraph.").click()
    await second.keyboard.press("End")
    await second.keyboard.type(" Typed in the second tab.")
    await editor(first).getByText("Another paragraph. Typed in the second tab.").waitFor()
    await editor(second).getByText("One paragraph. Typed in the first tab.").waitFor()
    await Promise.all([saved(first), saved(second)])
    await noConflict(first)
    await noConflict(second)
    await expect.poll(read, { timeout: 15_000 }).toBe("One paragraph. Typed in the first tab.\n\nAnother paragraph. Typed in the second tab.\n")
    expect(session.problems).toEqual([])
  } finally {
    await session.context.close()
  }
})

it("two people type in one paragraph at the same moment: no character is dropped, in either editor or in the markdown", async () => {
  const { org, path, read } = await notesPage("One paragraph", "Middle.\n")
  await api(url(), "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url(), "POST", `/orgs/${org.id}/link-invites`, { role: "edit" })
  const a = await open(browser(), url())
  const b = await open(browser(), url())
  try {
    const joined = await b.context.request.post(`${url()}/auth/invites/${org.id}.${link.id}/accept`, {
      data: { displayName: "Bea Writer", email: "bea.paragraph@quire.test", password: "a password long enough" },
      headers: { origin: url() }
    })
    expect(joined.status()).toBe(200)
    await signInAsAdmin(a, url())
    await Promise.all([a.page.goto(path), b.page.goto(path)])
    await Promise.all([saved(a.page), saved(b.page)])

    // Ada at the paragraph's start, Bea at its end, typing at once, key by key.
    await editor(a.page).getByText("Middle.").click()
    await a.page.keyboard.press("Home")
    await editor(b.page).getByText("Middle.").click()
    await b.page.keyboard.press("End")
    const ada = "Ada types before, "
    const bea = " and Bea types after."
    await Promise.all([a.page.keyboard.type(ada, { delay: 15 }), b.page.keyboard.type(bea, { delay: 15 })])

    const whole = `${ada}Middle.${bea}`
    // Without y-tiptap's patch (patches/), the caret of whoever typed after the other's change was
    // put back by content, not by Yjs, and the words came out scrambled.
    await expect.poll(() => textOf(a.page), { timeout: 15_000 }).toBe(whole)
    await expect.poll(() => textOf(b.page), { timeout: 15_000 }).toBe(whole)
    await Promise.all([saved(a.page), saved(b.page)])
    await noConflict(a.page)
    await noConflict(b.page)
    await expect.poll(read, { timeout: 15_000 }).toBe(`${whole}\n`)
    expect([...a.problems, ...b.problems]).toEqual([])
  } finally {
    await Promise.all([a.context.close(), b.context.close()])
  }
})
